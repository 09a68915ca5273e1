package dev.rivulet.query.ref;

import dev.rivulet.testkit.RefValues;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * The reference's {@code CAST(x AS t)} on canonical values, from SQL's rules as checked against
 * SQLite and H2 (NULL is the caller's: it casts to NULL):
 *
 * <ul>
 *   <li>to the value's own type: unchanged;
 *   <li>to INT: a fraction rounds to the nearest integer, halves away from zero (2.5 is 3, -2.5 is
 *       -3); NaN and the infinities give NULL;
 *   <li>to DOUBLE: the nearest double of the exact value;
 *   <li>to DECIMAL: an integer or decimal keeps its value; a finite double becomes the shortest
 *       decimal that reads back as it ({@code 0.1}, not its binary expansion); a non-finite double
 *       stays;
 *   <li>to STRING: an integer as its decimal digits (with a {@code -} when negative); text stays.
 * </ul>
 *
 * Any other value is a reference error (the typing table refuses such casts).
 */
public final class RefCasts {
  private RefCasts() {}

  /** Canonical non-NULL {@code v} cast to {@code to}. */
  public static Object convert(Object v, RefType to) {
    switch (to) {
      case INT:
        if (v instanceof Long) {
          return v;
        }
        if (RefValues.nonFinite(v)) {
          return null;
        }
        if (RefValues.isNumber(v)) {
          return RefValues.number(RefValues.exact(v).setScale(0, RoundingMode.HALF_UP));
        }
        break;
      case DOUBLE:
        if (RefValues.isNumber(v)) {
          return toDouble(v);
        }
        break;
      case DECIMAL:
        if (v instanceof Double d && !RefValues.nonFinite(d)) {
          return RefValues.number(new BigDecimal(Double.toString(d)));
        }
        if (RefValues.isNumber(v)) {
          return v;
        }
        break;
      case STRING:
        if (v instanceof String) {
          return v;
        }
        if (RefValues.isNumber(v) && !RefValues.nonFinite(v)) {
          BigDecimal x = RefValues.exact(v);
          if (x.signum() == 0 || x.stripTrailingZeros().scale() <= 0) {
            return x.toBigIntegerExact().toString();
          }
        }
        break;
      case BOOL:
        if (v instanceof Boolean) {
          return v;
        }
        break;
      default:
        if (!RefValues.isNumber(v) && !(v instanceof String) && !(v instanceof Boolean)) {
          return v; // bytes, dates, timestamps: only to their own type (checked by the typing table)
        }
    }
    throw new IllegalStateException("reference: cannot cast " + RefValues.render(v) + " to " + to);
  }

  /** A canonical number as a double value (the canonical form of its nearest double). */
  public static Object toDouble(Object v) {
    if (v instanceof Double || !RefValues.isNumber(v)) {
      return v;
    }
    return RefValues.canonical(RefValues.exact(v).doubleValue());
  }
}
