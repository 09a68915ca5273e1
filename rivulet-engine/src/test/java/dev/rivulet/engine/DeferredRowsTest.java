package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The deferred rows log keeps neither a weights array while every entry weighs one (also when the
 * weights came as an explicit array of ones) nor its entries' prefixes between selections, and its
 * selections still return, batch after batch, the smallest rows of a naive multiset model, sorted
 * and consolidated. Fixed seeds, named in every failure.
 */
class DeferredRowsTest {
  /** (id, score): score descending, nulls last, then id. */
  private static final RowOrder ORDER = new RowOrder(new int[] {1, 0}, new boolean[] {true, false},
      new boolean[] {false, false}, new ColumnType[] {ColumnType.INT, ColumnType.INT});
  private static final Comparator<Row> NAIVE = Comparator.<Row, Boolean>comparing(r -> r.get(1) == null)
      .thenComparing(r -> r.get(1) == null ? 0L : -r.getLong(1))
      .thenComparingLong(r -> r.getLong(0));

  private static Row row(Random rnd, long id) {
    return Row.of(id, rnd.nextInt(8) == 0 ? null : (long) rnd.nextInt(20));
  }

  @Test
  void explicitUnitWeightsAreDroppedAndSelectionsMatchANaiveModel() {
    for (long seed = 1; seed <= 30; seed++) {
      Random rnd = new Random(seed);
      boolean heavy = seed % 3 == 0; // some later entries weigh two
      int n = 40 + rnd.nextInt(300);
      Row[] rows = new Row[n];
      long[] weights = new long[n];
      Map<Row, Long> model = new LinkedHashMap<>();
      long nextId = 0;
      for (int i = 0; i < n; i++) {
        rows[i] = row(rnd, nextId++);
        weights[i] = 1;
        model.put(rows[i], 1L);
      }
      long[] p0 = new long[n];
      long[] p1 = new long[n];
      ORDER.prefixes(rows, n, p0, p1);
      DeferredRows d = new DeferredRows(rows, weights, p0, p1, n, 8);
      assertThat(d.holdsWeights()).as("seed %d: explicit ones dropped", seed).isFalse();
      assertThat(d.holdsPrefixes()).as("seed %d: the given prefixes held for the first use", seed).isTrue();
      boolean weighed = false;
      for (int round = 0; round < 60 && d.size() > 0; round++) {
        for (int k = rnd.nextInt(6); k > 0; k--) {
          Row r = row(rnd, nextId++);
          long w = heavy && rnd.nextInt(4) == 0 ? 2 : 1;
          weighed |= w != 1;
          d.add(r, w);
          model.merge(r, w, Long::sum);
          assertThat(d.holdsWeights()).as("seed %d: weights only once one is not one", seed).isEqualTo(weighed);
        }
        if (d.crowded()) {
          d.compact(ORDER, "t");
          assertThat(d.holdsPrefixes()).as("seed %d, round %d: prefixes dropped after compact", seed, round).isFalse();
          weighed = model.values().stream().anyMatch(c -> c != 1);
          assertThat(d.holdsWeights()).as("seed %d, round %d: weights after compact", seed, round).isEqualTo(weighed);
        }
        int want = 1 + rnd.nextInt(30);
        SortedBatch b = d.takeFirst(want, ORDER, "t");
        assertThat(d.holdsPrefixes()).as("seed %d, round %d: prefixes dropped after a take", seed, round).isFalse();
        List<Row> sorted = new ArrayList<>(model.keySet());
        sorted.sort(NAIVE);
        assertThat(b.size).as("seed %d, round %d: distinct rows taken (ties on prefixes never split)", seed, round)
            .isGreaterThanOrEqualTo(Math.min(sorted.size(), want));
        assertThat(Arrays.asList(b.rows).subList(0, b.size)).as("seed %d, round %d: rows", seed, round)
            .isEqualTo(sorted.subList(0, b.size));
        for (int i = 0; i < b.size; i++) {
          assertThat(b.counts[i]).as("seed %d, round %d: count of %s", seed, round, b.rows[i])
              .isEqualTo(model.remove(b.rows[i]));
        }
      }
      assertThat(d.size() == 0).as("seed %d: log empty exactly when the model is", seed).isEqualTo(model.isEmpty());
    }
  }
}
