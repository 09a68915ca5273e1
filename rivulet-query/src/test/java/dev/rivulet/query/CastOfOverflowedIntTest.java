package dev.rivulet.query;

import static dev.rivulet.query.Exprs.add;
import static dev.rivulet.query.Exprs.cast;
import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.mul;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.Row;
import dev.rivulet.query.expr.ExprCompiler;
import dev.rivulet.query.ref.RefEval;
import java.math.BigDecimal;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/**
 * {@code CAST(x AS DECIMAL)} of an INT keeps its value (Casts: "To DECIMAL from INT: the same
 * value"), also past 64 bits, where INT arithmetic carries an exact integer that a double may hold
 * (2^63 is canonically a {@code Double}): it must not be read as a DOUBLE and shortened to the
 * shortest decimal that reads back as that double (9223372036854776000 instead of 2^63).
 */
class CastOfOverflowedIntTest {
  private static final TestScope SCOPE = TestScope.of("t", "i INT, j INT");

  private static Object eval(Expr e, Row row) {
    return ExprCompiler.compile(e, SCOPE).eval(row);
  }

  @Test
  void anIntPastSixtyFourBitsCastsToTheSameDecimal() {
    Row row = Row.of(Long.MAX_VALUE, 1L << 62);
    BigInteger twoTo63 = BigInteger.ONE.shiftLeft(63);
    Expr plusOne = add(col("t.i"), Exprs.lit(1));
    Expr timesTwo = mul(col("t.j"), Exprs.lit(2));
    Expr timesFour = mul(col("t.j"), Exprs.lit(4));
    for (Expr x : new Expr[] {plusOne, timesTwo, timesFour}) {
      Object exact = eval(x, row);
      Object asDecimal = eval(cast(x, ColumnType.DECIMAL), row);
      assertThat(asDecimal).as("CAST(%s AS DECIMAL)", x).isEqualTo(exact);
      assertThat(eval(eq(cast(x, ColumnType.DECIMAL), x), row)).as("CAST(%s AS DECIMAL) = it", x).isEqualTo(true);
      assertThat(ColumnType.DECIMAL.present(asDecimal)).as("shown as a DECIMAL")
          .isEqualTo(new BigDecimal(ColumnType.INT.present(exact) instanceof BigInteger b ? b : BigInteger.ZERO));
    }
    assertThat(ColumnType.INT.present(eval(plusOne, row))).isEqualTo(twoTo63);
    // the reference evaluator says the same
    for (Expr x : new Expr[] {plusOne, timesTwo, timesFour}) {
      assertThat(RefEval.of(cast(x, ColumnType.DECIMAL), SCOPE).eval(row)).as("reference CAST(%s AS DECIMAL)", x)
          .isEqualTo(RefEval.of(x, SCOPE).eval(row));
    }
  }

  @Test
  void aDoubleStillCastsToItsShortestDecimal() {
    TestScope scope = TestScope.of("t", "d DOUBLE");
    Row row = Row.of(9.223372036854775808E18);
    assertThat(ExprCompiler.compile(cast(col("t.d"), ColumnType.DECIMAL), scope).eval(row))
        .isEqualTo(dev.rivulet.engine.Values.canonical(new BigDecimal("9223372036854776000")));
  }
}
