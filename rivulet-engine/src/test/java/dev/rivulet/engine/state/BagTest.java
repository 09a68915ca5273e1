package dev.rivulet.engine.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link Bag} against a map of weights, across the switch from scanning to its hash table. */
class BagTest {
  @Test
  void weightsMatchAMapUnderRandomAddsAndRemovals() {
    long base = Long.getLong("rivulet.seed", 11);
    for (int run = 0; run < 40; run++) {
      Random rnd = new Random(base + run);
      int domain = 1 + rnd.nextInt(300);
      boolean colliding = rnd.nextBoolean(); // values whose hashes share their low bits
      Bag<Long> bag = new Bag<>();
      Map<Long, Long> model = new HashMap<>();
      long total = 0;
      for (int op = 0; op < 5_000; op++) {
        long v = colliding ? (long) rnd.nextInt(domain) << 16 : rnd.nextInt(domain);
        long delta = rnd.nextInt(5) - 2;
        long expected = model.getOrDefault(v, 0L) + delta;
        if (expected == 0) {
          model.remove(v);
        } else {
          model.put(v, expected);
        }
        total += delta;
        assertThat(bag.add(v, delta)).as("run %d op %d", run, op).isEqualTo(expected);
        assertThat(bag.total()).isEqualTo(total);
        assertThat(bag.size()).isEqualTo(model.size());
      }
      Map<Long, Long> contents = new HashMap<>();
      for (int i = 0; i < bag.size(); i++) {
        contents.put(bag.value(i), bag.weight(i));
      }
      assertThat(contents).isEqualTo(model);
      for (long v = 0; v < domain; v++) {
        long key = colliding ? v << 16 : v;
        assertThat(bag.weightOf(key)).isEqualTo(model.getOrDefault(key, 0L));
      }
    }
  }
}
