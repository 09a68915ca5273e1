package dev.rivulet.engine;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;

/**
 * Canonical values and their total order.
 *
 * <p>Every value that enters a {@link Row} is first put in canonical form, so that plain {@code
 * equals}/{@code hashCode} on the canonical objects is value equality. The rules:
 *
 * <ul>
 *   <li>Numbers: a number that is mathematically an integer within the 64-bit range is a {@link
 *       Long}, whatever type it arrived as ({@code 2}, {@code 2.0}, {@code new BigDecimal("2.00")}
 *       are one value). Any other number that a {@code double} represents exactly is a {@link
 *       Double} ({@code 1.5} and {@code new BigDecimal("1.50")} are one value). The rest are {@link
 *       BigDecimal}s with trailing zeros stripped. {@code -0.0} is {@code 0}; all NaNs are one NaN.
 *   <li>Text: {@link String} ({@link Character} becomes a one-character string).
 *   <li>{@link Boolean}; byte arrays become {@link Bytes}.
 *   <li>Dates: {@link LocalDate} ({@code java.sql.Date} converts). Timestamps: {@link Instant};
 *       {@link LocalDateTime} is read as UTC, zoned and offset times convert to their instant.
 *   <li>{@code null} is SQL NULL.
 *   <li>{@link RowList}: a nested result (an ordered list of rows) inside the graph; it is not a
 *       SQL value and no column type but {@code ANY} holds it.
 * </ul>
 *
 * <p>The total order (used for sorting, min/max and tie-breaks) ranks kinds as booleans &lt;
 * numbers &lt; strings &lt; bytes &lt; dates &lt; timestamps &lt; row lists; within numbers it is the exact
 * mathematical order with NaN last; strings compare by Unicode code point (the order of SQLite's
 * BINARY and Postgres' C collations); {@code false < true}. Nulls are placed by the caller (see
 * {@link SortKey}); {@link #compare} puts them first.
 *
 * <p>Thread-safe. A canonical integer in [0, 16384) is one shared instance per value (see {@code
 * SharedLongs}); its only state.
 */
public final class Values {
  private static final double TWO_63 = 9.223372036854775808E18;

  private Values() {}

  /**
   * Returns the canonical form of {@code v}.
   *
   * @throws IllegalArgumentException naming the type when {@code v} is of no supported type
   */
  public static Object canonical(Object v) {
    if (v instanceof Long l) {
      return SharedLongs.share(l);
    }
    if (v == null || v instanceof String || v instanceof Boolean) {
      return v;
    }
    if (v instanceof Integer i) {
      return SharedLongs.of(i);
    }
    if (v instanceof Double d) {
      return ofDouble(d);
    }
    if (v instanceof BigDecimal bd) {
      return ofDecimal(bd);
    }
    if (v instanceof Short || v instanceof Byte) {
      return SharedLongs.of(((Number) v).longValue());
    }
    if (v instanceof Float f) {
      return ofDouble(f.doubleValue());
    }
    if (v instanceof BigInteger bi) {
      return bi.bitLength() < 64 ? (Object) bi.longValue() : ofDecimal(new BigDecimal(bi));
    }
    if (v instanceof Character c) {
      return c.toString();
    }
    if (v instanceof byte[] b) {
      return Bytes.of(b);
    }
    if (v instanceof Bytes || v instanceof LocalDate || v instanceof Instant || v instanceof RowList) {
      return v;
    }
    if (v instanceof java.sql.Date d) {
      return d.toLocalDate();
    }
    if (v instanceof java.sql.Timestamp t) {
      return t.toInstant();
    }
    if (v instanceof LocalDateTime t) {
      return t.toInstant(ZoneOffset.UTC);
    }
    if (v instanceof OffsetDateTime t) {
      return t.toInstant();
    }
    if (v instanceof ZonedDateTime t) {
      return t.toInstant();
    }
    if (v instanceof java.util.Date d && !(v instanceof java.sql.Time)) {
      return d.toInstant();
    }
    throw new IllegalArgumentException(
        "unsupported value type " + v.getClass().getName() + " (value " + v + ")");
  }

  /** True when {@code v} is already canonical, so {@link #canonical} would return it unchanged. */
  public static boolean isCanonical(Object v) {
    if (v == null || v instanceof Long || v instanceof String || v instanceof Boolean) {
      return true;
    }
    if (v instanceof Double d) {
      return ofDouble(d).equals(v);
    }
    if (v instanceof BigDecimal bd) {
      return ofDecimal(bd).equals(bd) && bd.equals(bd.stripTrailingZeros());
    }
    return v instanceof Bytes || v instanceof LocalDate || v instanceof Instant || v instanceof RowList;
  }

