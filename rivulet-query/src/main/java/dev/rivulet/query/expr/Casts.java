package dev.rivulet.query.expr;

import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.Values;
import dev.rivulet.query.QueryException;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * {@code CAST(x AS type)}, and the conversion of a narrower branch to a DOUBLE result (a CASE or
 * COALESCE of INT and DOUBLE branches is DOUBLE, so its INT values become doubles, as in SQL).
 *
 * <p>The casts, for a non-NULL value (NULL casts to NULL of the type):
 *
 * <ul>
 *   <li>Any type to itself: the value unchanged.
 *   <li>To {@code INT} from {@code DOUBLE} or {@code DECIMAL}: rounded to the nearest integer,
 *       halves away from zero (2.5 is 3, -2.5 is -3; PostgreSQL's and H2's rule for decimals,
 *       SQLite's {@code round}); NaN and the infinities are NULL, as a value that cannot be
 *       converted (like division by zero) must not stop a live pipeline. An integer beyond 64 bits
 *       stays exact, as integer arithmetic carries it (see {@link Arithmetic}).
 *   <li>To {@code DOUBLE} from {@code INT} or {@code DECIMAL}: the nearest double.
 *   <li>To {@code DECIMAL} from {@code INT}: the same value, also an integer beyond 64 bits that a
 *       double happens to hold (2<sup>63</sup>); from {@code DOUBLE}: the shortest decimal that
 *       reads back as the double ({@code 0.1}, not its binary expansion), as PostgreSQL and H2
 *       convert; a non-finite double stays itself.
 *   <li>To {@code STRING} from {@code INT}: its decimal digits, with a {@code -} when negative.
 *   <li>From an untyped NULL or an {@code ANY} expression to any type: by the kind the value has
 *       when evaluated, by the rules above; a value no rule converts is an error naming it.
 * </ul>
 *
 * <p>Other casts are refused when the query is built ({@link #check}): text to numbers (engines
 * disagree on malformed text), fractions or booleans to text (their text forms differ between
 * engines), and anything to or from BYTES, DATE and TIMESTAMP but the type itself.
 */
public final class Casts {
  /** For messages: which casts exist. */
  static final String SUPPORTED = "CAST converts between INT, DOUBLE and DECIMAL, from INT to STRING,"
      + " from NULL to any type, and any type to itself";

  private Casts() {}

  /** True when {@code CAST(x AS to)} is allowed for an {@code x} of type {@code from}. */
  static boolean allowed(ColumnType from, ColumnType to) {
    if (to == ColumnType.ANY) {
      return false;
    }
    return from == to || from == ColumnType.ANY || (from.isNumeric() && to.isNumeric())
        || (from == ColumnType.INT && to == ColumnType.STRING);
  }

  /** An evaluator of {@code CAST(arg AS to)}, {@code arg} of static type {@code from}. */
  static Evaluator compile(Evaluator arg, ColumnType from, ColumnType to, String text, String clause) {
    if (from == to || from == ColumnType.INT && to == ColumnType.DECIMAL) {
      return arg; // every INT value is a DECIMAL one; its canonical Double (2^63) is an integer, not a double
    }
    return row -> {
      Object v = arg.eval(row);
      return v == null ? null : convert(v, to, text, clause);
    };
  }

  /** Canonical value {@code v} cast to {@code to} (see the class comment). */
  static Object convert(Object v, ColumnType to, String text, String clause) {
    switch (to) {
      case INT:
        if (v instanceof Long) {
          return v;
        }
        if (v instanceof Double d) {
          return Double.isFinite(d) ? Values.canonical(new BigDecimal(d).setScale(0, RoundingMode.HALF_UP)) : null;
        }
        if (v instanceof BigDecimal bd) {
          return Values.canonical(bd.setScale(0, RoundingMode.HALF_UP));
        }
        break;
      case DOUBLE:
        if (v instanceof Number n) {
          return toDouble(n);
        }
        break;
      case DECIMAL:
        if (v instanceof Double d && Double.isFinite(d)) {
          return Values.canonical(new BigDecimal(Double.toString(d)));
        }
        if (v instanceof Number) {
          return v;
        }
        break;
      case STRING:
        if (v instanceof String) {
          return v;
        }
        if (v instanceof Long l) {
          return Long.toString(l);
        }
        if (isInteger(v)) {
          return Values.toDecimal((Number) v).toBigIntegerExact().toString();
        }
        break;
      default:
        if (to.accepts(v)) {
          return v;
        }
    }
    throw new QueryException(clause + ": cannot cast " + Values.render(v) + " (" + ColumnType.of(v) + "), a value of "
        + text + ", to " + to + "; " + SUPPORTED);
  }

  /** Whether {@code v}, a canonical double or decimal, is an integer (a Long is not asked). */
  static boolean isInteger(Object v) {
    if (v instanceof Double d) {
      return Double.isFinite(d) && d == Math.rint(d);
    }
    return v instanceof BigDecimal bd && bd.stripTrailingZeros().scale() <= 0;
  }

  /**
   * A canonical number as a DOUBLE value: the canonical form of the nearest double (an integer a
   * double holds exactly stays as it is); anything else unchanged.
   */
  public static Object toDouble(Object v) {
    if (v instanceof Long l) {
      return Values.isExactDouble(l) ? v : Values.canonical((double) l);
    }
    if (v instanceof BigDecimal bd) {
      return Values.canonical(bd.doubleValue());
    }
    return v;
  }
}
