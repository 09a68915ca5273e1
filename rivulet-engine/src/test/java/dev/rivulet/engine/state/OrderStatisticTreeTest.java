package dev.rivulet.engine.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** {@link OrderStatisticTree} against a naive sorted multiset (a TreeMap of counts). */
class OrderStatisticTreeTest {

  /** The naive twin: key -> multiplicity in a TreeMap, ranks by walking it. */
  private static final class Naive {
    final TreeMap<Integer, Long> counts;

    Naive(Comparator<Integer> order) {
      counts = new TreeMap<>(order);
    }

    long size() {
      return counts.values().stream().mapToLong(Long::longValue).sum();
    }

    long rank(int key) {
      return counts.headMap(key, false).values().stream().mapToLong(Long::longValue).sum();
    }

    List<Integer> expanded() {
      List<Integer> out = new ArrayList<>();
      counts.forEach((k, c) -> {
        for (long i = 0; i < c; i++) {
          out.add(k);
        }
      });
      return out;
    }

    /** (key, start, count) of each distinct key with an occurrence in [from, to). */
    List<List<Long>> range(long from, long to) {
      List<List<Long>> out = new ArrayList<>();
      if (from >= to) {
        return out;
      }
      long start = 0;
      for (Map.Entry<Integer, Long> e : counts.entrySet()) {
        long end = start + e.getValue();
        if (start < to && end > from) {
          out.add(List.of((long) e.getKey(), start, e.getValue()));
        }
        start = end;
      }
      return out;
    }
  }

  private static List<List<Long>> visit(OrderStatisticTree<Integer> tree, long from, long to) {
    List<List<Long>> out = new ArrayList<>();
    tree.visitRange(from, to, (k, start, count) -> out.add(List.of((long) k, start, count)));
    return out;
  }

  private static void checkAgainst(OrderStatisticTree<Integer> tree, Naive naive, Random rnd, int keySpace) {
    assertThat(tree.size()).isEqualTo(naive.size());
    assertThat(tree.distinct()).isEqualTo(naive.counts.size());
    assertThat(tree.isEmpty()).isEqualTo(naive.counts.isEmpty());
    assertThat(tree.first()).isEqualTo(naive.counts.isEmpty() ? null : naive.counts.firstKey());
    assertThat(tree.last()).isEqualTo(naive.counts.isEmpty() ? null : naive.counts.lastKey());
    for (int i = 0; i < 5; i++) {
      int k = rnd.nextInt(keySpace + 2) - 1;
      assertThat(tree.count(k)).as("count(%d)", k).isEqualTo(naive.counts.getOrDefault(k, 0L));
      assertThat(tree.rank(k)).as("rank(%d)", k).isEqualTo(naive.rank(k));
    }
    long n = naive.size();
    if (n > 0) {
      List<Integer> expanded = naive.expanded();
      for (int i = 0; i < 5; i++) {
        long r = (long) rnd.nextInt((int) n);
        assertThat(tree.select(r)).as("select(%d)", r).isEqualTo(expanded.get((int) r));
      }
      assertThat(tree.select(0)).isEqualTo(expanded.get(0));
      assertThat(tree.select(n - 1)).isEqualTo(expanded.get((int) n - 1));
    }
    long from = rnd.nextInt((int) n + 3) - 2;
    long to = from + rnd.nextInt(12);
    assertThat(visit(tree, from, to)).as("visitRange(%d, %d)", from, to).isEqualTo(naive.range(from, to));
  }