  /** True when a {@code double} holds {@code l} exactly (every integer up to 2<sup>53</sup> does). */
  public static boolean isExactDouble(long l) {
    double d = l;
    return d != TWO_63 && (long) d == l;
  }

  private static Object ofDouble(double d) {
    if (Double.isNaN(d)) {
      return Double.NaN;
    }
    if (d == Math.rint(d) && d >= -TWO_63 && d < TWO_63) {
      return (long) d;
    }
    return d;
  }

  private static Object ofDecimal(BigDecimal bd) {
    if (bd.signum() == 0) {
      return 0L;
    }
    BigDecimal s = bd.stripTrailingZeros();
    if (s.scale() <= 0 && s.precision() - s.scale() <= 19) {
      try {
        return s.longValueExact();
      } catch (ArithmeticException outOfRange) {
        // falls through: an integer beyond 64 bits
      }
    }
    // Integers within 64 bits returned above, so an exact double here is a fraction or huge.
    double d = s.doubleValue();
    if (Double.isFinite(d) && new BigDecimal(d).compareTo(s) == 0) {
      return d;
    }
    return s;
  }

  /** Rank of a canonical value's kind in the cross-kind order. */
  static int kind(Object v) {
    if (v == null) {
      return 0;
    }
    if (v instanceof Boolean) {
      return 1;
    }
    if (v instanceof Long || v instanceof Double || v instanceof BigDecimal) {
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
    return v instanceof RowList ? 7 : 6;
  }

  /**
   * Compares two canonical values in the total order; null sorts before everything. Consistent
   * with {@code equals} on canonical values.
   */
  public static int compare(Object a, Object b) {
    if (a == b) {
      return 0;
    }
    if (a instanceof Long x && b instanceof Long y) {
      return Long.compare(x, y);
    }
    if (a instanceof String x && b instanceof String y) {
      return compareCodePoints(x, y);
    }
    int ka = kind(a);
    int kb = kind(b);
    if (ka != kb) {
      return Integer.compare(ka, kb);
    }
    switch (ka) {
      case 0:
        return 0;
      case 1:
        return Boolean.compare((Boolean) a, (Boolean) b);
      case 2:
        return compareNumbers((Number) a, (Number) b);
      case 4:
        return ((Bytes) a).compareTo((Bytes) b);
      case 5:
        return ((LocalDate) a).compareTo((LocalDate) b);
      case 7:
        return ((RowList) a).compareTo((RowList) b);
      default:
        return ((Instant) a).compareTo((Instant) b);
    }
  }

  /** Exact comparison of canonical numbers; NaN is greater than every other number. */
  public static int compareNumbers(Number a, Number b) {
    if (a instanceof Long x && b instanceof Long y) {
      return Long.compare(x, y);
    }
    if (a instanceof Double x && b instanceof Double y) {
      return Double.compare(x, y);
    }
    boolean aNaN = a instanceof Double x && x.isNaN();
    boolean bNaN = b instanceof Double y && y.isNaN();
    if (aNaN || bNaN) {
      return Boolean.compare(aNaN, bNaN);
    }
    if (a instanceof Double x && x.isInfinite()) {
      return x > 0 ? 1 : -1;
    }
    if (b instanceof Double y && y.isInfinite()) {
      return y > 0 ? -1 : 1;
    }
    return toDecimal(a).compareTo(toDecimal(b));
  }

  /** The exact decimal value of a finite canonical number. */
  public static BigDecimal toDecimal(Number n) {
    if (n instanceof Long l) {
      return BigDecimal.valueOf(l);
    }
    if (n instanceof Double d) {
      return new BigDecimal(d);
    }
    return (BigDecimal) n;
  }

  /** Compares strings by Unicode code point rather than by UTF-16 unit. */
  public static int compareCodePoints(String a, String b) {
    int n = Math.min(a.length(), b.length());
    for (int i = 0; i < n; i++) {
      char x = a.charAt(i);
      char y = b.charAt(i);
      if (x != y) {
        // Surrogates (U+D800..U+DFFF) encode code points above U+FFFF, so they sort after
        // every other unit even though U+E000..U+FFFF are numerically larger.
        boolean sx = Character.isSurrogate(x);
        boolean sy = Character.isSurrogate(y);
        if (sx != sy) {
          return sx ? 1 : -1;
        }
        return x - y;
      }
    }
    return a.length() - b.length();
  }

  /** A short SQL-like rendering for messages. */
  public static String render(Object v) {
    if (v == null) {
      return "NULL";
    }
    if (v instanceof String s) {
      return "'" + s.replace("'", "''") + "'";
    }
    return v.toString();
  }
}
