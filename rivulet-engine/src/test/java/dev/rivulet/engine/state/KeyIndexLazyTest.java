package dev.rivulet.engine.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A lazy {@link KeyIndex} (a hydration's batch packed by key, bags made when keys are first looked
 * up or changed) shows, through {@link KeyIndex#get} and {@link KeyIndex#add}, exactly what an
 * eager index given the same changes shows, over random histories that look keys up late:
 * additions and retractions under keys still packed (of the stored object or of an equal copy,
 * among values with equal hash codes), keys looked up long after the batch, later batches of both
 * signs and sizes. Keys mix {@code Long}s (extremes, keys sharing a home slot) with
 * strings and nulls. The batch is packed from boxed keys or from a {@link LongBatch}, scattered or
 * grouped by key (then already laid out in runs). Seeds: {@code -Drivulet.seed} replays one,
 * {@code -Drivulet.runs} multiplies the runs.
 */
class KeyIndexLazyTest {
  private static final long BASE_SEED = Long.getLong("rivulet.seed", 0x1A2EL);
  private static final int RUNS = 10 * Integer.getInteger("rivulet.runs", 1);

  /**
   * Keys of a scenario: sparse {@code Long}s (extremes, keys sharing a home slot: the hashed table),
   * or a dense range of them (the directly indexed table, near an extreme of {@code long} in some
   * scenarios), with strings beside them.
   */
  private static List<Object> keyPool(Random rnd) {
    if (rnd.nextBoolean()) {
      long base = switch (rnd.nextInt(3)) {
        case 0 -> Long.MIN_VALUE;
        case 1 -> Long.MAX_VALUE - 1999;
        default -> -300;
      };
      List<Object> keys = new ArrayList<>();
      for (int i = 0; i < 2000; i++) {
        keys.add(base + i);
      }
      keys.add("k");
      return keys;
    }
    List<Object> keys = new ArrayList<>(List.of(Long.MIN_VALUE, Long.MAX_VALUE, 0L, -1L, 1L));
    keys.addAll(LongKeyedBagsTest.lastSlotKeys(20));
    for (int i = 0; i < 600; i++) {
      keys.add(rnd.nextInt(4) == 0 ? rnd.nextLong() : (long) rnd.nextInt(5000));
    }
    for (int i = 0; i < 20; i++) {
      keys.add("k" + i);
    }
    return keys;
  }

  /** The bag of {@code key} as value -> weight (empty when absent). */
  private static Map<String, Long> contents(KeyIndex<String> index, Object key) {
    Map<String, Long> out = new HashMap<>();
    Bag<String> b = index.get(key);
    for (int i = 0; b != null && i < b.size(); i++) {
      out.put(b.value(i), b.weight(i));
    }
    return out;
  }

  private static void scenario(long seed) {
    Random rnd = new Random(seed);
    String where = "seed " + seed;
    List<Object> pool = keyPool(rnd);
    KeyIndex<String> lazy = new KeyIndex<>(true);
    KeyIndex<String> eager = new KeyIndex<>();
    int n = rnd.nextInt(3) == 0 // a first batch smaller than a bulk one (a join's small side) is packed too
        ? KeyIndex.PACK_AT + rnd.nextInt(KeyIndex.BULK_AT - KeyIndex.PACK_AT)
        : KeyIndex.BULK_AT + rnd.nextInt(2 * KeyIndex.BULK_AT);
    Object[] keys = new Object[n];
    String[] values = new String[n];
    long[] deltas = new long[n];
    for (int i = 0; i < n; i++) {
      keys[i] = rnd.nextInt(100) == 0 ? null : pool.get(rnd.nextInt(pool.size() - pool.size() / 8));
      // some values repeat under a key; "Aa.." and "BB.." pairs are unequal with equal hash codes
      values[i] = rnd.nextInt(10) == 0 ? (rnd.nextBoolean() ? "Aa" : "BB") + rnd.nextInt(30) : "v" + i;
      deltas[i] = rnd.nextInt(8) == 0 ? 1 + rnd.nextInt(3) : 1;
    }
    boolean noted = rnd.nextInt(3) == 0; // in a LongBatch, as a join's hydration notes it: Long keys
    for (int i = 0; i < n && noted; i++) {
      while (!(keys[i] instanceof Long)) {
        keys[i] = pool.get(rnd.nextInt(pool.size()));
      }
    }
    if (rnd.nextInt(3) == 0) { // grouped by key: packed as it comes, each key's entries one run
      Batches.group(keys, values, deltas);
    }
    int fromLazy = noted
        ? lazy.addAll(Batches.longBatch(keys, values, deltas))
        : lazy.addAll(keys, values, deltas, n);
    assertThat(fromLazy).as(where).isEqualTo(eager.addAll(keys, values, deltas, n));
    assertThat(lazy.packs()).as(where + ": the batch is packed").isEqualTo(1);
    assertThat(lazy.packed()).as(where).isPositive();
    assertThat(lazy.longKeys()).as(where).isZero();
    assertThat(lazy.bulkLoads()).as(where).isZero();
    List<String> seen = new ArrayList<>(List.of(values));
    int steps = 400 + rnd.nextInt(800);
    for (int step = 0; step < steps; step++) {
      Object key = pool.get(rnd.nextInt(pool.size()));
      String at = where + ", step " + step;
      switch (rnd.nextInt(11)) {
        case 0, 1, 2 -> { // an addition, often under a key still in the log
          String v = rnd.nextBoolean() ? seen.get(rnd.nextInt(seen.size())) : "n" + step;
          long d = 1 + rnd.nextInt(2);
          long want = eager.add(key, v, d);
          long got = lazy.add(key, v, d);
          assertThat(got == want || got == d && d <= want).as(at + ": add returns the weight or the delta").isTrue();
          seen.add(v);
        }
        case 3, 4 -> { // a retraction of a value the key holds: the object itself or an equal copy
          Map<String, Long> now = contents(eager, key);
          if (!now.isEmpty()) {
            String v = new ArrayList<>(now.keySet()).get(rnd.nextInt(now.size()));
            String r = rnd.nextBoolean() ? v : new String(v);
            long d = rnd.nextInt(4) == 0 ? -2 : -1;
            boolean wasPacked = lazy.isPacked(key);
            long want = eager.add(key, r, d);
            long got = lazy.add(key, r, d);
            if (wasPacked && want >= 0) {
              assertThat(got).as(at + ": a packed retraction returns a lower bound").isBetween(0L, want);
            } else {
              assertThat(got).as(at).isEqualTo(want);
            }
            if (want < 0) { // a retraction of more than the key holds, then undone on both
              assertThat(lazy.add(key, v, -d)).as(at).isEqualTo(eager.add(key, v, -d));
            } else if (rnd.nextInt(3) == 0) { // retracted, then added back
              long again = eager.add(key, v, -d);
              assertThat(lazy.add(key, v, -d)).as(at + ": re-added").isBetween(1L, again);
            }
            seen.add(v);
          }
        }
        case 9 -> { // a value retracted twice: the second finds nothing and fails as on an eager index
          Map<String, Long> now = contents(eager, key);
          List<String> ones = now.entrySet().stream().filter(e -> e.getValue() == 1).map(Map.Entry::getKey).toList();
          if (!ones.isEmpty()) {
            String v = ones.get(rnd.nextInt(ones.size()));
            assertThat(lazy.add(key, v, -1)).as(at).isEqualTo(eager.add(key, v, -1)).isZero();
            assertThat(lazy.add(key, new String(v), -1)).as(at + ": retracted twice").isEqualTo(-1);
            assertThat(eager.add(key, new String(v), -1)).isEqualTo(-1);
            assertThat(contents(lazy, key)).as(at).isEqualTo(contents(eager, key));
            lazy.add(key, v, 1); // undo the violation on both
            eager.add(key, v, 1);
          }
        }
        case 5, 6 -> assertThat(contents(lazy, key)).as(at).isEqualTo(contents(eager, key));
        case 7 -> assertThat(lazy.entries() - lazy.packed()).as(at + ": entries in bags")
            .isLessThanOrEqualTo(eager.entries());
        case 8 -> { // a later batch, sometimes of hydration size, sometimes with retractions
          int m = rnd.nextInt(10) == 0 ? KeyIndex.BULK_AT : 1 + rnd.nextInt(20);
          Object[] ks = new Object[m];
          String[] vs = new String[m];
          long[] ds = new long[m];
          for (int i = 0; i < m; i++) {
            ks[i] = pool.get(rnd.nextInt(pool.size()));
            Map<String, Long> now = contents(eager, ks[i]);
            boolean retract = !now.isEmpty() && rnd.nextInt(4) == 0;
            vs[i] = retract ? now.keySet().iterator().next() : "b" + step + "_" + i;
            ds[i] = retract ? -1 : 1;
            eager.add(ks[i], vs[i], ds[i]); // keeps the retractions within what the key holds
            eager.add(ks[i], vs[i], -ds[i]);
          }
          assertThat(lazy.addAll(ks, vs, ds, m)).as(at).isEqualTo(eager.addAll(ks, vs, ds, m));
          seen.addAll(List.of(vs));
        }
        default -> assertThat(lazy.get(key) == null).as(at).isEqualTo(eager.get(key) == null);
      }
    }
    for (Object k : List.of(Long.MIN_VALUE, Long.MAX_VALUE, 0L, "absent")) { // outside a dense range too
      assertThat(contents(lazy, k)).as(where + ": key " + k).isEqualTo(contents(eager, k));
    }
    for (Object k : pool) {
      assertThat(contents(lazy, k)).as(where + ": key " + k).isEqualTo(contents(eager, k));
    }
    assertThat(lazy.packed()).as(where).isZero();
    assertThat(lazy.entries()).as(where).isEqualTo(eager.entries());
    assertThat(lazy.longKeys()).as(where).isEqualTo(eager.longKeys());
    assertThat(lazy.otherKeys()).as(where).isEqualTo(eager.otherKeys());
  }

  @Test
  void aLazyIndexShowsWhatAnEagerOneShowsOverHistoriesThatLookKeysUpLate() {
    for (int r = 0; r < RUNS; r++) {
      scenario(BASE_SEED + r);
    }
  }

  @Test
  void onlyTheKeysLookedUpOrChangedGetBags() {
    KeyIndex<String> index = new KeyIndex<>(true);
    int n = 100_000;
    Object[] keys = new Object[n];
    String[] values = new String[n];
    long[] ones = new long[n];
    for (int i = 0; i < n; i++) {
      keys[i] = (long) (i % 10_000);
      values[i] = "c" + i;
      ones[i] = 1;
    }
    assertThat(index.addAll(keys, values, ones, n)).isEqualTo(-1);
    assertThat(index.packed()).isEqualTo(n);
    assertThat(index.entries()).isEqualTo(n);
    assertThat(index.bulkLoads()).isZero();
    assertThat(index.longKeys()).isZero();

    assertThat(index.get(7L).size()).isEqualTo(10);
    assertThat(index.get(7L).value(0)).as("a key's values in batch order").isEqualTo("c7");
    assertThat(index.get(7L).value(9)).isEqualTo("c90007");
    assertThat(index.get(10_000L)).isNull();
    assertThat(index.longKeys()).isEqualTo(1);
    assertThat(index.opened()).isEqualTo(10);
    assertThat(index.packed()).isEqualTo(n - 10);
    assertThat(index.entries()).isEqualTo(n);

    assertThat(index.add(9L, "new", 1)).as("an addition to a packed key is packed").isEqualTo(1);
    assertThat(index.opened()).isEqualTo(10);
    assertThat(index.packed()).isEqualTo(n - 10 + 1);
    assertThat(index.add(9L, "c9", -1)).as("a retraction of an equal copy stays packed").isZero();
    assertThat(index.compared()).as("every entry of key 9 by identity, then c9 by equals").isEqualTo(11 + 1);
    assertThat(index.longKeys()).isEqualTo(1);
    assertThat(index.opened()).isEqualTo(10);
    assertThat(index.entries()).isEqualTo(n);
    assertThat(index.get(9L).size()).isEqualTo(10); // c10009 ... c90009 and "new"
    assertThat(index.get(9L).weightOf("c9")).isZero();
    assertThat(index.get(9L).weightOf("c10009")).isEqualTo(1);
    assertThat(index.get(9L).weightOf("new")).as("the packed addition is in the bag").isEqualTo(1);
    assertThat(index.opened()).isEqualTo(20);
    assertThat(index.entries()).isEqualTo(n);
    for (int i = 0; i < 10; i++) {
      index.add(8L, "c" + (i * 10_000 + 8), -1);
    }
    assertThat(index.get(8L)).as("a key emptied while packed has no bag").isNull();
    assertThat(index.longKeys()).isEqualTo(2);
    assertThat(index.entries()).isEqualTo(n - 10);

    for (long k = 0; k < 10_000; k++) {
      index.get(k);
    }
    assertThat(index.packed()).isZero();
    assertThat(index.longKeys()).isEqualTo(9_999);
    assertThat(index.entries()).isEqualTo(n - 10);
    assertThat(index.opened()).as("all but the 11 retracted entries").isEqualTo(n + 1 - 11);
  }

  /**
   * A retraction under a key still packed takes the value's weight from its entry, and the key gets
   * no bag: the value found as the object itself (the entries before it compared) or, failing
   * that, as an equal copy (every entry compared by identity, then up to it by equals); a weight
   * above 1 lowered; a value retracted, then added back; a key emptied. A retraction of more than
   * the key's entry holds (twice, or more than its weight) makes the key's bag first and fails as on
   * an eager index. Over a dense and a hashed table.
   */
  @Test
  void aRetractionUnderAPackedKeyStaysPackedAndKeepsTheCountersExact() {
    for (long spread : new long[] {1, 1_000_003}) {
      String where = "keys spread by " + spread;
      int n = 5000; // keys 0 .. 499 (times spread), ten entries each: i, i + 500, ...
      Object[] keys = new Object[n];
      String[] values = new String[n];
      long[] deltas = new long[n];
      for (int i = 0; i < n; i++) {
        keys[i] = i % 500 * spread;
        values[i] = "r" + i;
        deltas[i] = i == 10 ? 2 : 1;
      }
      KeyIndex<String> lazy = new KeyIndex<>(true);
      KeyIndex<String> eager = new KeyIndex<>();
      lazy.addAll(keys, values, deltas, n);
      eager.addAll(keys, values, deltas, n);
      long k7 = 7 * spread;

      assertThat(lazy.add(k7, values[1507], -1)).as(where + ": the stored object").isZero();
      assertThat(lazy.compared()).as(where + ": entries 7, 507, 1007, then 1507").isEqualTo(4);
      assertThat(lazy.add(k7, new String(values[507]), -1)).as(where + ": an equal copy").isZero();
      assertThat(lazy.compared()).as(where + ": 9 entries by identity, 2 by equals").isEqualTo(4 + 11);
      assertThat(lazy.isPacked(k7)).as(where).isTrue();
      assertThat(lazy.longKeys()).as(where + ": no bag made").isZero();
      assertThat(lazy.opened()).as(where).isZero();
      assertThat(lazy.packed()).as(where).isEqualTo(n - 2);
      assertThat(lazy.entries()).as(where).isEqualTo(n - 2);

      long k10 = 10 * spread;
      assertThat(lazy.add(k10, values[10], -1)).as(where + ": weight 2 lowered").isEqualTo(1);
      assertThat(lazy.add(k10, values[10], -1)).as(where).isZero();
      long k8 = 8 * spread;
      assertThat(lazy.add(k8, values[8], -1)).as(where).isZero();
      assertThat(lazy.add(k8, values[8], 1)).as(where + ": added back, packed").isEqualTo(1);
      assertThat(lazy.add(k8, values[8], -1)).as(where + ": the re-added entry retracted").isZero();
      assertThat(lazy.add(k8, values[8], 1)).as(where).isEqualTo(1);
      long k11 = 11 * spread;
      for (int i = 11; i < n; i += 500) {
        assertThat(lazy.add(k11, values[i], -1)).as(where + ": key 11 emptied").isZero();
      }
      assertThat(lazy.isPacked(k11)).as(where).isFalse();
      assertThat(lazy.longKeys()).as(where + ": still no bag made").isZero();
      assertThat(lazy.opened()).as(where).isZero();
      assertThat(lazy.entries()).as(where).isEqualTo(n - 2 - 1 - 10);
      assertThat(lazy.isPacked(k7) && lazy.isPacked(k8) && lazy.isPacked(k10)).as(where).isTrue();
      eager.add(k10, values[10], -2); // eager gets the same net changes (none under key 8)
      for (int i = 11; i < n; i += 500) {
        eager.add(k11, values[i], -1);
      }
      eager.add(k7, values[1507], -1);
      eager.add(k7, values[507], -1);
      assertThat(eager.entries()).isEqualTo(lazy.entries());

      long before = lazy.compared();
      assertThat(lazy.add(k7, values[1507], -1)).as(where + ": retracted twice, as eager")
          .isEqualTo(eager.add(k7, values[1507], -1)).isEqualTo(-1);
      assertThat(lazy.compared() - before).as(where + ": 8 entries by identity and by equals").isEqualTo(16);
      assertThat(lazy.opened()).as(where + ": the key's 8 entries left moved into its bag").isEqualTo(8);
      assertThat(lazy.isPacked(k7)).as(where).isFalse();
      assertThat(lazy.add(k10, values[510], -2)).as(where + ": more than the entry holds")
          .isEqualTo(eager.add(k10, values[510], -2)).isEqualTo(-1);
      assertThat(lazy.add(k11, values[11], -1)).as(where + ": from a key emptied while packed")
          .isEqualTo(eager.add(k11, values[11], -1)).isEqualTo(-1);

      for (int k = 0; k < 500; k++) {
        assertThat(contents(lazy, k * spread)).as(where + ": key " + k).isEqualTo(contents(eager, k * spread));
      }
      assertThat(lazy.get(k8).value(9)).as(where + ": the re-added value last").isEqualTo(values[8]);
      assertThat(lazy.packed()).as(where).isZero();
      assertThat(lazy.entries()).as(where).isEqualTo(eager.entries());
    }
  }

  /** A first batch packs from {@link KeyIndex#PACK_AT} entries on; a smaller one is added row by row. */
  @Test
  void aFirstBatchPacksFromPackAt() {
    for (int n : new int[] {KeyIndex.PACK_AT - 1, KeyIndex.PACK_AT, 1000}) {
      Object[] keys = new Object[n];
      String[] values = new String[n];
      long[] deltas = new long[n];
      for (int i = 0; i < n; i++) {
        keys[i] = (long) (i % 50);
        values[i] = "v" + i;
        deltas[i] = 1;
      }
      KeyIndex<String> lazy = new KeyIndex<>(true);
      KeyIndex<String> eager = new KeyIndex<>();
      assertThat(lazy.addAll(keys, values, deltas, n)).isEqualTo(eager.addAll(keys, values, deltas, n)).isEqualTo(-1);
      boolean packs = n >= KeyIndex.PACK_AT;
      assertThat(lazy.packs()).as("n %d", n).isEqualTo(packs ? 1 : 0);
      assertThat(lazy.longKeys()).as("n %d: no bag made", n).isEqualTo(packs ? 0 : 50);
      assertThat(lazy.entries()).as("n %d", n).isEqualTo(eager.entries());
      for (long k = -1; k <= 50; k++) {
        assertThat(contents(lazy, k)).as("n %d key %d", n, k).isEqualTo(contents(eager, k));
      }
      assertThat(lazy.opened()).as("n %d", n).isEqualTo(packs ? n : 0);
    }
  }

  @Test
  void anEagerIndexOrABatchWithRetractionsIsNeverPacked() {
    int n = KeyIndex.BULK_AT;
    Object[] keys = new Object[n];
    String[] values = new String[n];
    long[] deltas = new long[n];
    for (int i = 0; i < n; i++) {
      keys[i] = (long) i;
      values[i] = "v" + i;
      deltas[i] = 1;
    }
    KeyIndex<String> eager = new KeyIndex<>();
    eager.addAll(keys, values, deltas, n);
    assertThat(eager.packed()).isZero();
    assertThat(eager.bulkLoads()).isEqualTo(1);
    deltas[5] = -1;
    KeyIndex<String> lazy = new KeyIndex<>(true);
    assertThat(lazy.addAll(keys, values, deltas, n)).isEqualTo(5);
    assertThat(lazy.packs()).isZero();
    assertThat(lazy.bulkLoads()).isEqualTo(1);
  }
}
