package dev.rivulet.engine.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A packed side changed for a long time (each change appends an entry and retracts one, as a
 * join's updates do to a side no one looked up) keeps its room within three times the most entries
 * it held live, and its keys read without making bags ({@link KeyIndex#packedFirst}) hold what an eager
 * index given the same changes holds, through every compaction; on dense and
 * on hashed keys. Seeds: {@code -Drivulet.seed} replays one, {@code -Drivulet.runs} multiplies the runs.
 */
class PackedCompactionTest {
  private static final long BASE_SEED = Long.getLong("rivulet.seed", 0xC0A1L);
  private static final int RUNS = 6 * Integer.getInteger("rivulet.runs", 1);

  @Test
  void longChangedPackedKeysStayBoundedAndAgreeWithAnEagerIndex() {
    for (int run = 0; run < RUNS; run++) {
      long seed = BASE_SEED + run;
      Random rnd = new Random(seed);
      boolean dense = run % 2 == 0;
      List<Long> keys = new ArrayList<>();
      for (int i = 0; i < 30; i++) {
        keys.add(dense ? 1000L + i : rnd.nextLong());
      }
      KeyIndex<String> lazy = new KeyIndex<>(true);
      KeyIndex<String> eager = new KeyIndex<>();
      Map<Long, Map<String, Long>> model = new HashMap<>();
      int n = 300;
      Object[] ks = new Object[n];
      String[] vs = new String[n];
      for (int i = 0; i < n; i++) {
        ks[i] = keys.get(rnd.nextInt(keys.size()));
        vs[i] = "v" + i;
        model.computeIfAbsent((Long) ks[i], k -> new LinkedHashMap<>()).merge(vs[i], 1L, Long::sum);
      }
      assertThat(lazy.addAll(ks, vs, null, n)).isEqualTo(-1);
      eager.addAll(ks, vs, null, n);
      assertThat(lazy.packs()).isEqualTo(1);
      long mostLive = lazy.packed();
      for (int step = 0; step < 20_000; step++) {
        Long k = keys.get(rnd.nextInt(keys.size()));
        Map<String, Long> held = model.get(k);
        if (held != null && held.size() > 2 && rnd.nextBoolean()) { // a key never drains: it stays packed
          List<String> values = new ArrayList<>(held.keySet());
          String gone = values.get(rnd.nextInt(values.size()));
          String copy = new String(gone); // an equal value, not the stored object
          assertThat(lazy.add(k, copy, -1)).as("seed %d step %d", seed, step).isNotNegative();
          eager.add(k, copy, -1);
          held.merge(gone, -1L, Long::sum);
          held.remove(gone, 0L);
        } else {
          String v = "w" + step;
          lazy.add(k, v, 1);
          eager.add(k, v, 1);
          model.computeIfAbsent(k, x -> new LinkedHashMap<>()).merge(v, 1L, Long::sum);
        }
        mostLive = Math.max(mostLive, lazy.packed());
        if (step % 500 == 0) {
          assertThat(packedContents(lazy, k)).as("seed %d step %d key %d", seed, step, k).isEqualTo(bagContents(eager, k));
        }
      }
      assertThat(lazy.longKeys()).as("seed %d: no bag made", seed).isZero();
      assertThat(lazy.packedCapacity()).as("seed %d: room of at most %d live entries", seed, mostLive)
          .isLessThanOrEqualTo((int) (3 * mostLive + 16)); // grown only while more than half were live
      for (Long k : keys) {
        assertThat(packedContents(lazy, k)).as("seed %d key %d", seed, k).isEqualTo(bagContents(eager, k));
        assertThat(bagContents(lazy, k)).as("seed %d key %d opened", seed, k).isEqualTo(bagContents(eager, k));
      }
    }
  }

  /** A key's values and weights read without making its bag. */
  private static Map<String, Long> packedContents(KeyIndex<String> index, Long key) {
    Map<String, Long> out = new HashMap<>();
    for (int e = index.packedFirst(key); e >= 0; e = index.packedNext(e)) {
      out.merge(index.packedValue(e), index.packedWeight(e), Long::sum);
    }
    Bag<String> b = index.bagOf(key);
    for (int i = 0; b != null && i < b.size(); i++) {
      out.merge(b.value(i), b.weight(i), Long::sum);
    }
    return out;
  }

  /** A key's values and weights through {@link KeyIndex#get} (which makes its bag). */
  private static Map<String, Long> bagContents(KeyIndex<String> index, Long key) {
    Map<String, Long> out = new HashMap<>();
    Bag<String> b = index.get(key);
    for (int i = 0; b != null && i < b.size(); i++) {
      out.merge(b.value(i), b.weight(i), Long::sum);
    }
    return out;
  }
}
