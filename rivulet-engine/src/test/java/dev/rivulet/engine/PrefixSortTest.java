package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * {@link PrefixSort} puts rows in exactly the order of a plain comparator sort (the general path),
 * whichever path it takes, and every path is taken: both prefixes packed or the first only, each
 * radix sorted (from {@value PrefixSort#SMALL} rows) or comparison sorted, and none packed (spreads
 * too wide, null sentinels), or, for a text first key, {@link TextSort}. Which path ran is read from {@link PrefixSort#plan}, the decision
 * {@link PrefixSort#permutation} follows.
 *
 * <p>This test used to believe it covered the radix sort, and no run ever reached it: every run
 * drew a NULL first key with probability 1/20, so a run of 512 rows or more almost surely held a
 * NULL, whose sentinel ({@code Long.MIN_VALUE} or {@code MAX}) widens the spread to 64 bits; and
 * with seeds {@code base + run} the first draws of {@link Random} hardly vary, so the narrow
 * spreads were never drawn either. NULLs are now in half of the runs only, the seeds are spread,
 * and the paths are counted.
 */
class PrefixSortTest {
  @Test
  void matchesAComparatorSortOnEveryPath() {
    long base = Long.getLong("rivulet.seed", 7);
    Map<String, Integer> paths = new TreeMap<>();
    for (int run = 0; run < 300; run++) {
      // Spread the seeds: java.util.Random's first draws for consecutive seeds are nearly equal
      // (with seeds base + run, the spreads came out 2 or 3 in every run, never 0 or 1).
      Random rnd = new Random((base + run) * 0x9E3779B97F4A7C15L);
      int spread = rnd.nextInt(4);
      int spread1 = rnd.nextInt(4);
      boolean strings = rnd.nextInt(4) == 0;
      boolean nulls = rnd.nextBoolean();
      ColumnType t0 = strings ? ColumnType.STRING : ColumnType.INT;
      RowOrder order = new RowOrder(new int[] {0, 1}, new boolean[] {rnd.nextBoolean(), rnd.nextBoolean()},
          new boolean[] {rnd.nextBoolean(), rnd.nextBoolean()}, new ColumnType[] {t0, ColumnType.INT});
      int n = rnd.nextInt(3) == 0 ? 512 + rnd.nextInt(3000) : rnd.nextInt(400); // both sides of the radix cut
      Row[] rows = new Row[n];
      for (int i = 0; i < n; i++) {
        Object a = strings ? "s" + rnd.nextInt(30) : value(rnd, spread, nulls);
        rows[i] = Row.of(nulls && rnd.nextInt(20) == 0 ? null : a, value(rnd, spread1, nulls), rnd.nextInt(5));
      }
      String path = check(rows, order, "run " + run + " (spreads " + spread + " " + spread1 + ", strings " + strings
          + ", nulls " + nulls + ")");
      if (n > 0) {
        paths.merge(path, 1, Integer::sum);
      }
    }
    assertThat(paths).as("runs per path").containsOnlyKeys("both/radix", "both/sort", "first/radix", "first/sort",
        "comparator", "text").allSatisfy((path, runs) -> assertThat(runs).as(path).isGreaterThanOrEqualTo(5));
  }

  @Test
  void radixPassesOfEitherParityAgreeWithTheComparator() {
    RowOrder order = new RowOrder(new int[] {0, 1}, new boolean[] {false, true}, new boolean[] {false, false},
        new ColumnType[] {ColumnType.INT, ColumnType.INT});
    Random rnd = new Random(3);
    for (int keyBits : new int[] {3, 11, 12, 30, 33, 44, 50}) {
      int n = 600 + rnd.nextInt(200);
      Row[] rows = new Row[n];
      for (int i = 0; i < n; i++) {
        long bound = 1L << (keyBits / 2);
        rows[i] = Row.of(rnd.nextLong() & (bound - 1), rnd.nextLong() & ((1L << (keyBits - keyBits / 2)) - 1), i % 7);
      }
      assertThat(check(rows, order, keyBits + " key bits")).isEqualTo("both/radix");
    }
  }

  /** Sorts {@code rows} both ways, requires the same order, and names the path taken. */
  private static String check(Row[] rows, RowOrder order, String what) {
    int n = rows.length;
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
    assertThat(got).as(what).containsExactly(expected);
    if (n == 0) {
      return "empty";
    }
    PrefixSort.Plan plan = PrefixSort.plan(p0, p1, n, order);
    if (plan.text()) {
      return "text";
    }
    String packed = plan.packed() == 2 ? "both" : plan.packed() == 1 ? "first" : "comparator";
    return plan.packed() == 0 ? packed : packed + (plan.radix() ? "/radix" : "/sort");
  }

  private static Object value(Random rnd, int spread, boolean nulls) {
    return switch (spread) {
      case 0 -> (long) rnd.nextInt(4); // many ties
      case 1 -> (long) rnd.nextInt(1_000_000);
      case 2 -> rnd.nextLong() >> 2; // too wide to pack both
      default -> nulls && rnd.nextInt(10) == 0 ? null : rnd.nextLong(); // null sentinels, overflowing spread
    };
  }
}
