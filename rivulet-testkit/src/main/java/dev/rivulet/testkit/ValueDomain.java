package dev.rivulet.testkit;

import dev.rivulet.engine.Column;
import dev.rivulet.engine.ColumnType;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Random;

/**
 * Small value domains per column type, so that generated keys collide and groups fill up.
 *
 * <p>Each type has a short palette whose first {@code size} values are the common ones; with
 * probability {@code rare} ({@link #RARE} by default, much more in the generator's "edges" shape)
 * a rarer value is drawn from the rest of the palette. The rare values are the edges operators get
 * wrong: 64-bit extremes (sum overflow), {@code 0.1} as a double (sums that are not exact in
 * binary), decimals that no double represents, strings whose UTF-16 order differs from their code
 * point order (U+FF5E against a surrogate pair, also behind a shared three-unit sort prefix), the
 * empty string and empty bytes, values of other kinds in an {@code ANY} column (cross-kind order).
 * No NaN or infinity: their SQL semantics in sums are not settled. The rate is high enough that a
 * default run's checked states hold every kind many times (the suites count them, see {@link
 * RareKinds}); at 0.04 a state held both halves of a code-point order flip about once in a thousand.
 */
final class ValueDomain {
  static final double RARE = 0.2;

  private static final List<Object> INTS = List.of(1L, 2L, 0L, 3L, -1L, 4L, 5L, 7L, Long.MAX_VALUE, Long.MIN_VALUE, 1L << 40);
  private static final List<Object> DOUBLES = List.of(1.5, 0.25, -2.0, 3.0, 0.1, -0.75, 1e-3, 2.5e15, 7.0);
  private static final List<Object> DECIMALS = List.of(
      new BigDecimal("0.1"), new BigDecimal("1.5"), new BigDecimal("2"), new BigDecimal("-0.3"),
      new BigDecimal("1.333"), new BigDecimal("0.05"), new BigDecimal("12345678901234567890.123"),
      new BigDecimal("-7"));
  private static final List<Object> STRINGS = List.of(
      "a", "b", "ab", "c", "", "B", "\u00e9", "\uff5e", "\ud834\udd1e", "a\u0000", "abc\uff5e", "abc\ud834\udd1e");
  private static final List<Object> BOOLS = List.of(false, true);
  private static final List<Object> BYTES = List.of(
      new byte[] {1}, new byte[] {0}, new byte[] {1, 2}, new byte[0], new byte[] {(byte) 0xff});
  private static final List<Object> DATES = List.of(
      LocalDate.of(2024, 1, 2), LocalDate.of(2024, 1, 1), LocalDate.of(2023, 12, 31), LocalDate.of(2024, 2, 29),
      LocalDate.of(1970, 1, 1), LocalDate.of(9999, 12, 31));
  private static final List<Object> TIMESTAMPS = List.of(
      Instant.parse("2024-01-01T00:00:00Z"), Instant.parse("2024-01-01T00:00:01Z"),
      Instant.parse("2023-12-31T23:59:59.999Z"), Instant.parse("2024-01-01T00:00:00.000001Z"),
      Instant.EPOCH, Instant.parse("1969-12-31T23:59:59Z"));
  private static final List<Object> ANYS = List.of(1L, "a", true, 1.5, 2L, "b", LocalDate.of(2024, 1, 1),
      new BigDecimal("0.1"), new byte[] {1}, Instant.EPOCH);

  private ValueDomain() {}

  /**
   * A value for {@code column} from {@code palette}: null with probability {@code nullRate} when
   * the column is nullable; otherwise one of the first {@code size} values, or with probability
   * {@code rare} one of the rest.
   */
  static Object draw(Random r, Column column, List<Object> palette, int size, double nullRate, double rare) {
    if (column.nullable() && r.nextDouble() < nullRate) {
      return null;
    }
    int common = Math.max(1, Math.min(size, palette.size()));
    if (common < palette.size() && r.nextDouble() < rare) {
      return palette.get(common + r.nextInt(palette.size() - common));
    }
    return palette.get(r.nextInt(common));
  }

  static List<Object> palette(ColumnType type) {
    return switch (type) {
      case INT -> INTS;
      case DOUBLE -> DOUBLES;
      case DECIMAL -> DECIMALS;
      case STRING -> STRINGS;
      case BOOL -> BOOLS;
      case BYTES -> BYTES;
      case DATE -> DATES;
      case TIMESTAMP -> TIMESTAMPS;
      case ANY -> ANYS;
    };
  }
}
