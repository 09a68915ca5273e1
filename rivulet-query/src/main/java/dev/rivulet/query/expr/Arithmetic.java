package dev.rivulet.query.expr;

import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.Values;
import dev.rivulet.query.Expr;
import dev.rivulet.query.QueryException;
import java.math.BigDecimal;
import java.math.MathContext;

/**
 * Evaluators for {@code + - * /}, chosen once by the static result type of the operation (see
 * {@link TypeChecker#arithmeticType}). The contract, for non-NULL operands (any NULL operand gives
 * NULL):
 *
 * <ul>
 *   <li>{@code INT}: exact 64-bit arithmetic; a result beyond 64 bits is not wrapped but computed
 *       exactly as a decimal (and then canonical, so it is a {@code BigDecimal}, or a {@code Double}
 *       when a double holds it exactly, e.g. 2<sup>63</sup>). Division truncates toward zero.
 *   <li>{@code DOUBLE}: IEEE 754 binary64 arithmetic on the operands' double values.
 *   <li>{@code DECIMAL}: exact decimal arithmetic on the operands' exact values (a double operand
 *       converts exactly, as {@code new BigDecimal(double)}); division rounds to 34 significant
 *       digits, half-even ({@link MathContext#DECIMAL128}). A non-finite double operand (only
 *       reachable by overflowing double arithmetic) makes the operation a double one.
 *   <li>{@code ANY} (both operands are NULL literals or ANY columns): the rule above for the kinds
 *       the operand values have at run time (both integers: INT; any decimal: DECIMAL; else DOUBLE).
 *   <li>Division by zero, of any type, is NULL.
 * </ul>
 *
 * <p>Every result is canonical ({@link Values#canonical}), so {@code 0.5 * 4} is {@code 2L}. The type
 * decides the arithmetic even when the values look alike: a {@code DOUBLE} column holding 5 is the
 * canonical {@code 5L}, and {@code 5 / 2} over it is still {@code 2.5}.
 */
public final class Arithmetic {
  private static final BigDecimal ZERO = BigDecimal.ZERO;

  private Arithmetic() {}

  /** An evaluator of {@code l op r} whose static result type is {@code type}. */
  static Evaluator compile(Expr.ArithOp op, ColumnType type, Evaluator l, Evaluator r, String text, String clause) {
    return switch (type) {
      case INT -> ints(op, l, r, text, clause);
      case DOUBLE -> doubles(op, l, r, text, clause);
      case DECIMAL -> decimals(op, l, r, text, clause);
      default -> dynamic(op, l, r, text, clause);
    };
  }

  private static Evaluator ints(Expr.ArithOp op, Evaluator l, Evaluator r, String text, String clause) {
    return switch (op) {
      case ADD -> row -> {
        Object a = l.eval(row);
        Object b = a == null ? null : r.eval(row);
        return b == null ? null : add(a, b, text, clause);
      };
      case SUB -> row -> {
        Object a = l.eval(row);
        Object b = a == null ? null : r.eval(row);
        return b == null ? null : sub(a, b, text, clause);
      };
      case MUL -> row -> {
        Object a = l.eval(row);
        Object b = a == null ? null : r.eval(row);
        return b == null ? null : mul(a, b, text, clause);
      };
      case DIV -> row -> {
        Object a = l.eval(row);
        Object b = a == null ? null : r.eval(row);
        return b == null ? null : div(a, b, text, clause);
      };
    };
  }

  private static Object intOp(Expr.ArithOp op, Object a, Object b, String text, String clause) {
    return switch (op) {
      case ADD -> add(a, b, text, clause);
      case SUB -> sub(a, b, text, clause);
      case MUL -> mul(a, b, text, clause);
      case DIV -> div(a, b, text, clause);
    };
  }

  private static Object add(Object a, Object b, String text, String clause) {
    if (a instanceof Long x && b instanceof Long y) {
      long s = x + y;
      if (((x ^ s) & (y ^ s)) >= 0) {
        return s;
      }
    }
    return exactInt(Expr.ArithOp.ADD, a, b, text, clause);
  }

  private static Object sub(Object a, Object b, String text, String clause) {
    if (a instanceof Long x && b instanceof Long y) {
      long d = x - y;
      if (((x ^ y) & (x ^ d)) >= 0) {
        return d;
      }
    }
    return exactInt(Expr.ArithOp.SUB, a, b, text, clause);
  }

  private static Object mul(Object a, Object b, String text, String clause) {
    if (a instanceof Long x && b instanceof Long y) {
      long hi = Math.multiplyHigh(x, y);
      long lo = x * y;
      if ((hi == 0 && lo >= 0) || (hi == -1 && lo < 0)) {
        return lo;
      }
    }
    return exactInt(Expr.ArithOp.MUL, a, b, text, clause);
  }

