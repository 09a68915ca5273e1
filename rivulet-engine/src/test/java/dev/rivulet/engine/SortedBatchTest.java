package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * {@link SortedBatch} (a top-K's hydration: prefixes, sort, consolidation in chunks) agrees with a
 * naive sort and sum: a {@link TreeMap} in the same order summing each row's weights, zero sums
 * dropped. Batches span several chunks, with long runs of one repeated row that cross chunk
 * boundaries, NULL sort keys, retractions that net out, and one that nets below zero (refused,
 * naming the owner). Fixed seeds, named in every failure.
 */
class SortedBatchTest {
  private static final Schema S = Schema.parse("id INT NOT NULL, score INT, name STRING");

  @Test
  void agreesWithANaiveSortAndSum() {
    RowOrder order = new RowOrder(new int[] {1, 2}, new boolean[] {true, false}, new boolean[] {true, false},
        new ColumnType[] {ColumnType.INT, ColumnType.STRING});
    for (long seed = 1; seed <= 40; seed++) {
      Random rnd = new Random(seed);
      Delta d = new Delta();
      List<Row> distinct = new ArrayList<>();
      for (int k = rnd.nextInt(20) + 1; k > 0; k--) {
        distinct.add(Row.of((long) rnd.nextInt(50), rnd.nextInt(4) == 0 ? null : (long) rnd.nextInt(5),
            rnd.nextBoolean() ? null : "n" + rnd.nextInt(3)));
      }
      Map<Row, Long> naive = new TreeMap<>(order);
      for (int i = rnd.nextInt(seed < 5 ? 10 : 3 * SortedBatch.CHUNK + 40); i > 0; i--) {
        Row r = distinct.get(rnd.nextInt(rnd.nextBoolean() ? 1 : distinct.size())); // long runs of the first row
        long w = rnd.nextInt(4) == 0 ? -1 : 1;
        if (naive.getOrDefault(r, 0L) + w < 0) {
          w = 1; // keep every running sum non-negative: the batch is a valid first content
        }
        d.add(r, w);
        naive.merge(r, w, Long::sum);
      }
      naive.values().removeIf(w -> w == 0);
      SortedBatch b = SortedBatch.of(d, order, "top-k#1");
      List<Row> rows = new ArrayList<>();
      List<Long> counts = new ArrayList<>();
      for (int i = 0; i < b.size; i++) {
        rows.add(b.rows[i]);
        counts.add(b.counts[i]);
        assertThat(b.p0[i]).as("seed %d", seed).isEqualTo(order.first(b.rows[i]));
        assertThat(b.p1[i]).as("seed %d", seed).isEqualTo(order.second(b.rows[i]));
      }
      assertThat(rows).as("seed %d", seed).containsExactlyElementsOf(naive.keySet());
      assertThat(counts).as("seed %d", seed).containsExactlyElementsOf(naive.values());
    }
  }

  @Test
  void aRowThatNetsBelowZeroIsRefused() {
    RowOrder order = new RowOrder(new int[] {1}, new boolean[] {false}, new boolean[] {false},
        new ColumnType[] {ColumnType.INT});
    Delta d = new Delta();
    for (int i = 0; i < 2 * SortedBatch.CHUNK; i++) {
      d.add(Row.of((long) i, 1L, "x"), 1);
    }
    d.add(Row.of(7L, 1L, "x"), -2);
    assertThatThrownBy(() -> SortedBatch.of(d, order, "top-k#1")).isInstanceOf(InvariantViolation.class)
        .hasMessageContaining("top-k#1").hasMessageContaining("would become -1");
  }
}
