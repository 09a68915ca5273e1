package dev.rivulet.engine;

import dev.rivulet.engine.state.OrderStatisticTree;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Comparator;

/**
 * A total order over rows: the sort keys (column, direction, null placement) and then the whole
 * row in {@link Row#compareTo} order, so distinct rows never tie and every window is
 * deterministic. Immutable.
 *
 * <p>It also gives the primitive prefixes of {@link OrderStatisticTree.Prefix}: the first sort
 * key encoded as an order-preserving long (exact for integer columns, coarse otherwise), and, when
 * the first is exact, the second sort key likewise; when the first key is text, the second prefix
 * continues its code ({@link #textWord}: 9 ASCII characters a long, 18 in the two). A tree descent
 * then compares two longs held in the node and reads the row only on a tie.
 */
final class RowOrder implements Comparator<Row>, OrderStatisticTree.Prefix<Row> {
  private final int[] columns;
  private final boolean[] descending;
  private final boolean[] nullsFirst;
  private final ColumnType[] types;

  RowOrder(int[] columns, boolean[] descending, boolean[] nullsFirst, ColumnType[] types) {
    this.columns = columns;
    this.descending = descending;
    this.nullsFirst = nullsFirst;
    this.types = types;
  }

  @Override
  public int compare(Row a, Row b) {
    for (int i = 0; i < columns.length; i++) {
      Object x = a.get(columns[i]);
      Object y = b.get(columns[i]);
      if (x == y) {
        continue;
      }
      if (x == null || y == null) {
        return (x == null) == nullsFirst[i] ? -1 : 1;
      }
      int c = Values.compare(x, y);
      if (c != 0) {
        return descending[i] ? -c : c;
      }
    }
    return a.compareTo(b);
  }

  @Override
  public long first(Row row) {
    return columns.length == 0 ? 0 : encode(row, 0);
  }

  @Override
  public long second(Row row) {
    if (textFirst()) {
      return textSecond(row);
    }
    if (columns.length < 2 || types[0] != ColumnType.INT) {
      return 0;
    }
    long p0 = encode(row, 0);
    // The first prefix is exact for INT columns except at the two sentinels, which nulls and
    // integers beyond 64 bits share.
    if (p0 == Long.MIN_VALUE || p0 == Long.MAX_VALUE) {
      return 0;
    }
    return encode(row, 1);
  }

  /**
   * {@link #first} and {@link #second} of {@code rows[0..n)} into {@code first[i]} and {@code
   * second[i]}: one pass over the batch (a hydration's), encoding the first sort key once per row,
   * in chunks of {@link SortedBatch#CHUNK} rows (see there why).
   */
  void prefixes(Row[] rows, int n, long[] first, long[] second) {
    if (columns.length == 0) {
      java.util.Arrays.fill(first, 0, n, 0);
      java.util.Arrays.fill(second, 0, n, 0);
      return;
    }
    for (int from = 0; from < n; from += SortedBatch.CHUNK) {
      prefixes(rows, from, Math.min(n, from + SortedBatch.CHUNK), first, second);
    }
  }

  private void prefixes(Row[] rows, int from, int to, long[] first, long[] second) {
    if (textFirst()) {
      for (int i = from; i < to; i++) {
        first[i] = encode(rows[i], 0);
        second[i] = textSecond(rows[i]);
      }
      return;
    }
    boolean exact = columns.length >= 2 && types[0] == ColumnType.INT;
    for (int i = from; i < to; i++) {
      long p0 = encode(rows[i], 0);
      first[i] = p0;
      second[i] = exact && p0 != Long.MIN_VALUE && p0 != Long.MAX_VALUE ? encode(rows[i], 1) : 0;
    }
  }

