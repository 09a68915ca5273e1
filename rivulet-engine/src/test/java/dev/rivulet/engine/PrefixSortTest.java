package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link PrefixSort} puts rows in exactly the order of a plain comparator sort, whichever path it
 * takes: both prefixes packed, the first only, or none (spreads too wide, null sentinels, coarse
 * string prefixes).
 */
class PrefixSortTest {
  @Test
  void matchesAComparatorSortOnEveryPath() {
    long base = Long.getLong("rivulet.seed", 7);
    for (int run = 0; run < 300; run++) {
      Random rnd = new Random(base + run);
      int spread = rnd.nextInt(4);
      int spread1 = rnd.nextInt(4);
      boolean strings = rnd.nextInt(4) == 0;
      ColumnType t0 = strings ? ColumnType.STRING : ColumnType.INT;
      RowOrder order = new RowOrder(new int[] {0, 1}, new boolean[] {rnd.nextBoolean(), rnd.nextBoolean()},
          new boolean[] {rnd.nextBoolean(), rnd.nextBoolean()}, new ColumnType[] {t0, ColumnType.INT});
      int n = rnd.nextInt(3) == 0 ? 512 + rnd.nextInt(3000) : rnd.nextInt(400); // both sides of the radix cut
      Row[] rows = new Row[n];
      for (int i = 0; i < n; i++) {
        Object a = strings ? "s" + rnd.nextInt(30) : value(rnd, spread);
        rows[i] = Row.of(rnd.nextInt(20) == 0 ? null : a, value(rnd, spread1), rnd.nextInt(5));
      }
      long[] p0 = new long[n];
      long[] p1 = new long[n];
      for (int i = 0; i < n; i++) {
        p0[i] = order.first(rows[i]);
        p1[i] = order.second(rows[i]);
      }
      int[] perm = PrefixSort.permutation(rows, p0, p1, n, order);
      List<Row> got = new ArrayList<>();
      for (int i : perm) {
        got.add(rows[i]);
      }
      Row[] expected = rows.clone();
      Arrays.sort(expected, order);
      assertThat(got).as("run %d (spreads %d %d, strings %b)", run, spread, spread1, strings).containsExactly(expected);
    }
  }

  private static Object value(Random rnd, int spread) {
    return switch (spread) {
      case 0 -> (long) rnd.nextInt(4); // many ties
      case 1 -> (long) rnd.nextInt(1_000_000);
      case 2 -> rnd.nextLong() >> 2; // too wide to pack both
      default -> rnd.nextInt(10) == 0 ? null : rnd.nextLong(); // null sentinels, overflowing spread
    };
  }
}
