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
 * the first is exact, the second sort key likewise. A text key's prefix is word 0 of its {@link
 * TextPrefix} code (9 ASCII characters); when the first key is text, the second prefix is word 1
 * (the next 9). A tree descent then compares two longs held in the node and reads the row only on
 * a tie.
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
    if (a == b) {
      return 0; // a row found in a tree or a log by its own instance: no column read
    }
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
    return secondAfterInt(row, encode(row, 0));
  }

  /**
   * {@link #second} of {@code row} when {@link #intFirst} and {@code p0} is its {@link #first}
   * (a caller that has the first prefix does not encode it again).
   */
  long secondAfterInt(Row row, long p0) {
    // The first prefix is exact for INT columns except at the two sentinels, which nulls and
    // integers beyond 64 bits share.
    if (columns.length < 2 || p0 == Long.MIN_VALUE || p0 == Long.MAX_VALUE) {
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
      textPrefixes(rows, from, to, first, second);
      return;
    }
    if (types[0] == ColumnType.INT) {
      intPrefixes(rows, from, to, first, second);
      return;
    }
    // Neither text nor INT: the first prefix is coarse, so no second one.
    for (int i = from; i < to; i++) {
      first[i] = encode(rows[i], 0);
      second[i] = 0;
    }
  }

  /**
   * {@link #prefixes} for an INT first key: a 64-bit value (the common case) is its own prefix,
   * read without a call per key; other values (NULL, wider integers) go through {@link #encode}.
   */
  private void intPrefixes(Row[] rows, int from, int to, long[] first, long[] second) {
    int c0 = columns[0];
    long flip0 = descending[0] ? -1L : 0L; // ~x is x ^ -1
    boolean two = columns.length >= 2;
    boolean intSecond = two && types[1] == ColumnType.INT;
    int c1 = two ? columns[1] : 0;
    long flip1 = two && descending[1] ? -1L : 0L;
    for (int i = from; i < to; i++) {
      Row r = rows[i];
      long p0 = r.get(c0) instanceof Long l ? l ^ flip0 : encode(r, 0);
      first[i] = p0;
      if (!two || p0 == Long.MIN_VALUE || p0 == Long.MAX_VALUE) {
        second[i] = 0;
      } else {
        second[i] = intSecond && r.get(c1) instanceof Long m ? m ^ flip1 : encode(r, 1);
      }
    }
  }

  /** {@link #prefixes} for a text first key: both words of each code in one read of the string. */
  private void textPrefixes(Row[] rows, int from, int to, long[] first, long[] second) {
    int column = columns[0];
    long flip = descending[0] ? -1L : 0L; // ~x is x ^ -1
    long none = nullsFirst[0] ? Long.MIN_VALUE : Long.MAX_VALUE;
    char[] buf = new char[2 * TextPrefix.WORD_UNITS];
    for (int i = from; i < to; i++) {
      String s = (String) rows[i].get(column);
      if (s == null) {
        first[i] = none;
        second[i] = none;
        continue;
      }
      TextPrefix.words(s, buf, first, second, i, flip);
    }
  }

  /**
   * The second prefix of a text first key: word 1 of its {@link TextPrefix} code in the key's
   * direction, or for NULL the first prefix's sentinel.
   */
  private long textSecond(Row row) {
    Object v = row.get(columns[0]);
    if (v == null) {
      return nullsFirst[0] ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    long asc = TextPrefix.word1((String) v);
    return descending[0] ? ~asc : asc;
  }

  /** Whether the first sort key is a STRING column's ({@link TextSort} applies). */
  boolean textFirst() {
    return columns.length > 0 && types[0] == ColumnType.STRING;
  }

  /** Whether the first sort key is an INT column's (a 64-bit value is its own first prefix, flipped when descending). */
  boolean intFirst() {
    return columns.length > 0 && types[0] == ColumnType.INT;
  }

  /** The first sort key's column. */
  int firstColumn() {
    return columns[0];
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
    // an if-chain: an enum switch would be one more class to load (see ColumnType#accepts)
    if (type == ColumnType.INT) {
      if (v instanceof Long l) {
        return l;
      }
      // An integer beyond 64 bits saturates to a sentinel: still monotone, ties go to compare.
      return Values.compareNumbers((Number) v, 0L) > 0 ? Long.MAX_VALUE : Long.MIN_VALUE;
    } else if (type == ColumnType.DOUBLE || type == ColumnType.DECIMAL) {
      double d = v instanceof Long l ? (double) l : v instanceof Double x ? x : ((BigDecimal) v).doubleValue();
      long bits = Double.doubleToLongBits(d);
      return bits ^ ((bits >> 63) & Long.MAX_VALUE);
    } else if (type == ColumnType.STRING) {
      return TextPrefix.word0((String) v);
    } else if (type == ColumnType.BOOL) {
      return ((Boolean) v) ? 1 : 0;
    } else if (type == ColumnType.DATE) {
      return ((LocalDate) v).toEpochDay();
    } else if (type == ColumnType.TIMESTAMP) {
      return ((Instant) v).getEpochSecond();
    }
    return 0; // BYTES and ANY: no prefix, the full comparison decides
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