  /**
   * The second prefix of a text first key: the code's bits 64..127 in the key's direction, or for
   * NULL the first prefix's sentinel (only the empty string can share it, and ties on both).
   */
  private long textSecond(Row row) {
    Object v = row.get(columns[0]);
    if (v == null) {
      return nullsFirst[0] ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    long asc = textWord((String) v, 1);
    return descending[0] ? ~asc : asc;
  }

  /** Whether the first sort key is a STRING column's ({@link TextSort} applies). */
  boolean textFirst() {
    return columns.length > 0 && types[0] == ColumnType.STRING;
  }

  /** The first sort key's value of {@code row} when {@link #textFirst} (null for NULL). */
  String text(Row row) {
    return (String) row.get(columns[0]);
  }

  boolean firstDescending() {
    return descending[0];
  }

  boolean firstNullsFirst() {
    return nullsFirst[0];
  }

  /** Sort key {@code i}'s order-preserving long of {@code row}, 0 past the last key. */
  long keyPrefix(Row row, int i) {
    return i < columns.length ? encode(row, i) : 0;
  }

  /** Order-preserving (not necessarily injective) long for sort key {@code i} of {@code row}. */
  private long encode(Row row, int i) {
    Object v = row.get(columns[i]);
    if (v == null) {
      return nullsFirst[i] ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    long asc = ascending(v, types[i]);
    return descending[i] ? ~asc : asc;
  }

  private static long ascending(Object v, ColumnType type) {
    switch (type) {
      case INT:
        if (v instanceof Long l) {
          return l;
        }
        // An integer beyond 64 bits saturates to a sentinel: still monotone, ties go to compare.
        return Values.compareNumbers((Number) v, 0L) > 0 ? Long.MAX_VALUE : Long.MIN_VALUE;
      case DOUBLE:
      case DECIMAL:
        double d = v instanceof Long l ? (double) l : v instanceof Double x ? x : ((BigDecimal) v).doubleValue();
        long bits = Double.doubleToLongBits(d);
        return bits ^ ((bits >> 63) & Long.MAX_VALUE);
      case STRING:
        return textWord((String) v, 0);
      case BOOL:
        return ((Boolean) v) ? 1 : 0;
      case DATE:
        return ((LocalDate) v).toEpochDay();
      case TIMESTAMP:
        return ((Instant) v).getEpochSecond();
      default:
        return 0; // BYTES and ANY: no prefix, the full comparison decides
    }
  }

  private static final int ESCAPE = 127; // a 7-bit symbol announcing a 17-bit unit

  /**
   * Word {@code word} (0: bits 0..63, 1: bits 64..127) of an order-preserving code of {@code s},
   * as a signed long in the same order: each UTF-16 unit, {@link #unit remapped} to code-point
   * order, is 7 bits when below {@value #ESCAPE} (U+0000..U+007D) and else {@value #ESCAPE} in 7
   * bits followed by the unit in 17; zero bits follow the end. The code is prefix-free and
   * monotone in the units, so comparing the bit strings compares the strings; a truncation of it
   * is monotone, and when two strings' word 0 are equal their word 1 compares them further.
   */
  static long textWord(String s, int word) {
    long w0 = 0;
    long w1 = 0;
    int at = 0; // bits written, from the top of w0
    for (int i = 0, n = s.length(); i < n && at < 128; i++) {
      int u = unit(s.charAt(i));
      long code = u < ESCAPE ? u : (long) ESCAPE << 17 | u;
      int end = at + (u < ESCAPE ? 7 : 24);
      if (end <= 64) {
        w0 |= code << (64 - end);
      } else if (at >= 64) {
        w1 |= end <= 128 ? code << (128 - end) : code >>> (end - 128);
      } else {
        w0 |= code >>> (end - 64);
        w1 |= code << (128 - end);
      }
      at = end;
    }
    return (word == 0 ? w0 : w1) ^ Long.MIN_VALUE;
  }

  /**
   * A UTF-16 unit as a number in 1..0x10000 whose order is code-point order ({@link
   * Values#compareCodePoints}): units E000..FFFF move below the surrogates, which encode code
   * points above FFFF; the +1 keeps "end of string" (0) below every unit.
   */
  static int unit(char c) {
    return (Character.isSurrogate(c) ? c + 0x2000 : c >= 0xE000 ? c - 0x800 : c) + 1;
  }
}
