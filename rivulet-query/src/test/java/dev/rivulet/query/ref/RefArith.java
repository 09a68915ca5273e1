package dev.rivulet.query.ref;

import dev.rivulet.query.Expr;
import dev.rivulet.testkit.RefValues;
import java.math.BigDecimal;
import java.math.MathContext;

/**
 * The reference's {@code + - * /} on canonical numbers, chosen by the static type of the operation
 * (see {@link RefTypes}); NULL operands are the caller's.
 *
 * <ul>
 *   <li>INT: the exact integer result, whatever its size (SQL's integers do not wrap; beyond 64
 *       bits the value is kept exactly); division truncates toward zero.
 *   <li>DOUBLE: IEEE binary64 on the operands' double values.
 *   <li>DECIMAL: exact, a double operand taken at its exact binary value; division rounds to 34
 *       significant digits, half-even. With an infinite or NaN operand: as DOUBLE.
 *   <li>ANY (NULL literals or untyped columns): by the values at hand: any decimal DECIMAL, else
 *       any double DOUBLE, else INT.
 *   <li>Division by zero is NULL.
 * </ul>
 */
final class RefArith {
  private RefArith() {}

  static Object apply(Expr.ArithOp op, RefType type, Object a, Object b) {
    if (!RefValues.isNumber(a) || !RefValues.isNumber(b)) {
      throw new IllegalStateException("reference: arithmetic on " + RefValues.render(a) + " and " + RefValues.render(b));
    }
    RefType t = type;
    if (t == RefType.ANY) {
      t = a instanceof BigDecimal || b instanceof BigDecimal ? RefType.DECIMAL
          : a instanceof Double || b instanceof Double ? RefType.DOUBLE : RefType.INT;
    }
    if (t == RefType.DOUBLE || RefValues.nonFinite(a) || RefValues.nonFinite(b)) {
      return doubles(op, ((Number) a).doubleValue(), ((Number) b).doubleValue());
    }
    BigDecimal x = RefValues.exact(a);
    BigDecimal y = RefValues.exact(b);
    switch (op) {
      case ADD:
        return RefValues.number(x.add(y));
      case SUB:
        return RefValues.number(x.subtract(y));
      case MUL:
        return RefValues.number(x.multiply(y));
      default:
        if (y.signum() == 0) {
          return null;
        }
        if (t == RefType.INT) {
          // integers: BigInteger division truncates toward zero
          return RefValues.number(new BigDecimal(x.toBigIntegerExact().divide(y.toBigIntegerExact())));
        }
        return RefValues.number(x.divide(y, MathContext.DECIMAL128));
    }
  }

  private static Object doubles(Expr.ArithOp op, double x, double y) {
    switch (op) {
      case ADD:
        return RefValues.canonical(x + y);
      case SUB:
        return RefValues.canonical(x - y);
      case MUL:
        return RefValues.canonical(x * y);
      default:
        return y == 0 ? null : RefValues.canonical(x / y);
    }
  }
}
