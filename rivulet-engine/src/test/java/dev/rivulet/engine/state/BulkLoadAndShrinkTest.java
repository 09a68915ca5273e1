package dev.rivulet.engine.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * An {@link OrderStatisticTree} bulk-loaded deep enough to have inner levels, then emptied range
 * by range so that inner nodes merge, stays equal to a sorted map at every step; and {@link
 * KeyedBags}' per-key totals and counts.
 */
class BulkLoadAndShrinkTest {
  private static final OrderStatisticTree.Prefix<Integer> PREFIX = new OrderStatisticTree.Prefix<>() {
    @Override
    public long first(Integer k) {
      return k >> 4; // coarse: ties go to the comparator
    }

    @Override
    public long second(Integer k) {
      return 0;
    }
  };

  private static void check(OrderStatisticTree<Integer> tree, TreeMap<Integer, Long> model) {
    assertThat(tree.distinct()).isEqualTo(model.size());
    long size = model.values().stream().mapToLong(Long::longValue).sum();
    assertThat(tree.size()).isEqualTo(size);
    assertThat(tree.first()).isEqualTo(model.isEmpty() ? null : model.firstKey());
    assertThat(tree.last()).isEqualTo(model.isEmpty() ? null : model.lastKey());
    long rank = 0;
    int i = 0;
    for (Map.Entry<Integer, Long> e : model.entrySet()) {
      if (i++ % 7 == 0) {
        assertThat(tree.rank(e.getKey())).as("rank of %d", e.getKey()).isEqualTo(rank);
        assertThat(tree.select(rank)).isEqualTo(e.getKey());
        assertThat(tree.select(rank + e.getValue() - 1)).isEqualTo(e.getKey());
        assertThat(tree.count(e.getKey())).isEqualTo(e.getValue());
      }
      rank += e.getValue();
    }
  }

  @Test
  void bulkLoadedDeepTreeShrinksRangeByRange() {
    int n = 20_000;
    Integer[] keys = new Integer[n];
    long[] counts = new long[n];
    TreeMap<Integer, Long> model = new TreeMap<>();
    for (int i = 0; i < n; i++) {
      keys[i] = 2 * i;
      counts[i] = 1 + i % 3;
      model.put(keys[i], counts[i]);
    }
    OrderStatisticTree<Integer> tree = new OrderStatisticTree<>(Comparator.naturalOrder(), PREFIX);
    tree.bulkLoad(keys, counts, n);
    check(tree, model);
    assertThatThrownBy(() -> tree.bulkLoad(keys, counts, 1)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("empty tree");
    // Remove ranges from the middle, the front and the back, inserting odd keys among them.
    int[][] ranges = {{8000, 14000}, {0, 3000}, {17000, 20000}, {3000, 8000}, {14000, 16990}};
    for (int[] r : ranges) {
      for (int i = r[0]; i < r[1]; i++) {
        tree.add(2 * i, -counts[i]);
        model.remove(2 * i);
        if (i % 500 == 0) {
          tree.add(2 * i + 1, 2);
          model.put(2 * i + 1, 2L);
        }
      }
      check(tree, model);
    }
  }

  @Test
  void bulkLoadOfNothingLeavesAnEmptyTree() {
    OrderStatisticTree<Integer> tree = new OrderStatisticTree<>(Comparator.naturalOrder(), PREFIX);
    tree.bulkLoad(new Integer[0], new long[0], 0);
    assertThat(tree.isEmpty()).isTrue();
    tree.add(5, 1);
    assertThat(tree.select(0)).isEqualTo(5);
  }

  @Test
  void keyedBagsCountKeysEntriesAndTotals() {
    KeyedBags<String, String> bags = new KeyedBags<>();
    assertThat(bags.total("a")).isZero();
    assertThat(bags.add("a", "x", 0)).isZero();
    assertThat(bags.keys()).isZero();
    bags.add("a", "x", 2);
    bags.add("a", "y", 3);
    bags.add("b", "x", 1);
    assertThat(bags.total("a")).isEqualTo(5);
    assertThat(bags.total("b")).isEqualTo(1);
    assertThat(bags.keys()).isEqualTo(2);
    assertThat(bags.entries()).isEqualTo(3);
    assertThat(bags.add("a", "x", -2)).isZero();
    assertThat(bags.total("a")).isEqualTo(3);
    assertThat(bags.entries()).isEqualTo(2);
    bags.add("b", "x", -1);
    assertThat(bags.keys()).isEqualTo(1);
    assertThat(bags.get("b")).isNull();
    assertThat(bags.total("b")).isZero();
  }

  @Test
  void bagValuesWithOneHashCodeStayFindableThroughRemovals() {
    // (k << 32) | (k ^ 7) all hash to 7: one home slot, one probe run, whatever the table size.
    java.util.List<Long> values = new java.util.ArrayList<>();
    for (long k = 0; k < 60; k++) {
      values.add((k << 32) | (k ^ 7));
    }
    java.util.Random rnd = new java.util.Random(13);
    for (int round = 0; round < 5; round++) {
      Bag<Long> bag = new Bag<>();
      Map<Long, Long> model = new java.util.HashMap<>();
      for (Long v : values) {
        bag.add(v, 1 + (v & 1));
        model.put(v, 1 + (v & 1));
      }
      java.util.List<Long> order = new java.util.ArrayList<>(values);
      java.util.Collections.shuffle(order, rnd);
      for (int i = 0; i < order.size(); i++) {
        Long v = order.get(i);
        assertThat(bag.add(v, -model.remove(v))).isZero();
        for (Long w : values) {
          assertThat(bag.weightOf(w)).as("round %d, after %d removals: %d", round, i + 1, w)
              .isEqualTo(model.getOrDefault(w, 0L));
        }
      }
      assertThat(bag.isEmpty()).isTrue();
    }
  }
}
