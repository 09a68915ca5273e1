package dev.rivulet.engine.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link KeyIndex#addAll(LongBatch)} when it does not pack (the index already holds keys, or a
 * noted delta is not positive) takes the bulk build and leaves the same index, with the same
 * returned entry, as {@link KeyIndex#addAll(Object[], Object[], long[], int)} of the same entries
 * with their keys boxed.
 */
class KeyIndexLongBatchTest {
  @Test
  void theUnpackedBranchAgreesWithTheBoxedBulkAdd() {
    for (long seed = 1; seed <= 24; seed++) {
      Random rnd = new Random(seed);
      KeyIndex<String> boxed = new KeyIndex<>(true);
      KeyIndex<String> noted = new KeyIndex<>(true);
      long[] pool = new long[300];
      for (int i = 0; i < pool.length; i++) {
        pool[i] = i < 4 ? new long[] {0, -1, Long.MIN_VALUE, Long.MAX_VALUE}[i] : rnd.nextLong() >> rnd.nextInt(60);
      }
      boolean prefix = seed % 2 == 0; // else the batch has retractions, on an empty index
      if (prefix) {
        for (int i = 0; i < 50; i++) {
          long k = pool[rnd.nextInt(pool.length)];
          String v = "p" + rnd.nextInt(5);
          boxed.add(k, v, 1);
          noted.add(k, v, 1);
        }
      }
      int n = KeyIndex.BULK_AT + rnd.nextInt(500);
      Object[] keys = new Object[n];
      String[] values = new String[n];
      long[] deltas = new long[n];
      LongBatch batch = new LongBatch(n);
      for (int i = 0; i < n; i++) {
        keys[i] = pool[rnd.nextInt(pool.length)];
        values[i] = "v" + rnd.nextInt(8);
        deltas[i] = prefix ? 1 + rnd.nextInt(2) : rnd.nextInt(5) - 1;
        batch.add(keys[i], values[i], deltas[i]);
      }
      int loads = noted.bulkLoads();
      int packs = noted.packs();
      int fromBoxed = boxed.addAll(keys, values, deltas, n);
      int fromNoted = noted.addAll(batch);
      assertThat(noted.bulkLoads()).as("seed %d: the bulk build ran", seed).isEqualTo(loads + 1);
      assertThat(noted.packs()).as("seed %d: not packed", seed).isEqualTo(packs);
      assertThat(fromNoted).as("seed %d: least negative entry", seed).isEqualTo(fromBoxed);
      for (long k : pool) {
        assertThat(weights(noted.get(k))).as("seed %d key %d", seed, k).isEqualTo(weights(boxed.get(k)));
      }
    }
  }

  private static Map<String, Long> weights(Bag<String> bag) {
    Map<String, Long> out = new HashMap<>();
    for (int i = 0; bag != null && i < bag.size(); i++) {
      out.merge(bag.value(i), bag.weight(i), Long::sum);
    }
    out.values().removeIf(w -> w == 0);
    return out;
  }
}
