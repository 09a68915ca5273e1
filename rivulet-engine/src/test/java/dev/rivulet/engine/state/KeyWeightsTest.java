package dev.rivulet.engine.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link KeyWeights} against a map of (total, passing) per key, with keys dropped at total 0. */
class KeyWeightsTest {
  @Test
  void agreesWithAMapThroughAddsAndRemovals() {
    for (long seed = 1; seed <= 20; seed++) {
      Random rnd = new Random(seed);
      KeyWeights w = new KeyWeights();
      Map<Object, long[]> model = new HashMap<>();
      // few distinct keys, many of them colliding in a small table; extremes and non-Long keys too
      List<Object> keys = new java.util.ArrayList<>(List.of(Long.MIN_VALUE, Long.MAX_VALUE, 0L, -1L, "a", 1.5));
      for (int i = 0; i < 60; i++) {
        keys.add((long) rnd.nextInt(200) << (rnd.nextBoolean() ? 0 : 20));
      }
      for (int step = 0; step < 4000; step++) {
        Object key = keys.get(rnd.nextInt(keys.size()));
        long[] m = model.get(key);
        long total = m == null ? 0 : m[0];
        long delta = total > 0 && rnd.nextInt(5) < 2 ? -1 - rnd.nextInt((int) Math.min(total, 3)) : 1 + rnd.nextInt(2);
        long pass = rnd.nextBoolean() ? delta : 0;
        w.add(key, delta, pass);
        long[] n = model.computeIfAbsent(key, k -> new long[2]);
        n[0] += delta;
        n[1] += pass;
        if (n[0] == 0) {
          model.remove(key);
        }
        for (Object k : keys) {
          long[] e = model.get(k);
          assertThat(w.passing(k)).as("seed %d step %d key %s", seed, step, k)
              .isEqualTo(e == null ? KeyWeights.ABSENT : e[1]);
          assertThat(w.total(k)).as("seed %d step %d key %s", seed, step, k).isEqualTo(e == null ? 0 : e[0]);
        }
        assertThat(w.keys()).as("seed %d step %d", seed, step).isEqualTo(model.size());
      }
    }
  }
}
