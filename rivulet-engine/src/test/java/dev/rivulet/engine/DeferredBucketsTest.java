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
 * Deferred rows in ranges of prefixes: after the first selection, a selection that meets a large
 * range splits it, appended entries go to their range, crowded ranges are consolidated, and the
 * selections still return, batch after batch, the smallest rows of a naive multiset model, sorted
 * and consolidated, while looking at far fewer entries than the whole log. Fixed seeds, named in
 * every failure.
 */
class DeferredBucketsTest {
  /** (id, score): score descending, nulls last, then id. */
  private static final RowOrder ORDER = new RowOrder(new int[] {1, 0}, new boolean[] {true, false},
      new boolean[] {false, false}, new ColumnType[] {ColumnType.INT, ColumnType.INT});
  private static final Comparator<Row> NAIVE = Comparator.<Row, Boolean>comparing(r -> r.get(1) == null)
      .thenComparing(r -> r.get(1) == null ? 0L : -r.getLong(1))
      .thenComparingLong(r -> r.getLong(0));

  private static Row row(Random rnd, long id, int scores) {
    return Row.of(id, rnd.nextInt(12) == 0 ? null : (long) rnd.nextInt(scores));
  }

  @Test
  void splitRangesSelectTheSmallestRowsOfANaiveModel() {
    long splits = 0;
    long compactions = 0;
    for (long seed = 1; seed <= 20; seed++) {
      Random rnd = new Random(seed);
      int scores = seed % 3 == 0 ? 3 : 40; // few scores: many equal prefixes, which never split
      int n = 300 + rnd.nextInt(1500);
      Row[] rows = new Row[n];
      Map<Row, Long> model = new LinkedHashMap<>();
      long nextId = 0;
      for (int i = 0; i < n; i++) {
        rows[i] = row(rnd, nextId++, scores);
        model.put(rows[i], 1L);
      }
      DeferredBuckets d = new DeferredBuckets(new DeferredRows(rows, null, null, null, n, 2), 2, 32);
      for (int round = 0; round < 200 && d.size() > 0; round++) {
        for (int k = rnd.nextInt(16); k > 0; k--) {
          Row r;
          long w = 1;
          if (rnd.nextInt(3) == 0 && !model.isEmpty()) {
            r = new ArrayList<>(model.keySet()).get(rnd.nextInt(model.size())); // a retraction
            w = -1;
          } else {
            r = row(rnd, nextId++, scores);
          }
          d.add(r, w, ORDER.first(r), ORDER.second(r));
          if (model.merge(r, w, Long::sum) == 0) {
            model.remove(r);
          }
        }
        if (d.crowded()) {
          d.compact(ORDER, "t");
          compactions++;
          assertThat(d.crowded()).isFalse();
        }
        int want = 1 + rnd.nextInt(40);
        List<Row> sorted = new ArrayList<>(model.keySet());
        sorted.sort(NAIVE);
        List<Row> got = new ArrayList<>();
        while (got.size() < Math.min(want, sorted.size())) {
          SortedBatch b = d.takeFirst(want - got.size(), ORDER, "t");
          assertThat(d.lastScanned()).as("seed %d, round %d: entries looked at (size %d, model %d, ranges %d, got %d)", seed, round, d.size(), model.size(), d.ranges(), got.size()).isPositive();
          for (int i = 0; i < b.size; i++) {
            got.add(b.rows[i]);
            assertThat(b.counts[i]).as("seed %d, round %d: count of %s", seed, round, b.rows[i])
                .isEqualTo(model.remove(b.rows[i]));
          }
        }
        assertThat(got).as("seed %d, round %d: rows", seed, round).isEqualTo(sorted.subList(0, got.size()));
        assertThat(d.holdsPrefixes()).as("seed %d, round %d: no prefixes kept", seed, round).isFalse();
        assertThat(d.size() == 0).as("seed %d: empty exactly when the model is", seed).isEqualTo(model.isEmpty());
      }
      splits += d.splits;
    }
    assertThat(splits).as("ranges split").isGreaterThan(10);
    assertThat(compactions).as("crowded ranges consolidated").isGreaterThan(10);
  }

  @Test
  void afterTheSplitASelectionLooksAtOneRangeOnly() {
    Random rnd = new Random(7);
    int n = 20_000;
    Row[] rows = new Row[n];
    for (int i = 0; i < n; i++) {
      rows[i] = Row.of((long) i, (long) rnd.nextInt(1_000_000));
    }
    Row[] copy = Arrays.copyOf(rows, n);
    DeferredBuckets d = new DeferredBuckets(new DeferredRows(rows, null, null, null, n, 1024), 1024, 4096);
    d.takeFirst(300, ORDER, "t");
    assertThat(d.lastScanned()).as("the first selection (a hydration's) looks at all").isEqualTo(n);
    assertThat(d.ranges()).isEqualTo(1);
    d.takeFirst(500, ORDER, "t");
    assertThat(d.splits).isEqualTo(1);
    assertThat(d.ranges()).as("ranges of about 500").isGreaterThan(20);
    List<Row> taken = new ArrayList<>();
    for (int k = 0; k < 10; k++) {
      SortedBatch b = d.takeFirst(500, ORDER, "t");
      assertThat(d.lastScanned()).as("selection %d looks at one range", k).isLessThan(n / 10);
      taken.addAll(Arrays.asList(b.rows).subList(0, b.size));
    }
    Arrays.sort(copy, NAIVE);
    int skip = n - d.size() - taken.size();
    assertThat(taken).isEqualTo(Arrays.asList(copy).subList(skip, skip + taken.size()));
  }
}
