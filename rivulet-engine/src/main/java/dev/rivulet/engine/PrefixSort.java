package dev.rivulet.engine;

import java.util.Arrays;
import java.util.Comparator;

/**
 * Sorts rows by (first prefix, second prefix, full order), where the prefixes are the primitive
 * keys of {@link RowOrder}: the result is the permutation that puts {@code rows} in {@code order}.
 *
 * <p>How: when the spread of both prefixes and the row index fit together in 63 bits, each row
 * becomes one packed long, sorted by a stable radix sort on the prefix bits (so ties stay in index
 * order); runs that tie on the prefixes are then ordered by the full order. With only the first prefix packable, its ties are ordered by
 * second prefix then full order; otherwise everything goes through the comparator. An order whose
 * first key is text (a STRING column), whose prefix holds only three characters, is sorted by
 * {@link TextSort} instead. Stateless.
 */
final class PrefixSort {
  static final int SMALL = 512; // below this, a comparison sort beats radix passes
  private static final int RADIX_BITS = 11;
  private static final int RADIX_MASK = (1 << RADIX_BITS) - 1;

  private PrefixSort() {}

  static int[] permutation(Row[] rows, long[] p0, long[] p1, int n, Comparator<Row> order) {
    return permutation(rows, p0, p1, n, order, true);
  }

  /** {@link #permutation}; {@code text}: whether a text first key may take {@link TextSort}. */
  static int[] permutation(Row[] rows, long[] p0, long[] p1, int n, Comparator<Row> order, boolean text) {
    int[] perm = new int[n];
    if (n == 0) {
      return perm;
    }
    Plan plan = plan(p0, p1, n, text ? order : null);
    if (plan.text) {
      TextSort.sort(perm, rows, (RowOrder) order);
    } else if (plan.packed == 2) {
      sortPacked(perm, p0, plan.min0, p1, plan.min1, plan.bits1, plan.bits0 + plan.bits1, plan.indexBits, plan.radix);
      sortTies(perm, rows, p0, p1, true, order);
    } else if (plan.packed == 1) {
      sortPacked(perm, p0, plan.min0, null, 0, 0, plan.bits0, plan.indexBits, plan.radix);
      sortTies(perm, rows, p0, p1, false, order);
    } else {
      for (int i = 0; i < n; i++) {
        perm[i] = i;
      }
      sortRange(perm, 0, n, rows, p0, p1, order);
    }
    return perm;
  }

  /**
   * How {@link #permutation} sorts {@code n} rows with these prefixes: {@code packed} prefixes
   * (2: both, 1: the first, 0: none, all by the comparator), and whether the packed longs are
   * radix sorted ({@code radix}) or comparison sorted (below {@value #SMALL} rows); {@code text}:
   * neither, the first key is text and {@link TextSort} sorts. The one decision {@link
   * #permutation} follows; tests read it to prove which path ran.
   */
  record Plan(boolean text, int packed, boolean radix, long min0, long min1, int bits0, int bits1, int indexBits) {}

  /** The plan for {@code n} rows in {@code order} (null: the prefixes' plan, no text path). */
  static Plan plan(long[] p0, long[] p1, int n, Comparator<Row> order) {
    if (n >= 2 && order instanceof RowOrder r && r.textFirst()) {
      return new Plan(true, 0, false, 0, 0, 0, 0, 0);
    }
    return plan(p0, p1, n);
  }

  static Plan plan(long[] p0, long[] p1, int n) {
    int indexBits = bits(n - 1);
    long min0 = min(p0, n);
    long min1 = min(p1, n);
    int bits0 = spreadBits(p0, n, min0);
    int bits1 = spreadBits(p1, n, min1);
    int packed = bits0 + bits1 + indexBits <= 63 ? 2 : bits0 + indexBits <= 63 ? 1 : 0;
    return new Plan(false, packed, packed > 0 && n >= SMALL, min0, min1, bits0, bits1, indexBits);
  }

  private static long min(long[] p, int n) {
    long min = p[0];
    for (int i = 1; i < n; i++) {
      min = Math.min(min, p[i]);
    }
    return min;
  }

  /** Bits needed for max - min of {@code p} (64 when the spread overflows). */
  private static int spreadBits(long[] p, int n, long min) {
    long max = p[0];
    for (int i = 1; i < n; i++) {
      max = Math.max(max, p[i]);
    }
    long spread = max - min;
    return spread < 0 ? 64 : bits(spread);
  }