  private static Object div(Object a, Object b, String text, String clause) {
    if (a instanceof Long x && b instanceof Long y) {
      if (y == 0) {
        return null;
      }
      if (x != Long.MIN_VALUE || y != -1) {
        return x / y;
      }
    }
    return exactInt(Expr.ArithOp.DIV, a, b, text, clause);
  }

  /** INT arithmetic off the fast path: an overflow, or an operand that overflowed earlier. */
  private static Object exactInt(Expr.ArithOp op, Object a, Object b, String text, String clause) {
    BigDecimal x = integral(a, text, clause);
    BigDecimal y = integral(b, text, clause);
    if (op == Expr.ArithOp.DIV) {
      return y.signum() == 0 ? null : Values.canonical(x.divideToIntegralValue(y));
    }
    return Values.canonical(exactOp(op, x, y));
  }

  private static Evaluator doubles(Expr.ArithOp op, Evaluator l, Evaluator r, String text, String clause) {
    return row -> {
      Object a = l.eval(row);
      Object b = a == null ? null : r.eval(row);
      if (b == null) {
        return null;
      }
      return doubleOp(op, number(a, text, clause).doubleValue(), number(b, text, clause).doubleValue());
    };
  }

  private static Object doubleOp(Expr.ArithOp op, double x, double y) {
    double v;
    switch (op) {
      case ADD -> v = x + y;
      case SUB -> v = x - y;
      case MUL -> v = x * y;
      default -> {
        if (y == 0) {
          return null;
        }
        v = x / y;
      }
    }
    return Values.canonical(v);
  }

  private static Evaluator decimals(Expr.ArithOp op, Evaluator l, Evaluator r, String text, String clause) {
    return row -> {
      Object a = l.eval(row);
      Object b = a == null ? null : r.eval(row);
      if (b == null) {
        return null;
      }
      return decimalOp(op, a, b, text, clause);
    };
  }

  private static Object decimalOp(Expr.ArithOp op, Object a, Object b, String text, String clause) {
    BigDecimal x = decimal(a, text, clause);
    BigDecimal y = decimal(b, text, clause);
    if (x == null || y == null) {
      return doubleOp(op, ((Number) a).doubleValue(), ((Number) b).doubleValue());
    }
    if (op == Expr.ArithOp.DIV) {
      return y.signum() == 0 ? null : Values.canonical(x.divide(y, MathContext.DECIMAL128));
    }
    return Values.canonical(exactOp(op, x, y));
  }

  private static BigDecimal exactOp(Expr.ArithOp op, BigDecimal x, BigDecimal y) {
    return switch (op) {
      case ADD -> x.add(y);
      case SUB -> x.subtract(y);
      case MUL -> x.multiply(y);
      case DIV -> throw new IllegalStateException("division is not exact");
    };
  }

  /** ANY: the arithmetic of the kinds the values have. */
  private static Evaluator dynamic(Expr.ArithOp op, Evaluator l, Evaluator r, String text, String clause) {
    return row -> {
      Object a = l.eval(row);
      Object b = a == null ? null : r.eval(row);
      if (b == null) {
        return null;
      }
      number(a, text, clause);
      number(b, text, clause);
      if (a instanceof BigDecimal || b instanceof BigDecimal) {
        return decimalOp(op, a, b, text, clause);
      }
      if (a instanceof Double || b instanceof Double) {
        return doubleOp(op, ((Number) a).doubleValue(), ((Number) b).doubleValue());
      }
      return intOp(op, a, b, text, clause);
    };
  }

  /** The exact value of a number, or null for a non-finite double. */
  private static BigDecimal decimal(Object v, String text, String clause) {
    Number n = number(v, text, clause);
    if (n instanceof Double d && !Double.isFinite(d)) {
      return null;
    }
    return n instanceof Long x ? (x == 0 ? ZERO : BigDecimal.valueOf(x)) : Values.toDecimal(n);
  }

  /**
   * The exact value of an operand of INT arithmetic: an integer (past 64 bits, an integral
   * decimal). A fraction or a non-finite double (an ANY operand's value) is an error: an INT
   * result must be an integer.
   */
  private static BigDecimal integral(Object v, String text, String clause) {
    BigDecimal d = decimal(v, text, clause);
    if (d == null || d.signum() != 0 && d.stripTrailingZeros().scale() > 0) {
      throw new QueryException(clause + ": " + text + " is INT arithmetic, but a value of it is "
          + Values.render(v) + ", not an integer");
    }
    return d;
  }

  private static Number number(Object v, String text, String clause) {
    if (v instanceof Number n) {
      return n;
    }
    throw new QueryException(clause + ": arithmetic needs numbers, but a value of " + text + " is " + Values.render(v));
  }
}
