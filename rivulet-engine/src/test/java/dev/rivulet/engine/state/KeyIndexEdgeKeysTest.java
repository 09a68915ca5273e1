package dev.rivulet.engine.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A lazy KeyIndex (packed first batch, dense or hashed; appends, retractions,
 * compaction, opening) and an eager one against a plain map, keys drawn with edge integers
 * (0, MIN, MAX, neighbours), other key kinds, retractions and weights > 1.
 */
class KeyIndexEdgeKeysTest {
  private static final long[] EDGES = {0, 1, -1, Long.MIN_VALUE, Long.MIN_VALUE + 1, Long.MAX_VALUE, Long.MAX_VALUE - 1};

  private static Object key(Random rnd, boolean dense) {
    int c = rnd.nextInt(20);
    if (c == 0) {
      return "s" + rnd.nextInt(5);
    }
    if (c < 4) {
      return EDGES[rnd.nextInt(EDGES.length)];
    }
    return dense ? (long) rnd.nextInt(60) : rnd.nextLong() >> rnd.nextInt(64);
  }

  @Test
  void lazyAndEagerIndexesEqualAMap() {
    for (long seed = 1; seed <= 300; seed++) {
      Random rnd = new Random(seed);
      boolean dense = seed % 2 == 0;
      KeyIndex<String> lazy = new KeyIndex<>(true);
      KeyIndex<String> eager = new KeyIndex<>(false);
      Map<Object, Map<String, Long>> model = new HashMap<>();
      int n = 64 + rnd.nextInt(200);
      Object[] keys = new Object[n];
      String[] values = new String[n];
      long[] deltas = rnd.nextBoolean() ? null : new long[n];
      for (int i = 0; i < n; i++) {
        keys[i] = rnd.nextInt(30) == 0 ? null : dense ? (Object) (long) rnd.nextInt(60) : key(rnd, false); // dense seeds: a dense packed table
        values[i] = "v" + rnd.nextInt(4);
        if (deltas != null) {
          deltas[i] = 1 + rnd.nextInt(3);
        }
      }
      assertThat(lazy.addAll(keys, values, deltas, n)).isEqualTo(-1);
      assertThat(eager.addAll(keys, values, deltas, n)).isEqualTo(-1);
      for (int i = 0; i < n; i++) {
        if (keys[i] != null) {
          model.computeIfAbsent(keys[i], k -> new HashMap<>()).merge(values[i], deltas == null ? 1 : deltas[i], Long::sum);
        }
      }
      for (int step = 0; step < 400; step++) {
        Object k = key(rnd, dense);
        String v = "v" + rnd.nextInt(4);
        Map<String, Long> bag = model.get(k);
        long have = bag == null ? 0 : bag.getOrDefault(v, 0L);
        long d;
        if (have > 0 && rnd.nextBoolean()) {
          d = -(1 + rnd.nextInt((int) Math.min(have, 3)));
        } else {
          d = 1 + rnd.nextInt(2);
        }
        lazy.add(k, v, d);
        long we = eager.add(k, v, d);
        assertThat(we).as("seed %d step %d", seed, step).isEqualTo(have + d);
        Map<String, Long> b = model.computeIfAbsent(k, x -> new HashMap<>());
        b.merge(v, d, Long::sum);
        b.values().removeIf(w -> w == 0);
        if (b.isEmpty()) {
          model.remove(k);
        }
        if (rnd.nextInt(8) == 0) { // look a key up in both ways
          Object q = key(rnd, dense);
          assertThat(contents(lazy, q, false)).as("seed %d step %d key %s (read in place)", seed, step, q)
              .isEqualTo(model.getOrDefault(q, Map.of()));
          assertThat(contents(lazy, q, true)).as("seed %d step %d key %s", seed, step, q)
              .isEqualTo(model.getOrDefault(q, Map.of()));
          assertThat(contents(eager, q, true)).isEqualTo(model.getOrDefault(q, Map.of()));
        }
      }
      for (Object k : model.keySet()) {
        assertThat(contents(lazy, k, false)).as("seed %d key %s", seed, k).isEqualTo(model.get(k));
        assertThat(contents(eager, k, true)).as("seed %d key %s", seed, k).isEqualTo(model.get(k));
      }
      for (long e : EDGES) {
        if (!model.containsKey(e)) {
          assertThat(contents(lazy, e, true)).as("seed %d absent %d", seed, e).isEmpty();
        }
      }
    }
  }

  private static Map<String, Long> contents(KeyIndex<String> index, Object key, boolean viaGet) {
    Map<String, Long> out = new HashMap<>();
    if (!viaGet) {
      for (int e = index.packedFirst(key); e >= 0; e = index.packedNext(e)) {
        out.merge(index.packedValue(e), index.packedWeight(e), Long::sum);
      }
      if (!out.isEmpty()) {
        return out;
      }
    }
    Bag<String> b = viaGet ? index.get(key) : index.bagOf(key);
    for (int i = 0; b != null && i < b.size(); i++) {
      out.merge(b.value(i), b.weight(i), Long::sum);
    }
    return out;
  }
}
