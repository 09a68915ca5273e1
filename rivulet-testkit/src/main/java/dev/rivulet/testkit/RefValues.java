package dev.rivulet.testkit;

import dev.rivulet.engine.Bytes;
import dev.rivulet.engine.Row;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Comparator;

/**
 * The reference side's own plain value model: canonical forms, their total order and exact
 * numbers, written from the README's rules ("2, 2.0 and 2.00 are one value") and SQL's, and
 * sharing no code with the engine's {@code Values}. The oracles ({@link Naive}, the query layer's
 * naive evaluator) compute with it, so a mistake in the engine's canonical form or order shows as
 * a divergence instead of being repeated by the oracle.
 *
 * <ul>
 *   <li>Numbers: an integer within 64 bits is a {@link Long}, whatever it arrived as; another
 *       number a double holds exactly is a {@link Double}; the rest are {@link BigDecimal}s without
 *       trailing zeros. {@code -0.0} is 0 and every NaN is the one NaN.
 *   <li>Text is a {@link String} (a {@link Character} becomes one); byte arrays are held as the
 *       public value type {@link Bytes}; dates are {@link LocalDate}s; timestamps {@link Instant}s
 *       (local date-times read as UTC).
 *   <li>Order: booleans, then numbers, strings, bytes, dates, timestamps; numbers by exact value
 *       with NaN above every other number; strings by Unicode code point (SQLite's BINARY order);
 *       bytes unsigned lexicographic; {@code false < true}; NULL (Java null) first.
 * </ul>
 *
 * <p>The public row type is the only engine logic this touches, through {@link #row}: that builds a
 * {@link Row} and checks that the engine kept every value exactly as this model canonicalized it,
 * so the row type cannot quietly re-canonicalize the reference's values.
 */