  private static int bits(long x) {
    return 64 - Long.numberOfLeadingZeros(x);
  }

  /**
   * Sorts by (p0 - min0, p1 - min1, index) packed into one long; {@code p1} may be null. The
   * {@code keyBits} above the index are sorted by least-significant-digit radix passes, which
   * are stable, so the index bits never need sorting.
   */
  private static void sortPacked(int[] perm, long[] p0, long min0, long[] p1, long min1, int bits1, int keyBits,
      int indexBits, boolean radix) {
    int n = perm.length;
    long[] packed = new long[n];
    for (int i = 0; i < n; i++) {
      long k = (p0[i] - min0) << bits1;
      if (p1 != null) {
        k |= p1[i] - min1;
      }
      packed[i] = k << indexBits | i;
    }
    sortLongs(packed, keyBits, indexBits, radix);
    long mask = (1L << indexBits) - 1;
    for (int i = 0; i < n; i++) {
      perm[i] = (int) (packed[i] & mask);
    }
  }

  /**
   * Sorts non-negative {@code packed} longs whose bits above {@code indexBits + keyBits} are zero:
   * radix passes, or a comparison sort (same order: the index bits break ties as a stable sort would).
   */
  static void sortLongs(long[] packed, int keyBits, int indexBits, boolean radix) {
    if (radix) {
      radixSort(packed, keyBits, indexBits);
    } else {
      Arrays.sort(packed);
    }
  }

  /** Sorts {@code perm[from..to)} by {@code order} alone. */
  static void sortByComparator(int[] perm, int from, int to, Row[] rows, Comparator<Row> order) {
    Integer[] boxed = new Integer[to - from];
    for (int i = from; i < to; i++) {
      boxed[i - from] = perm[i];
    }
    Arrays.sort(boxed, (a, b) -> order.compare(rows[a], rows[b]));
    for (int i = from; i < to; i++) {
      perm[i] = boxed[i - from];
    }
  }

  /** Stable radix passes over the bits from {@code indexBits} up; sorts {@code packed} in place. */
  private static void radixSort(long[] packed, int keyBits, int indexBits) {
    long[] in = packed;
    long[] spare = new long[packed.length];
    int[] counts = new int[1 << RADIX_BITS];
    for (int shift = indexBits; shift < indexBits + keyBits; shift += RADIX_BITS) {
      Arrays.fill(counts, 0);
      for (long v : in) {
        counts[(int) (v >>> shift) & RADIX_MASK]++;
      }
      for (int d = 0, sum = 0; d < counts.length; d++) {
        int c = counts[d];
        counts[d] = sum;
        sum += c;
      }
      for (long v : in) {
        spare[counts[(int) (v >>> shift) & RADIX_MASK]++] = v;
      }
      long[] t = in;
      in = spare;
      spare = t;
    }
    if (in != packed) {
      System.arraycopy(in, 0, packed, 0, packed.length);
    }
  }

  /** Orders each run of {@code perm} that ties on the first prefix (and the second, if sorted by it). */
  private static void sortTies(int[] perm, Row[] rows, long[] p0, long[] p1, boolean bothSorted,
      Comparator<Row> order) {
    int n = perm.length;
    for (int start = 0; start < n; ) {
      int end = start + 1;
      while (end < n && p0[perm[end]] == p0[perm[start]] && (!bothSorted || p1[perm[end]] == p1[perm[start]])) {
        end++;
      }
      if (end - start > 1) {
        sortRange(perm, start, end, rows, p0, p1, order);
      }
      start = end;
    }
  }

  private static void sortRange(int[] perm, int from, int to, Row[] rows, long[] p0, long[] p1,
      Comparator<Row> order) {
    Comparator<Integer> byOrder = (a, b) -> {
      if (p0[a] != p0[b]) {
        return p0[a] < p0[b] ? -1 : 1;
      }
      if (p1[a] != p1[b]) {
        return p1[a] < p1[b] ? -1 : 1;
      }
      return order.compare(rows[a], rows[b]);
    };
    Integer[] boxed = new Integer[to - from];
    for (int i = from; i < to; i++) {
      boxed[i - from] = perm[i];
    }
    Arrays.sort(boxed, byOrder);
    for (int i = from; i < to; i++) {
      perm[i] = boxed[i - from];
    }
  }
}
