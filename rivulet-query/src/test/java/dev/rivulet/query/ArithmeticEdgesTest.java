package dev.rivulet.query;

import static dev.rivulet.query.Exprs.add;
import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.div;
import static dev.rivulet.query.Exprs.mul;
import static dev.rivulet.query.Exprs.sub;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Values;
import dev.rivulet.query.expr.ExprCompiler;
import dev.rivulet.query.expr.Scope;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.function.BinaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Integer arithmetic at the 64-bit edges is exact (the fast path hands every overflow to exact
 * arithmetic), and arithmetic over ANY columns follows the kinds of the values it meets.
 */
class ArithmeticEdgesTest {
  private static final Scope SCOPE = TestScope.of("r", "i INT, j INT, a ANY, b ANY");
  private static final long MAX = Long.MAX_VALUE;
  private static final long MIN = Long.MIN_VALUE;

  private static Object ints(BinaryOperator<Expr> op, long i, long j) {
    return ExprCompiler.compile(op.apply(col("r.i"), col("r.j")), SCOPE).eval(Row.of(i, j, null, null));
  }

  private static Object anys(BinaryOperator<Expr> op, Object a, Object b) {
    return ExprCompiler.compile(op.apply(col("r.a"), col("r.b")), SCOPE)
        .eval(Row.of(null, null, Values.canonical(a), Values.canonical(b)));
  }

  private static Object exact(BigInteger v) {
    return Values.canonical(new BigDecimal(v));
  }

  @Test
  void integerArithmeticIsExactPastEitherEdge() {
    BigInteger max = BigInteger.valueOf(MAX);
    BigInteger min = BigInteger.valueOf(MIN);
    long[][] pairs = {{MAX, 1}, {1, MAX}, {MAX, MAX}, {MIN, -1}, {-1, MIN}, {MIN, MIN}, {MAX, -1}, {MIN, 1},
        {MIN, MAX}, {MAX, MIN}, {MAX, 2}, {MIN, 2}, {2, MIN}, {MIN, -1}, {-3, 5}, {3, -5}, {0, 0}, {-1, -1},
        {1L << 32, 1L << 31}, {-(1L << 32), 1L << 31}, {1L << 32, -(1L << 31)}, {1L << 32, 1L << 32}};
    for (long[] p : pairs) {
      BigInteger x = BigInteger.valueOf(p[0]);
      BigInteger y = BigInteger.valueOf(p[1]);
      String what = p[0] + " op " + p[1];
      assertThat(ints(Exprs::add, p[0], p[1])).as("add " + what).isEqualTo(exact(x.add(y)));
      assertThat(ints(Exprs::sub, p[0], p[1])).as("sub " + what).isEqualTo(exact(x.subtract(y)));
      assertThat(ints(Exprs::mul, p[0], p[1])).as("mul " + what).isEqualTo(exact(x.multiply(y)));
      if (p[1] != 0) {
        assertThat(ints(Exprs::div, p[0], p[1])).as("div " + what).isEqualTo(exact(x.divide(y)));
      }
    }
    assertThat(ints(Exprs::div, MIN, -1)).as("the one 64-bit division that overflows").isEqualTo(exact(min.negate()));
    assertThat(ints(Exprs::div, 7, 0)).as("division by zero").isNull();
    assertThat(ints(Exprs::sub, MIN, 1)).isEqualTo(exact(min.subtract(BigInteger.ONE)));
    assertThat(ints(Exprs::add, MAX, 1)).isEqualTo(exact(max.add(BigInteger.ONE)));
  }

  @Test
  void anyColumnsTakeTheArithmeticOfTheirValues() {
    assertThat(anys(Exprs::add, 2L, 3L)).isEqualTo(5L);
    assertThat(anys(Exprs::div, 7L, 2L)).as("integers divide to an integer").isEqualTo(3L);
    assertThat(anys(Exprs::add, MAX, 1L)).isEqualTo(exact(BigInteger.valueOf(MAX).add(BigInteger.ONE)));
    assertThat(anys(Exprs::div, 7L, 2.5)).isEqualTo(2.8);
    assertThat(anys(Exprs::mul, 0.5, 3L)).isEqualTo(Values.canonical(1.5));
    assertThat(anys(Exprs::add, new BigDecimal("0.1"), new BigDecimal("0.2"))).isEqualTo(Values.canonical(new BigDecimal("0.3")));
    assertThat(anys(Exprs::sub, new BigDecimal("0.5"), 1L)).isEqualTo(Values.canonical(new BigDecimal("-0.5")));
    assertThat(anys(Exprs::mul, 2L, new BigDecimal("0.25"))).isEqualTo(Values.canonical(new BigDecimal("0.5")));
    assertThat(anys(Exprs::add, null, 1L)).isNull();
    assertThat(anys(Exprs::add, 1L, null)).isNull();
  }

  @Test
  void nestedOperatorsCompose() {
    Expr e = sub(mul(add(col("r.i"), col("r.j")), col("r.j")), div(col("r.i"), col("r.j")));
    assertThat(ExprCompiler.compile(e, SCOPE).eval(Row.of(7L, 2L, null, null))).isEqualTo((7L + 2) * 2 - 7L / 2);
  }
}
