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
 * additions and retractions under keys still packed, keys looked up long after the batch, later
 * batches of both signs and sizes. Keys mix {@code Long}s (extremes, keys sharing a home slot) with
 * strings and nulls. Seeds: {@code -Drivulet.seed} replays one, {@code -Drivulet.runs} multiplies
 * the runs.
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
    int n = KeyIndex.BULK_AT + rnd.nextInt(2 * KeyIndex.BULK_AT);
    Object[] keys = new Object[n];
    String[] values = new String[n];
    long[] deltas = new long[n];
    for (int i = 0; i < n; i++) {
      keys[i] = rnd.nextInt(100) == 0 ? null : pool.get(rnd.nextInt(pool.size() - pool.size() / 8));
      values[i] = rnd.nextInt(10) == 0 ? "d" + rnd.nextInt(30) : "v" + i; // some values repeat under a key
      deltas[i] = rnd.nextInt(8) == 0 ? 1 + rnd.nextInt(3) : 1;
    }
    assertThat(lazy.addAll(keys, values, deltas, n)).as(where).isEqualTo(eager.addAll(keys, values, deltas, n));
    assertThat(lazy.packs()).as(where + ": the batch is packed").isEqualTo(1);
    assertThat(lazy.packed()).as(where).isPositive();
    assertThat(lazy.longKeys()).as(where).isZero();
    assertThat(lazy.bulkLoads()).as(where).isZero();
    List<String> seen = new ArrayList<>(List.of(values));
    int steps = 400 + rnd.nextInt(800);
    for (int step = 0; step < steps; step++) {
      Object key = pool.get(rnd.nextInt(pool.size()));
      String at = where + ", step " + step;
      switch (rnd.nextInt(10)) {
        case 0, 1, 2 -> { // an addition, often under a key still in the log
          String v = rnd.nextBoolean() ? seen.get(rnd.nextInt(seen.size())) : "n" + step;
          long d = 1 + rnd.nextInt(2);
          long want = eager.add(key, v, d);
          long got = lazy.add(key, v, d);
          assertThat(got == want || got == d && d <= want).as(at + ": add returns the weight or the delta").isTrue();
          seen.add(v);
        }
        case 3, 4 -> { // a retraction of a value the key holds
          Map<String, Long> now = contents(eager, key);
          if (!now.isEmpty()) {
            String v = new ArrayList<>(now.keySet()).get(rnd.nextInt(now.size()));
            assertThat(lazy.add(key, v, -1)).as(at).isEqualTo(eager.add(key, v, -1));
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
    assertThat(index.add(9L, "c9", -1)).as("a retraction opens its key first").isZero();
    assertThat(index.get(9L).size()).isEqualTo(10); // c10009 ... c90009 and "new"
    assertThat(index.get(9L).weightOf("c10009")).isEqualTo(1);
    assertThat(index.get(9L).weightOf("new")).as("the packed addition is in the bag").isEqualTo(1);
    assertThat(index.opened()).isEqualTo(21);
    assertThat(index.entries()).isEqualTo(n);
    for (int i = 0; i < 10; i++) {
      index.add(8L, "c" + (i * 10_000 + 8), -1);
    }
    assertThat(index.get(8L)).as("a key emptied after opening stays empty").isNull();
    assertThat(index.entries()).isEqualTo(n - 10);

    for (long k = 0; k < 10_000; k++) {
      index.get(k);
    }
    assertThat(index.packed()).isZero();
    assertThat(index.longKeys()).isEqualTo(9_999);
    assertThat(index.entries()).isEqualTo(n - 10);
    assertThat(index.opened()).isEqualTo(n + 1);
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
