package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link PrefixSort} on inputs built to take each packed path: both prefixes packed or the first
 * only, sorted by comparison (small) or by radix passes (large, with one to five passes so the
 * result ends in either buffer), over negative and positive keys with many ties. No nulls, so the
 * spreads stay packable. The result must be a comparator sort's.
 */
class PrefixSortPackedPathsTest {
  private static final RowOrder ORDER = new RowOrder(new int[] {0, 1}, new boolean[] {false, true},
      new boolean[] {false, false}, new ColumnType[] {ColumnType.INT, ColumnType.INT});

  @Test
  void bothPrefixesPackedSmallAndRadix() {
    long[] ranges = {1, 3, 1000, 1L << 14, 1L << 20};
    int run = 0;
    for (int n : new int[] {2, 300, 513, 2500}) {
      for (long r0 : ranges) {
        for (long r1 : ranges) {
          check(new Random(run++), n, r0, r1);
        }
      }
    }
  }

  @Test
  void firstPrefixPackedWhenTheSecondIsTooWide() {
    int run = 100;
    for (int n : new int[] {300, 600, 4000}) {
      for (long r0 : new long[] {2, 5000, 1L << 30, 1L << 40}) {
        check(new Random(run++), n, r0, Long.MAX_VALUE / 4);
      }
    }
  }

  @Test
  void comparatorOnlyWhenTheFirstIsTooWide() {
    check(new Random(9), 700, Long.MAX_VALUE / 4, 10);
    check(new Random(10), 700, Long.MAX_VALUE / 2, Long.MAX_VALUE / 2);
  }

  @Test
  void emptyAndSingleInputs() {
    assertThat(PrefixSort.permutation(new Row[0], new long[0], new long[0], 0, ORDER)).isEmpty();
    Row[] one = {Row.of(5, 5, 0)};
    assertThat(PrefixSort.permutation(one, new long[] {ORDER.first(one[0])}, new long[] {ORDER.second(one[0])}, 1, ORDER))
        .containsExactly(0);
  }

  /** Keys in [-range, range] (shifted so the minimum is not zero), a third column to break ties. */
  private static void check(Random rnd, int n, long r0, long r1) {
    Row[] rows = new Row[n];
    long shift = rnd.nextInt(1000) - 500;
    for (int i = 0; i < n; i++) {
      rows[i] = Row.of(key(rnd, r0) + shift, key(rnd, r1), rnd.nextInt(3));
    }
    long[] p0 = new long[n];
    long[] p1 = new long[n];
    for (int i = 0; i < n; i++) {
      p0[i] = ORDER.first(rows[i]);
      p1[i] = ORDER.second(rows[i]);
    }
    int[] perm = PrefixSort.permutation(rows, p0, p1, n, ORDER);
    Row[] got = new Row[n];
    for (int i = 0; i < n; i++) {
      got[i] = rows[perm[i]];
    }
    Row[] expected = rows.clone();
    Arrays.sort(expected, ORDER);
    assertThat(got).as("n %d, ranges %d %d", n, r0, r1).containsExactly(expected);
    assertThat(Arrays.stream(perm).sorted().toArray()).as("a permutation").isEqualTo(
        java.util.stream.IntStream.range(0, n).toArray());
  }

  private static long key(Random rnd, long range) {
    return range < (1 << 29) ? rnd.nextInt((int) (2 * range + 1)) - range : rnd.nextLong() % range;
  }
}