  private static void randomOperations(Comparator<Integer> order, long seed) {
    Random rnd = new Random(seed);
    OrderStatisticTree<Integer> tree = new OrderStatisticTree<>(order);
    Naive naive = new Naive(order);
    int keySpace = 300;
    for (int step = 0; step < 4000; step++) {
      int k = rnd.nextInt(keySpace);
      long have = naive.counts.getOrDefault(k, 0L);
      long delta;
      int dice = rnd.nextInt(10);
      if (dice < 5) {
        delta = 1 + rnd.nextInt(3);
      } else if (dice < 9 && have > 0) {
        delta = -(1 + rnd.nextInt((int) have)); // sometimes all of it
      } else if (dice == 9 && have > 0) {
        delta = -have;
      } else {
        delta = 0;
      }
      long result = tree.add(k, delta);
      long after = have + delta;
      assertThat(result).as("step %d add(%d, %d)", step, k, delta).isEqualTo(after);
      if (after == 0) {
        naive.counts.remove(k);
      } else {
        naive.counts.put(k, after);
      }
      checkAgainst(tree, naive, rnd, keySpace);
    }
    // Full check at the end: every rank selects the right key and visitRange covers everything.
    List<Integer> expanded = naive.expanded();
    for (int r = 0; r < expanded.size(); r++) {
      assertThat(tree.select(r)).isEqualTo(expanded.get(r));
    }
    assertThat(visit(tree, 0, Long.MAX_VALUE)).isEqualTo(naive.range(0, Long.MAX_VALUE));
    // Drain it completely.
    for (Integer k : new ArrayList<>(naive.counts.keySet())) {
      assertThat(tree.add(k, -naive.counts.get(k))).isZero();
    }
    assertThat(tree.isEmpty()).isTrue();
    assertThat(tree.size()).isZero();
    assertThat(tree.distinct()).isZero();
    assertThat(tree.first()).isNull();
    assertThat(tree.last()).isNull();
  }

  @Test
  void randomOperationsMatchNaiveAscending() {
    randomOperations(Comparator.naturalOrder(), 1);
  }

  @Test
  void randomOperationsMatchNaiveDescending() {
    randomOperations(Comparator.reverseOrder(), 2);
  }

  @Test
  void sequentialInsertsAndDeletesStayCorrect() {
    // Monotone inserts and removals are the worst case for rebalancing.
    OrderStatisticTree<Integer> tree = new OrderStatisticTree<>(Comparator.naturalOrder());
    for (int i = 0; i < 2000; i++) {
      tree.add(i, 1 + (i % 3));
    }
    long expectedSize = 0;
    for (int i = 0; i < 2000; i++) {
      expectedSize += 1 + (i % 3);
    }
    assertThat(tree.size()).isEqualTo(expectedSize);
    assertThat(tree.rank(1000)).isEqualTo(1000 + 333 * 3); // sum of 1+(i%3) for i<1000
    for (int i = 0; i < 2000; i += 2) {
      tree.add(i, -(1 + (i % 3)));
    }
    assertThat(tree.distinct()).isEqualTo(1000);
    assertThat(tree.first()).isEqualTo(1);
    assertThat(tree.last()).isEqualTo(1999);
    assertThat(tree.select(0)).isEqualTo(1);
    assertThat(tree.count(1)).isEqualTo(2);
    assertThat(tree.select(2)).isEqualTo(3);
  }

