package dev.rivulet.engine.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A bulk {@link KeyIndex#addAll} (a batch of at least {@link KeyIndex#BULK_AT}, built by {@link
 * BagBatch}) leaves the same index as adding the same entries one by one in order: every key's
 * values in the same order with the same weights, the same key and entry counts, and the same
 * least index whose weight became negative. Keys mix {@code Long}s (extremes of {@code long}, keys
 * that share one home slot) with other objects and nulls; values repeat within a key; weights
 * include zero and negatives; some keys already hold values and some hold more than a bag scans.
 * Seeds: {@code -Drivulet.seed} replays one, {@code -Drivulet.runs} multiplies the runs.
 */
class KeyIndexBulkTest {
  private static final long BASE_SEED = Long.getLong("rivulet.seed", 0x1D5EEDL);
  private static final int RUNS = 12 * Integer.getInteger("rivulet.runs", 1);

  private static List<Object> keyPool(Random rnd) {
    List<Object> keys = new ArrayList<>(List.of(Long.MIN_VALUE, Long.MAX_VALUE, 0L, -1L, 1L, Long.MIN_VALUE + 1,
        Long.MAX_VALUE - 1));
    keys.addAll(LongKeyedBagsTest.lastSlotKeys(30));
    for (int i = 0; i < 400; i++) {
      keys.add(rnd.nextLong());
    }
    for (int i = 0; i < 60; i++) {
      keys.add(i % 2 == 0 ? "k" + i : List.of((long) i, "x")); // a string or a projected-row-like key
    }
    return keys;
  }

  /** One random scenario: a prefix added one by one to both, then one batch, bulk against one by one. */
  private static void scenario(long seed) {
    Random rnd = new Random(seed);
    List<Object> pool = keyPool(rnd);
    int mode = rnd.nextInt(3); // 0: a clean hydration (weights 1, distinct values); 1: positive; 2: anything
    KeyIndex<String> bulk = new KeyIndex<>();
    KeyIndex<String> single = new KeyIndex<>();
    int prefix = rnd.nextBoolean() ? 0 : rnd.nextInt(3000);
    for (int i = 0; i < prefix; i++) {
      Object key = pool.get(rnd.nextInt(pool.size()));
      String value = "p" + rnd.nextInt(40);
      assertThat(bulk.add(key, value, 1)).isEqualTo(single.add(key, value, 1));
    }
    int n = KeyIndex.BULK_AT + rnd.nextInt(3 * KeyIndex.BULK_AT);
    Object[] keys = new Object[n];
    String[] values = new String[n];
    long[] deltas = new long[n];
    for (int i = 0; i < n; i++) {
      keys[i] = rnd.nextInt(50) == 0 ? null : pool.get(skewed(rnd, pool.size()));
      values[i] = switch (mode) {
        case 0 -> "u" + i;
        default -> rnd.nextInt(4) == 0 ? "p" + rnd.nextInt(40) : "v" + rnd.nextInt(12);
      };
      deltas[i] = switch (mode) {
        case 0 -> 1;
        case 1 -> 1 + rnd.nextInt(3);
        default -> rnd.nextInt(6) - 2;
      };
    }
    int expected = -1;
    for (int i = 0; i < n; i++) {
      if (keys[i] != null && single.add(keys[i], values[i], deltas[i]) < 0 && expected < 0) {
        expected = i;
      }
    }
    String where = "seed " + seed + " mode " + mode;
    assertThat(bulk.addAll(keys, values, deltas, n)).as(where).isEqualTo(expected);
    assertThat(bulk.bulkLoads()).as(where).isEqualTo(1);
    assertSameIndex(bulk, single, pool, where);
  }

  /** Indexes skewed toward the pool's front, so some keys get many values (more than a bag scans). */
  private static int skewed(Random rnd, int size) {
    return rnd.nextInt(4) == 0 ? rnd.nextInt(8) : rnd.nextInt(size);
  }

