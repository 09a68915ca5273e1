package dev.rivulet.query.expr;

import dev.rivulet.engine.Values;
import dev.rivulet.query.Expr;
import dev.rivulet.query.QueryException;
import java.util.List;
import java.util.Locale;

/**
 * The string functions of {@link Expr.StringFn}, as evaluators. Any NULL argument gives NULL.
 * Strings are measured and cut in Unicode code points, never in UTF-16 units:
 *
 * <ul>
 *   <li>{@code upper}, {@code lower}: full Unicode case mapping, locale-independent ({@link
 *       Locale#ROOT}), so the length may change ({@code upper('ß')} is {@code 'SS'}).
 *   <li>{@code length}: the number of code points.
 *   <li>{@code concat}: the arguments joined; NULL when any is NULL (SQL's {@code ||}).
 *   <li>{@code substring(s, start[, length])}: SQLite's {@code substr}, exactly, for every integer
 *       start and length (see {@link #substring}).
 *   <li>{@code trim}: removes leading and trailing U+0020 spaces only (not tabs or newlines).
 * </ul>
 */
public final class StringFunctions {
  private static final java.math.BigDecimal MAX_LONG = java.math.BigDecimal.valueOf(Long.MAX_VALUE);
  private static final java.math.BigDecimal MIN_LONG = java.math.BigDecimal.valueOf(Long.MIN_VALUE);

  private StringFunctions() {}

  /** An evaluator of {@code fn(args...)}; the arity and types were checked by {@link TypeChecker}. */
  static Evaluator compile(Expr.StringFn fn, List<Evaluator> args, String text, String clause) {
    Evaluator a0 = args.get(0);
    return switch (fn) {
      case UPPER -> row -> {
        Object v = a0.eval(row);
        return v == null ? null : string(v, text, clause).toUpperCase(Locale.ROOT);
      };
      case LOWER -> row -> {
        Object v = a0.eval(row);
        return v == null ? null : string(v, text, clause).toLowerCase(Locale.ROOT);
      };
      case LENGTH -> row -> {
        Object v = a0.eval(row);
        if (v == null) {
          return null;
        }
        String s = string(v, text, clause);
        return (long) s.codePointCount(0, s.length());
      };
      case TRIM -> row -> {
        Object v = a0.eval(row);
        return v == null ? null : trim(string(v, text, clause));
      };
      case CONCAT -> concat(args.toArray(new Evaluator[0]), text, clause);
      case SUBSTRING -> {
        Evaluator start = args.get(1);
        Evaluator length = args.size() > 2 ? args.get(2) : null;
        yield row -> {
          Object s = a0.eval(row);
          Object y = s == null ? null : start.eval(row);
          if (y == null) {
            return null;
          }
          long z = Long.MAX_VALUE;
          if (length != null) {
            Object zv = length.eval(row);
            if (zv == null) {
              return null;
            }
            z = integer(zv, text, clause);
          }
          return substring(string(s, text, clause), integer(y, text, clause), z);
        };
      }
    };
  }

  private static Evaluator concat(Evaluator[] parts, String text, String clause) {
    return row -> {
      StringBuilder sb = new StringBuilder();
      for (Evaluator p : parts) {
        Object v = p.eval(row);
        if (v == null) {
          return null;
        }
        sb.append(string(v, text, clause));
      }
      return sb.toString();
    };
  }

  /**
   * SQLite's {@code substr(s, y, z)} in code points. Positions are numbered from 1; {@code y > 0}
   * names position {@code y}, {@code y < 0} counts from the end ({@code -1} is the last), and
   * {@code y = 0} names the position just before the first. The result is the characters at
   * positions {@code [y, y + z)} when {@code z >= 0}, or {@code [y + z, y)} when {@code z < 0},
   * that exist. So {@code substr('hello', 0, 2)} is {@code 'h'}, {@code substr('hello', -3, 2)}
   * is {@code 'll'}, {@code substr('hello', 3, -2)} is {@code 'he'}. Without a length ({@code z =
   * Long.MAX_VALUE}) it runs to the end, except, as in SQLite, from a start within the string's
   * length of {@code Long.MIN_VALUE} ({@code substr('abc', Long.MIN_VALUE)} is {@code 'ab'}).
   */
  public static String substring(String s, long y, long z) {
    boolean bmp = true;
    for (int i = 0; i < s.length() && bmp; i++) {
      bmp = !Character.isSurrogate(s.charAt(i));
    }
    int n = bmp ? s.length() : s.codePointCount(0, s.length());
    long s0 = y > 0 ? y : y < 0 ? n + y + 1 : 0;
    long lo = z >= 0 ? s0 : saturatingAdd(s0, z);
    long hi = z >= 0 ? saturatingAdd(s0, z) : s0;
    long from = Math.max(lo, 1);
    long to = Math.min(hi, (long) n + 1);
    if (from >= to) {
      return "";
    }
    if (bmp) {
      return s.substring((int) from - 1, (int) to - 1);
    }
    int b = s.offsetByCodePoints(0, (int) from - 1);
    int e = s.offsetByCodePoints(b, (int) (to - from));
    return s.substring(b, e);
  }

  /** Removes leading and trailing U+0020 spaces. */
  static String trim(String s) {
    int b = 0;
    int e = s.length();
    while (b < e && s.charAt(b) == ' ') {
      b++;
    }
    while (e > b && s.charAt(e - 1) == ' ') {
      e--;
    }
    return s.substring(b, e);
  }

  private static long saturatingAdd(long a, long b) {
    long r = a + b;
    if (((a ^ r) & (b ^ r)) < 0) {
      return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    return r;
  }

  static String string(Object v, String text, String clause) {
    if (v instanceof String s) {
      return s;
    }
    throw new QueryException(clause + ": " + text + " needs a string, but got " + Values.render(v));
  }

  /**
   * A start or length: an integer past 64 bits counts as the nearest 64-bit one (SQLite reads such
   * an argument so, saturating), which puts it beyond either end of any string.
   */
  private static long integer(Object v, String text, String clause) {
    if (v instanceof Long l) {
      return l;
    }
    // An integer past 64 bits is held as a double that holds it exactly, else as a decimal (see
    // Values.canonical).
    if (Casts.isInteger(v)) {
      java.math.BigDecimal d = Values.toDecimal((Number) v);
      return d.compareTo(MAX_LONG) > 0 ? Long.MAX_VALUE : d.compareTo(MIN_LONG) < 0 ? Long.MIN_VALUE : d.longValueExact();
    }
    throw new QueryException(clause + ": " + text + " needs an integer, but got " + Values.render(v));
  }
}