  /**
   * {@link OrderStatisticTree#replace}: a key held once is replaced by one that fits its slot
   * (returning its rank, the tree then as the naive multiset with the one key swapped for the
   * other); an absent key, one held twice, a replacement that would not sit between the key's
   * neighbours, or a key first or last in a leaf that is not the root, change nothing (-1). Over
   * a one-leaf tree and a tree of several levels.
   */
  @Test
  void replaceSwapsAKeyThatKeepsItsRankAndRefusesOtherwise() {
    for (int keys : new int[] {40, 3_000}) {
      Random rnd = new Random(keys);
      OrderStatisticTree<Integer> tree = new OrderStatisticTree<>(Comparator.naturalOrder());
      Naive naive = new Naive(Comparator.naturalOrder());
      for (int i = 0; i < keys; i++) {
        int k = 4 * i; // gaps: k + 1 fits k's slot, k + 5 does not (k + 4 lies between)
        long c = i % 17 == 3 ? 2 : 1;
        tree.add(k, c);
        naive.counts.put(k, c);
      }
      int replaced = 0;
      int refusedAtEdges = 0;
      for (int step = 0; step < 2_000; step++) {
        List<Integer> present = new ArrayList<>(naive.counts.keySet());
        int k = present.get(rnd.nextInt(present.size()));
        boolean fits = rnd.nextInt(4) != 0;
        int now = fits ? k + 1 + rnd.nextInt(2) : k + 5 + 4 * rnd.nextInt(3);
        boolean free = !naive.counts.containsKey(now);
        Integer after = naive.counts.higherKey(k);
        boolean between = free && (after == null || now < after);
        long rank = tree.replace(k, now);
        if (rank >= 0) {
          assertThat(between).as("%d -> %d replaced", k, now).isTrue();
          assertThat(naive.counts.get(k)).isEqualTo(1L);
          assertThat(rank).isEqualTo(naive.rank(k));
          naive.counts.remove(k);
          naive.counts.put(now, 1L);
          replaced++;
        } else {
          refusedAtEdges += between && naive.counts.get(k) == 1 ? 1 : 0;
        }
        if (step % 50 == 0) {
          checkAgainst(tree, naive, rnd, 4 * keys + 8);
        }
      }
      checkAgainst(tree, naive, rnd, 4 * keys + 8);
      assertThat(visit(tree, 0, Long.MAX_VALUE)).isEqualTo(naive.range(0, Long.MAX_VALUE));
      assertThat(replaced).isGreaterThan(500);
      if (keys > OrderStatisticTree.CAP) {
        assertThat(refusedAtEdges).as("keys first or last in a leaf below the root").isPositive();
      } else {
        assertThat(refusedAtEdges).as("a root leaf replaces at its edges too").isZero();
      }
    }
    OrderStatisticTree<Integer> absent = new OrderStatisticTree<>(Comparator.naturalOrder());
    absent.add(10, 1);
    assertThat(absent.replace(11, 12)).isEqualTo(-1);
    assertThat(absent.replace(10, 12)).isZero();
    assertThat(absent.count(12)).isEqualTo(1);
    assertThat(absent.count(10)).isZero();
  }

  @Test
  void rankOfAnAbsentKeyCountsWhatPrecedesIt() {
    OrderStatisticTree<Integer> tree = new OrderStatisticTree<>(Comparator.naturalOrder());
    tree.add(10, 3);
    tree.add(20, 2);
    assertThat(tree.rank(5)).isZero();
    assertThat(tree.rank(10)).isZero();
    assertThat(tree.rank(15)).isEqualTo(3);
    assertThat(tree.rank(20)).isEqualTo(3);
    assertThat(tree.rank(25)).isEqualTo(5);
    assertThat(tree.select(2)).isEqualTo(10);
    assertThat(tree.select(3)).isEqualTo(20);
  }

