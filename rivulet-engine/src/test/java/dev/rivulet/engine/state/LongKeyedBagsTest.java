package dev.rivulet.engine.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link LongKeyedBags} agrees with a plain map of maps under random adds and removals, one by one
 * and in bulk ({@link LongKeyedBags#addAll}), over keys at the extremes of {@code long}, keys
 * whose {@link Long#hashCode} collides, and keys that all home to the table's last slot (so probe
 * runs and the backward shift of removals wrap around the end).
 */
class LongKeyedBagsTest {
  private static final long GOLDEN = 0x9E3779B97F4A7C15L;

  /** Keys whose hashes share their top 24 bits (all ones): one home slot in any table up to 2^24. */
  static List<Long> lastSlotKeys(int count) {
    long inverse = GOLDEN; // Newton's iteration for the inverse modulo 2^64
    for (int i = 0; i < 6; i++) {
      inverse *= 2 - GOLDEN * inverse;
    }
    List<Long> out = new ArrayList<>();
    for (long j = 0; j < count; j++) {
      out.add((0xFFFFFFL << 40 | j * 7919) * inverse);
    }
    return out;
  }

  static List<Long> keyPool() {
    List<Long> keys = new ArrayList<>(List.of(Long.MIN_VALUE, Long.MAX_VALUE, 0L, -1L, 1L,
        Long.MIN_VALUE + 1, Long.MAX_VALUE - 1, 1L << 32, (1L << 32) + 1)); // -1 and 0 share Long.hashCode
    keys.addAll(lastSlotKeys(40));
    for (long k = 100; k < 130; k++) {
      keys.add(k);
    }
    return keys;
  }

  @Test
  void lastSlotKeysReallyShareTheirHomeSlot() {
    LongKeyedBags<String> bags = new LongKeyedBags<>();
    for (long k : lastSlotKeys(40)) {
      assertThat(bags.home(k)).isEqualTo(bags.capacity() - 1);
    }
  }

  @Test
  void agreesWithAMapUnderRandomAddsAndRemovals() {
    long base = Long.getLong("rivulet.seed", 17);
    List<Long> keys = keyPool();
    for (int run = 0; run < 25; run++) {
      long seed = base + run;
      Random rnd = new Random(seed);
      LongKeyedBags<String> bags = new LongKeyedBags<>();
      Map<Long, Map<String, Long>> model = new HashMap<>();
      for (int step = 0; step < 200; step++) {
        int n = rnd.nextInt(4) == 0 ? 1 + rnd.nextInt(200) : 1;
        long[] ks = new long[n];
        String[] vs = new String[n];
        long[] ds = new long[n];
        int modelNegative = -1;
        for (int i = 0; i < n; i++) {
          ks[i] = keys.get(rnd.nextInt(keys.size()));
          vs[i] = "v" + rnd.nextInt(4);
          ds[i] = rnd.nextInt(7) - 3;
          if (apply(model, ks[i], vs[i], ds[i]) < 0 && modelNegative < 0) {
            modelNegative = i;
          }
        }
        if (n == 1) {
          long w = bags.add(ks[0], vs[0], ds[0]);
          assertThat(w < 0).as("seed %d step %d", seed, step).isEqualTo(modelNegative == 0);
        } else {
          assertThat(bags.addAll(ks, vs, ds, n)).as("seed %d step %d", seed, step).isEqualTo(modelNegative);
        }
        assertSame(bags, model, keys, "seed " + seed + " step " + step);
      }
    }
  }

  private static long apply(Map<Long, Map<String, Long>> model, long key, String value, long delta) {
    Map<String, Long> bag = model.computeIfAbsent(key, k -> new HashMap<>());
    long w = bag.getOrDefault(value, 0L) + delta;
    if (w == 0) {
      bag.remove(value);
    } else {
      bag.put(value, w);
    }
    if (bag.isEmpty()) {
      model.remove(key);
    }
    return w;
  }

  private static void assertSame(LongKeyedBags<String> bags, Map<Long, Map<String, Long>> model, List<Long> keys,
      String where) {
    long entries = 0;
    for (long k : keys) {
      Map<String, Long> want = model.getOrDefault(k, Map.of());
      entries += want.size();
      Bag<String> got = bags.get(k);
      Map<String, Long> have = new HashMap<>();
      for (int i = 0; got != null && i < got.size(); i++) {
        have.put(got.value(i), got.weight(i));
      }
      assertThat(have).as("%s key %d", where, k).isEqualTo(want);
      assertThat(got == null || !got.isEmpty()).as("%s: empty bag kept for %d", where, k).isTrue();
    }
    assertThat(bags.keys()).as(where).isEqualTo(model.size());
    assertThat(bags.entries()).as(where).isEqualTo(entries);
    assertThat(bags.capacity()).as(where).isGreaterThanOrEqualTo(2 * bags.keys());
  }

  @Test
  void bulkLoadOfManyKeysKeepsEachKeysValuesInOrderAndTheTableWithinItsLoad() {
    int n = 50_000;
    long[] ks = new long[n];
    Integer[] vs = new Integer[n];
    long[] ds = new long[n];
    Random rnd = new Random(Long.getLong("rivulet.seed", 5));
    for (int i = 0; i < n; i++) {
      ks[i] = rnd.nextInt(5_000) * 1_000_003L - 2_000_000_000L;
      vs[i] = i;
      ds[i] = 1 + rnd.nextInt(2);
    }
    LongKeyedBags<Integer> bulk = new LongKeyedBags<>();
    LongKeyedBags<Integer> single = new LongKeyedBags<>();
    assertThat(bulk.addAll(ks, vs, ds, n)).isEqualTo(-1);
    for (int i = 0; i < n; i++) {
      single.add(ks[i], vs[i], ds[i]);
    }
    assertThat(bulk.keys()).isEqualTo(single.keys());
    assertThat(bulk.entries()).isEqualTo(n);
    assertThat(bulk.capacity()).isLessThanOrEqualTo(4 * single.capacity());
    for (int i = 0; i < n; i++) {
      Bag<Integer> a = bulk.get(ks[i]);
      Bag<Integer> b = single.get(ks[i]);
      assertThat(a.size()).isEqualTo(b.size());
      for (int j = 0; j < a.size(); j++) {
        assertThat(a.value(j)).isEqualTo(b.value(j));
        assertThat(a.weight(j)).isEqualTo(b.weight(j));
      }
    }
  }
}
