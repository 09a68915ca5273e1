package dev.rivulet.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.Row;
import dev.rivulet.query.expr.ExprCompiler;
import dev.rivulet.query.expr.ExprText;
import dev.rivulet.query.ref.RefEval;
import dev.rivulet.query.sql.SqlDialect;
import dev.rivulet.testkit.Seeds;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Objects;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The compiler against the reference evaluator ({@link RefEval}, no shared code) on rows of the
 * edge values that {@code ExprDifferentialTest} keeps away from, because the SQL engines overflow,
 * round or lack them there: 64-bit integer edges and integers beyond 64 bits (some held exactly by
 * a double), NaN, the infinities, -0.0, doubles past 2^53, the least double, huge, tiny and
 * many-digit decimals, empty text, lone surrogates and case-mapping letters (a substring start or
 * length beyond 64 bits among them). A case the reference refuses is skipped: the two evaluate the
 * operands of LIKE in a different order, so which one meets a refused value first differs.
 */
class ExprEdgeValuesTest {
  private static final Object[] INTS = {Long.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE + 1, Long.MAX_VALUE - 1, 0L,
      -1L, 1L, 1L << 62, -(1L << 62), (1L << 53) + 1, BigInteger.ONE.shiftLeft(63),
      BigInteger.ONE.shiftLeft(64).add(BigInteger.ONE), BigInteger.ONE.shiftLeft(63).negate().subtract(BigInteger.ONE), 3L};
  private static final Object[] DOUBLES = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -0.0, 1e308,
      -1e308, 9.007199254740992E15, 0.1, Double.MIN_VALUE, 0.5, 1e19, -2.5};
  private static final Object[] DECIMALS = {new BigDecimal("1E+40"), new BigDecimal("0.10"), new BigDecimal("1E-40"),
      new BigDecimal("123456789012345678901234567890.123"), 0.5, Double.NaN, Double.POSITIVE_INFINITY, 7L,
      new BigDecimal("-0.00")};
  private static final Object[] STRINGS = {"", "a", "\ud83d\ude00", "\ud800", "A%_\\", "ß", "İ", "ǅ"};

  @Test
  void theCompilerAgreesWithTheReferenceOnEdgeValues() {
    int compared = 0;
    int refused = 0;
    for (long seed : Seeds.runs(3000)) {
      Random r = new Random(seed);
      RandomExprs gen = new RandomExprs(SqlDialect.SQLITE, r);
      gen.row(); // the generator's texts, which its string literals and patterns draw on
      Row row = edgeRow(r);
      Expr e = gen.gen(RandomExprs.KINDS.get(r.nextInt(RandomExprs.KINDS.size())), 1 + r.nextInt(4));
      Object reference;
      try {
        reference = RefEval.of(e, RandomExprs.SCOPE).eval(row);
      } catch (IllegalStateException outOfDomain) {
        refused++;
        continue;
      }
      Object ours = ExprCompiler.compile(e, RandomExprs.SCOPE).eval(row);
      if (!Objects.equals(ours, reference)) {
        fail("seed " + seed + " (" + Seeds.replayHint(seed) + "): " + ExprText.of(e) + "\n  row " + row
            + "\n  reference: " + reference + "\n  compiler:  " + ours);
      }
      compared++;
    }
    assertThat(compared).as("cases compared").isGreaterThan(Seeds.runs(3000).size() * 9 / 10);
  }

  private static Row edgeRow(Random r) {
    Object[] v = new Object[RandomExprs.SCHEMA.width()];
    for (int i = 0; i < v.length; i++) {
      ColumnType t = RandomExprs.SCHEMA.column(i).type();
      v[i] = r.nextInt(6) == 0 ? null : switch (t) {
        case INT -> INTS[r.nextInt(INTS.length)];
        case DOUBLE -> DOUBLES[r.nextInt(DOUBLES.length)];
        case DECIMAL -> DECIMALS[r.nextInt(DECIMALS.length)];
        case STRING -> STRINGS[r.nextInt(STRINGS.length)];
        default -> r.nextBoolean();
      };
    }
    return Row.of(v);
  }
}