public final class RefValues {
  private static final BigDecimal LONG_MIN = BigDecimal.valueOf(Long.MIN_VALUE);
  private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);

  private RefValues() {}

  /** The canonical form of {@code v} per the rules above. */
  public static Object canonical(Object v) {
    if (v == null || v instanceof String || v instanceof Boolean || v instanceof Long) {
      return v;
    }
    if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
      return ((Number) v).longValue();
    }
    if (v instanceof Double || v instanceof Float) {
      double d = ((Number) v).doubleValue();
      if (Double.isNaN(d)) {
        return Double.NaN;
      }
      if (Double.isInfinite(d)) {
        return d;
      }
      return number(new BigDecimal(d));
    }
    if (v instanceof BigDecimal bd) {
      return number(bd);
    }
    if (v instanceof BigInteger bi) {
      return number(new BigDecimal(bi));
    }
    if (v instanceof Character c) {
      return String.valueOf(c);
    }
    if (v instanceof byte[] b) {
      return Bytes.of(b);
    }
    if (v instanceof Bytes || v instanceof LocalDate || v instanceof Instant) {
      return v;
    }
    if (v instanceof java.sql.Date d) {
      return d.toLocalDate();
    }
    if (v instanceof java.sql.Timestamp t) {
      return t.toInstant();
    }
    if (v instanceof LocalDateTime t) {
      return t.atOffset(ZoneOffset.UTC).toInstant();
    }
    if (v instanceof OffsetDateTime t) {
      return t.toInstant();
    }
    if (v instanceof ZonedDateTime t) {
      return t.toInstant();
    }
    if (v instanceof java.util.Date d && !(v instanceof java.sql.Time)) {
      return Instant.ofEpochMilli(d.getTime());
    }
    throw new IllegalArgumentException("reference: no canonical form for " + v.getClass().getName() + " " + v);
  }

  /** The canonical number of exact value {@code x}: Long, else an exact Double, else a BigDecimal. */
  public static Object number(BigDecimal x) {
    if (x.signum() == 0) {
      return 0L;
    }
    boolean integral = x.signum() == 0 || x.stripTrailingZeros().scale() <= 0;
    if (integral && x.compareTo(LONG_MIN) >= 0 && x.compareTo(LONG_MAX) <= 0) {
      return x.toBigInteger().longValue();
    }
    double d = x.doubleValue();
    if (!Double.isInfinite(d) && new BigDecimal(d).compareTo(x) == 0) {
      return d;
    }
    return x.stripTrailingZeros();
  }

  /** True for the canonical numbers (NaN and the infinities included). */
  public static boolean isNumber(Object v) {
    return v instanceof Long || v instanceof Double || v instanceof BigDecimal;
  }

  /** True for a Double that is NaN or infinite (no exact value). */
  public static boolean nonFinite(Object v) {
    return v instanceof Double d && (d.isNaN() || d.isInfinite());
  }

  /** The exact value of a finite canonical number. */
  public static BigDecimal exact(Object n) {
    if (n instanceof Long l) {
      return BigDecimal.valueOf(l);
    }
    if (n instanceof Double d) {
      if (d.isNaN() || d.isInfinite()) {
        throw new ArithmeticException("reference: " + d + " has no exact value");
      }
      return new BigDecimal(d);
    }
    return (BigDecimal) n;
  }

  private static int rank(Object v) {
    if (v == null) {
      return 0;
    }
    if (v instanceof Boolean) {
      return 1;
    }
    if (isNumber(v)) {
      return 2;
    }
    if (v instanceof String) {
      return 3;
    }
    if (v instanceof Bytes) {
      return 4;
    }
    if (v instanceof LocalDate) {
      return 5;
    }
    if (v instanceof Instant) {
      return 6;
    }
    throw new IllegalArgumentException("reference: not a canonical value: " + v.getClass().getName());
  }

  /** The total order of canonical values; null first. */
  public static int compare(Object a, Object b) {
    int ra = rank(a);
    int rb = rank(b);
    if (ra != rb) {
      return ra < rb ? -1 : 1;
    }
    switch (ra) {
      case 0:
        return 0;
      case 1:
        return a.equals(b) ? 0 : ((Boolean) a ? 1 : -1);
      case 2:
        return compareNumbers(a, b);
      case 3:
        return compareStrings((String) a, (String) b);
      case 4:
        return compareBytes(((Bytes) a).toArray(), ((Bytes) b).toArray());
      case 5:
        return Integer.signum(((LocalDate) a).compareTo((LocalDate) b));
      default:
        return Integer.signum(((Instant) a).compareTo((Instant) b));
    }
  }

  /** True when {@code a} and {@code b} are the same value (NULL equals nothing here). */
  public static boolean same(Object a, Object b) {
    return a != null && b != null && compare(a, b) == 0;
  }

  private static int compareNumbers(Object a, Object b) {
    int ka = numberClass(a);
    int kb = numberClass(b);
    if (ka != 0 || kb != 0) {
      // -inf (-1) below every finite number (0), +inf (1) above, NaN (2) above everything
      return Integer.compare(ka, kb);
    }
    return exact(a).compareTo(exact(b));
  }

  /** -1 for -infinity, 1 for +infinity, 2 for NaN, 0 for a finite number. */
  private static int numberClass(Object v) {
    if (v instanceof Double d) {
      if (d.isNaN()) {
        return 2;
      }
      if (d.isInfinite()) {
        return d > 0 ? 1 : -1;
      }
    }
    return 0;
  }

  /** Strings by Unicode code point: each position's code point, then the shorter first. */
  public static int compareStrings(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int x = a.codePointAt(i);
      int y = b.codePointAt(j);
      if (x != y) {
        return x < y ? -1 : 1;
      }
      i += Character.charCount(x);
      j += Character.charCount(y);
    }
    boolean aLeft = i < a.length();
    boolean bLeft = j < b.length();
    return aLeft == bLeft ? 0 : aLeft ? 1 : -1;
  }

  private static int compareBytes(byte[] a, byte[] b) {
    for (int i = 0; i < Math.min(a.length, b.length); i++) {
      int x = a[i] & 0xff;
      int y = b[i] & 0xff;
      if (x != y) {
        return x < y ? -1 : 1;
      }
    }
    return Integer.compare(a.length, b.length);
  }

  /** Rows compared value by value in {@link #compare} order, then the shorter first. */
  public static int compareRows(Row a, Row b) {
    for (int i = 0; i < Math.min(a.width(), b.width()); i++) {
      int c = compare(a.get(i), b.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.width(), b.width());
  }

  /** {@link #compareRows} as a comparator. */
  public static final Comparator<Row> ROW_ORDER = RefValues::compareRows;

  /**
   * A row of the canonical forms of {@code values}; fails when the engine's row type holds any of
   * them differently from this model (another class, or another value), since then the engine's
   * canonical form disagrees with the reference.
   */
  public static Row row(Object... values) {
    Object[] canonical = new Object[values.length];
    for (int i = 0; i < values.length; i++) {
      canonical[i] = canonical(values[i]);
    }
    Row r = Row.of(canonical);
    for (int i = 0; i < canonical.length; i++) {
      Object held = r.get(i);
      Object want = canonical[i];
      if (want == null ? held != null : held == null || held.getClass() != want.getClass() || !held.equals(want)) {
        throw new AssertionError("the engine's canonical form of " + render(values[i]) + " is " + describe(held)
            + " but the reference's is " + describe(want));
      }
    }
    return r;
  }

  /** {@link #row} of a list. */
  public static Row row(java.util.List<?> values) {
    return row(values.toArray());
  }

  private static String describe(Object v) {
    return v == null ? "NULL" : render(v) + " (" + v.getClass().getSimpleName() + ")";
  }

  /** A short SQL-like rendering for messages. */
  public static String render(Object v) {
    if (v == null) {
      return "NULL";
    }
    if (v instanceof String s) {
      return "'" + s.replace("'", "''") + "'";
    }
    if (v instanceof BigDecimal bd) {
      return bd.toPlainString();
    }
    return String.valueOf(v);
  }
}
