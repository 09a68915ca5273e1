package dev.rivulet.query.expr;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.lit;
import static dev.rivulet.query.Exprs.ne;
import static dev.rivulet.query.expr.ColumnTestRows.S;
import static dev.rivulet.query.expr.ColumnTestRows.SCOPE;
import static dev.rivulet.query.expr.ColumnTestRows.agreesWithGeneral;
import static dev.rivulet.query.expr.ColumnTestRows.value;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.Row;
import dev.rivulet.query.Expr;
import dev.rivulet.testkit.Seeds;
import java.util.Random;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * The where-test {@code column = literal} compiles to {@link ColumnEquals} (either way round; not
 * for another comparison, a NULL literal or two columns), and it accepts exactly the rows the
 * general comparison makes TRUE ({@link ExprCompiler#compile} evaluated, TRUE only): random
 * values of every column type against random literals, NULLs, and numbers equal across Java
 * classes (an INT 2 and a DOUBLE literal 2.0, a DECIMAL 2.50 and 2.5).
 */
class ColumnEqualsTest {
  @Test
  void columnEqualsLiteralTakesTheFastPathEitherWayRound() {
    assertThat(ExprCompiler.predicate(eq(col("t.s"), lit("open")), SCOPE)).isInstanceOf(ColumnEquals.class);
    assertThat(ExprCompiler.predicate(eq(lit(3L), col("t.i")), SCOPE)).isInstanceOf(ColumnEquals.class);
    assertThat(ExprCompiler.predicate(ne(col("t.s"), lit("open")), SCOPE)).isNotInstanceOf(ColumnEquals.class);
    assertThat(ExprCompiler.predicate(eq(col("t.i"), col("t.d")), SCOPE)).isNotInstanceOf(ColumnEquals.class);
    assertThat(ExprCompiler.predicate(eq(col("t.s"), lit(null, ColumnType.STRING)), SCOPE))
        .isNotInstanceOf(ColumnEquals.class);
  }

  @Test
  void fastPathAcceptsWhatTheGeneralComparisonMakesTrue() {
    int matched = 0;
    for (long seed : Seeds.runs(40)) {
      Random rnd = new Random(seed);
      for (int k = 0; k < 30; k++) {
        int c = rnd.nextInt(S.width());
        Object v = value(S.column(c).type(), rnd);
        if (v == null) {
          continue;
        }
        Expr.Col column = col("t." + S.column(c).name());
        Expr.Lit literal = lit(v, S.column(c).type() == ColumnType.ANY ? ColumnType.ofJava(v) : S.column(c).type());
        Expr e = rnd.nextBoolean() ? eq(column, literal) : eq(literal, column);
        Predicate<Row> fast = ExprCompiler.predicate(e, SCOPE);
        assertThat(fast).as("seed %d: %s", seed, e).isInstanceOf(ColumnEquals.class);
        matched += agreesWithGeneral(fast, e, rnd, seed);
      }
    }
    assertThat(matched).as("some rows match").isPositive();
  }
}