  private static void assertSameIndex(KeyIndex<String> bulk, KeyIndex<String> single, List<Object> pool, String where) {
    for (Object key : pool) {
      Bag<String> a = bulk.get(key);
      Bag<String> b = single.get(key);
      assertThat(a == null).as("%s: key %s present", where, key).isEqualTo(b == null);
      if (a == null) {
        continue;
      }
      assertThat(a.size()).as("%s: size of %s", where, key).isEqualTo(b.size());
      assertThat(a.total()).as("%s: total of %s", where, key).isEqualTo(b.total());
      for (int j = 0; j < a.size(); j++) {
        assertThat(a.value(j)).as("%s: value %d of %s", where, j, key).isEqualTo(b.value(j));
        assertThat(a.weight(j)).as("%s: weight %d of %s", where, j, key).isEqualTo(b.weight(j));
        assertThat(a.weightOf(b.value(j))).as("%s: weightOf in %s", where, key).isEqualTo(b.weight(j));
      }
    }
    assertThat(bulk.longKeys()).as(where).isEqualTo(single.longKeys());
    assertThat(bulk.otherKeys()).as(where).isEqualTo(single.otherKeys());
    assertThat(bulk.entries()).as(where).isEqualTo(single.entries());
  }

  @Test
  void aBulkBatchEqualsAddingOneByOne() {
    for (int run = 0; run < RUNS; run++) {
      scenario(BASE_SEED + run);
    }
  }

  @Test
  void aHydrationBuildsEachBagWholeWithNoSpareRoomAndNoWeightArray() {
    Random rnd = new Random(BASE_SEED);
    int n = 5 * KeyIndex.BULK_AT;
    Object[] keys = new Object[n];
    String[] values = new String[n];
    long[] deltas = new long[n];
    Set<Object> distinct = new LinkedHashSet<>();
    for (int i = 0; i < n; i++) {
      int k = rnd.nextInt(n / 10);
      keys[i] = k % 7 == 0 ? "s" + k : (Object) (long) k; // mostly Long keys, some others
      values[i] = "c" + i;
      deltas[i] = 1;
      distinct.add(keys[i]);
    }
    keys[3] = 0L; // a key of many values: its bag indexes them in a hash table
    for (int i = 0; i < 40; i++) {
      keys[100 + i] = 0L;
    }
    distinct.add(0L);
    KeyIndex<String> index = new KeyIndex<>();
    assertThat(index.addAll(keys, values, deltas, n)).isEqualTo(-1);
    assertThat(index.bulkLoads()).isEqualTo(1);
    assertThat(index.bulkBags()).isEqualTo(distinct.size());
    assertThat(index.entries()).isEqualTo(n);
    for (Object key : distinct) {
      Bag<String> bag = index.get(key);
      assertThat(bag.capacity()).as("room of %s's bag", key).isEqualTo(bag.size());
      assertThat(bag.keepsWeights()).as("weights of %s's bag", key).isFalse();
    }
    assertThat(index.get(0L).indexed()).isTrue();
    assertThat(index.get(0L).size()).isGreaterThan(40);
    // a batch below the threshold goes row by row and keeps the bag's contents
    assertThat(index.addAll(new Object[] {0L}, new String[] {"late"}, new long[] {2}, 1)).isEqualTo(-1);
    assertThat(index.bulkLoads()).isEqualTo(1);
    assertThat(index.get(0L).weightOf("late")).isEqualTo(2);
    assertThat(index.get(0L).keepsWeights()).isTrue();
  }

  @Test
  void aBatchThatEmptiesKeysDropsThemAndReportsTheFirstNegative() {
    KeyIndex<String> index = new KeyIndex<>();
    int n = KeyIndex.BULK_AT;
    Object[] keys = new Object[n];
    String[] values = new String[n];
    long[] deltas = new long[n];
    for (int i = 0; i < n; i++) {
      keys[i] = i % 2 == 0 ? (Object) (long) (i / 2) : "o" + i / 2;
      values[i] = "v";
      deltas[i] = 1;
    }
    assertThat(index.addAll(keys, values, deltas, n)).isEqualTo(-1);
    assertThat(index.longKeys()).isEqualTo(n / 2);
    assertThat(index.otherKeys()).isEqualTo(n / 2);
    for (int i = 0; i < n; i++) {
      deltas[i] = i == n - 4 || i == 11 ? -2 : -1; // i = 11 is the first to turn negative
    }
    assertThat(index.addAll(keys, values, deltas, n)).isEqualTo(11);
    assertThat(index.longKeys()).isEqualTo(1);
    assertThat(index.otherKeys()).isEqualTo(1);
    assertThat(index.get("o5").weightOf("v")).isEqualTo(-1);
    assertThat(index.get((long) (n - 4) / 2).weightOf("v")).isEqualTo(-1);
    assertThat(index.entries()).isEqualTo(2);
  }
}