  @Test
  void selectOutOfRangeThrows() {
    OrderStatisticTree<Integer> tree = new OrderStatisticTree<>(Comparator.naturalOrder());
    assertThatThrownBy(() -> tree.select(0)).isInstanceOf(IndexOutOfBoundsException.class);
    tree.add(1, 2);
    assertThatThrownBy(() -> tree.select(2)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> tree.select(-1)).isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void visitRangeClampsAndReportsPartialOverlap() {
    OrderStatisticTree<Integer> tree = new OrderStatisticTree<>(Comparator.naturalOrder());
    tree.add(1, 2); // ranks 0-1
    tree.add(2, 3); // ranks 2-4
    tree.add(3, 1); // rank 5
    assertThat(visit(tree, -10, 1)).containsExactly(List.of(1L, 0L, 2L));
    assertThat(visit(tree, 4, 5)).containsExactly(List.of(2L, 2L, 3L));
    assertThat(visit(tree, 1, 3)).containsExactly(List.of(1L, 0L, 2L), List.of(2L, 2L, 3L));
    assertThat(visit(tree, 5, 100)).containsExactly(List.of(3L, 5L, 1L));
    assertThat(visit(tree, 6, 100)).isEmpty();
    assertThat(visit(tree, 3, 3)).isEmpty();
    assertThat(visit(tree, 4, 2)).isEmpty();
  }

  @Test
  void negativeMultiplicityThrowsAndLeavesTheTreeUnchanged() {
    OrderStatisticTree<Integer> tree = new OrderStatisticTree<>(Comparator.naturalOrder());
    for (int i = 0; i < 50; i++) {
      tree.add(i, 2);
    }
    assertThatThrownBy(() -> tree.add(7, -3))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("7")
        .hasMessageContaining("-1");
    assertThatThrownBy(() -> tree.add(1000, -1))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("1000");
    assertThat(tree.size()).isEqualTo(100);
    assertThat(tree.distinct()).isEqualTo(50);
    assertThat(tree.count(7)).isEqualTo(2);
    assertThat(tree.count(1000)).isZero();
    assertThat(tree.rank(8)).isEqualTo(16);
    assertThat(tree.last()).isEqualTo(49);
    for (int r = 0; r < 100; r++) {
      assertThat(tree.select(r)).isEqualTo(r / 2);
    }
    // And it keeps working afterwards.
    assertThat(tree.add(7, -2)).isZero();
    assertThat(tree.distinct()).isEqualTo(49);
    assertThat(tree.rank(8)).isEqualTo(14);
  }

  @Test
  void addZeroReportsTheCurrentCount() {
    OrderStatisticTree<Integer> tree = new OrderStatisticTree<>(Comparator.naturalOrder());
    assertThat(tree.add(4, 0)).isZero();
    assertThat(tree.isEmpty()).isTrue();
    tree.add(4, 5);
    assertThat(tree.add(4, 0)).isEqualTo(5);
  }

  /**
   * Leaves store no counts while every count in them is 1 (the fast path), and agree with the
   * naive twin through bulk loads, splits, merges and the first count other than 1 in a leaf.
   */
  @Test
  void leavesWithoutCountsAgreeWithNaive() {
    for (long seed = 3; seed <= 5; seed++) {
      Random rnd = new Random(seed);
      Comparator<Integer> order = Comparator.naturalOrder();
      OrderStatisticTree<Integer> tree = new OrderStatisticTree<>(order);
      Naive naive = new Naive(order);
      int keySpace = 6_000;
      Integer[] sorted = new Integer[keySpace / 2];
      long[] ones = new long[sorted.length];
      for (int i = 0; i < sorted.length; i++) {
        sorted[i] = 2 * i;
        ones[i] = 1;
        naive.counts.put(2 * i, 1L);
      }
      tree.bulkLoad(sorted, ones, sorted.length);
      int[] leaves = tree.leafCounts();
      assertThat(leaves[0]).isGreaterThan(1);
      assertThat(leaves[1]).as("a bulk load of ones: no leaf stores counts").isZero();
      for (int step = 0; step < 20_000; step++) {
        int k = rnd.nextInt(keySpace);
        long have = naive.counts.getOrDefault(k, 0L);
        long delta = rnd.nextInt(500) == 0 ? 2 : have > 0 ? -have : 1; // mostly in and out with count 1
        assertThat(tree.add(k, delta)).as("seed %d step %d add(%d, %d)", seed, step, k, delta).isEqualTo(have + delta);
        if (have + delta == 0) {
          naive.counts.remove(k);
        } else {
          naive.counts.put(k, have + delta);
        }
        if (step % 97 == 0) {
          checkAgainst(tree, naive, rnd, keySpace);
        }
      }
      checkAgainst(tree, naive, rnd, keySpace);
      List<Integer> expanded = naive.expanded();
      for (int r = 0; r < expanded.size(); r++) {
        assertThat(tree.select(r)).isEqualTo(expanded.get(r));
      }
      assertThat(visit(tree, 0, Long.MAX_VALUE)).isEqualTo(naive.range(0, Long.MAX_VALUE));
      leaves = tree.leafCounts();
      assertThat(leaves[1]).as("some leaves made counts, most did not (seed %d)", seed).isPositive()
          .isLessThan(leaves[0]);

      OrderStatisticTree<Integer> mixed = new OrderStatisticTree<>(order);
      long[] counts = new long[sorted.length];
      for (int i = 0; i < counts.length; i++) {
        counts[i] = i % 1_000 == 7 ? 3 : 1;
      }
      mixed.bulkLoad(sorted, counts, sorted.length);
      assertThat(mixed.leafCounts()[1]).isPositive().isLessThan(mixed.leafCounts()[0]);
      assertThat(mixed.count(14)).isEqualTo(3);
      assertThat(mixed.count(16)).isEqualTo(1);
      assertThat(mixed.rank(2_014)).isEqualTo(1_007 + 2); // 1,007 keys before it, one of them (14) counted 3 times
      assertThat(mixed.size()).isEqualTo(3_006); // 3,000 keys, three of them counted 3 times
    }
  }
}
