package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.state.KeyIndex;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * An inner join's hydration-sized path ({@link InnerJoinHydration}) is taken for a large batch and
 * gives, step by step, the same change as the row-by-row path ({@code bulkAt} raised past every
 * batch, in a second graph): batches of unit weights (unallocated, as a hydration's reach the join;
 * the pairs then handed on whole) and of mixed weights (retractions, doubled rows), repeated and
 * null keys, either side the larger, on an integer key (packed, read without making bags), a
 * text key and two key columns. Seeds: {@code -Drivulet.seed} replays one, {@code -Drivulet.runs}
 * multiplies the runs.
 */
class InnerJoinHydrationTest {
  private static final long BASE_SEED = Long.getLong("rivulet.seed", 0x1A4E7L);
  private static final int RUNS = 9 * Integer.getInteger("rivulet.runs", 1);
  private static final Schema S = Schema.parse("id INT NOT NULL, k INT, s STRING");
  private static final List<List<String>> KEYS = List.of(List.of("k"), List.of("s"), List.of("k", "s"));

  /**
   * The same join in two graphs fed the same changes: in {@code bulkGraph} it takes the
   * hydration-sized path, in {@code rowGraph} never ({@code bulkAt} raised). Each input has the join
   * as its only target, so a batch sent whole reaches it with its unit weights unallocated.
   */
  private record Wired(Graph bulkGraph, Graph rowGraph, JoinOperator bulk, JoinOperator rows) {
    void sendAll(String input, Row[] rows, int n) {
      rowGraph.input(input).sendAll(rows.clone(), n, S); // the array becomes the input's
      bulkGraph.input(input).sendAll(rows, n, S);
    }

    void send(String input, Row row, long weight) {
      bulkGraph.input(input).send(row, weight);
      rowGraph.input(input).send(row, weight);
    }

    void run() {
      bulkGraph.run();
      rowGraph.run();
    }

    Map<Row, Long> bulkOut() {
      return bulkGraph.output("out").delta().toMap();
    }

    Map<Row, Long> rowOut() {
      return rowGraph.output("out").delta().toMap();
    }
  }

  private static Wired wire(List<String> keys, boolean keeping) {
    Graph[] graphs = new Graph[2];
    JoinOperator[] joins = new JoinOperator[2];
    for (int i = 0; i < 2; i++) {
      GraphBuilder b = Graph.builder();
      Stream l = b.input("l", S);
      Stream r = b.input("r", S);
      Stream joined = keeping ? l.innerJoinKeeping(r, keys, keys, new int[] {2, 0}, new int[] {0, 1})
          : l.join(r, JoinType.INNER, keys, keys);
      b.output("out", joined);
      joins[i] = (JoinOperator) joined.op;
      graphs[i] = b.build();
    }
    joins[1].bulkAt = Integer.MAX_VALUE;
    return new Wired(graphs[0], graphs[1], joins[0], joins[1]);
  }

  private static Row row(Random rnd, long id, int keyRange) {
    Long k = rnd.nextInt(6) == 0 ? null : (long) rnd.nextInt(keyRange);
    int texts = keyRange / 4; // the text key follows the integer one where there is one: two-column keys meet too
    String s = rnd.nextInt(6) == 0 ? null : "s" + (k == null ? rnd.nextInt(texts) : k % texts);
    return Row.of(id, k, s);
  }

  @Test
  void largeBatchesTakeTheBulkPathAndAgreeWithTheRowPath() {
    for (int run = 0; run < RUNS; run++) {
      long seed = BASE_SEED + run;
      Random rnd = new Random(seed);
      List<String> keys = KEYS.get(run % KEYS.size());
      Wired w = wire(keys, rnd.nextBoolean());
      int keyRange = rnd.nextBoolean() ? 400 : 20_000; // chains of a few rows per key, or about one row per key
      boolean leftLarger = rnd.nextBoolean();
      int large = KeyIndex.BULK_AT + rnd.nextInt(500);
      List<Row> liveL = new ArrayList<>();
      List<Row> liveR = new ArrayList<>();
      long[] ids = {0};
      hydrate(w, "l", liveL, rnd, leftLarger ? large : large / (2 + rnd.nextInt(8)), keyRange, ids);
      hydrate(w, "r", liveR, rnd, leftLarger ? large / (2 + rnd.nextInt(8)) : large, keyRange, ids);
      w.run();
      String at = "seed " + seed + " keys " + keys;
      assertThat(w.bulk().innerBulkSteps).as(at).isEqualTo(1);
      assertThat(w.rows().innerBulkSteps).as(at).isZero();
      assertThat(w.bulkOut()).as(at + " hydration").isNotEmpty().isEqualTo(w.rowOut());
      if (keys.equals(List.of("k"))) {
        KeyIndex<Row> first = w.bulk().index(!leftLarger); // the smaller side, indexed first and probed
        assertThat(first.longKeys()).as(at + ": probed without making bags").isZero();
        assertThat(first.opened()).as(at).isZero();
        // its packed entries weigh one each, repeated rows too: the pairs keep unit weights
        assertThat(w.bulk().handOffs).as(at + ": unit-weight pairs handed on whole").isEqualTo(1);
      }
      for (int step = 0; step < 4; step++) {
        boolean big = rnd.nextInt(3) == 0; // a large batch of mixed weights, or an update-sized one
        change(w, "l", liveL, rnd, big ? KeyIndex.BULK_AT : rnd.nextInt(12), keyRange, ids);
        change(w, "r", liveR, rnd, big ? rnd.nextInt(300) : rnd.nextInt(6), keyRange, ids);
        w.run();
        assertThat(w.bulkOut()).as(at + " step " + step).isEqualTo(w.rowOut());
      }
    }
  }

  /** A first batch of {@code n} rows (some repeated whole) sent as one unit-weight batch. */
  private static void hydrate(Wired w, String input, List<Row> live, Random rnd, int n, int keyRange, long[] ids) {
    Row[] rows = new Row[n];
    for (int i = 0; i < n; i++) {
      rows[i] = i > 0 && rnd.nextInt(20) == 0 ? rows[rnd.nextInt(i)] : row(rnd, ids[0]++, keyRange);
      live.add(rows[i]);
    }
    w.sendAll(input, rows, n);
  }

  /** About {@code n} changes: retractions of live rows, insertions, some doubled. */
  private static void change(Wired w, String input, List<Row> live, Random rnd, int n, int keyRange, long[] ids) {
    for (int i = 0; i < n; i++) {
      int what = rnd.nextInt(5);
      if (what < 2 && !live.isEmpty()) {
        Row gone = live.remove(rnd.nextInt(live.size()));
        w.send(input, gone, -1);
      } else {
        Row r = row(rnd, ids[0]++, keyRange);
        long weight = what == 4 ? 2 : 1;
        for (int c = 0; c < weight; c++) {
          live.add(r);
        }
        w.send(input, r, weight);
      }
    }
  }

  @Test
  void aLargeBatchConsolidatedBelowTheBulkSizeMeetsASmallUnitWeightBatchRowByRow() {
    // Regression: the path was chosen before consolidation, so a small batch of unit weights (its
    // weights unallocated) took the row path, which reads them.
    Wired w = wire(List.of("k"), false);
    w.sendAll("l", new Row[] {Row.of(1, 5, "a"), Row.of(2, 6, "b")}, 2);
    for (int i = 0; i < KeyIndex.BULK_AT; i++) {
      w.send("r", Row.of(100 + i, i % 10, "r"), 1);
    }
    for (int i = 0; i < KeyIndex.BULK_AT; i++) {
      if (i != 5) {
        w.send("r", Row.of(100 + i, i % 10, "r"), -1);
      }
    }
    w.run();
    assertThat(w.bulk().innerBulkSteps).isZero();
    assertThat(w.bulkOut()).isEqualTo(Map.of(Row.of(1, 5, "a", 105, 5, "r"), 1L)).isEqualTo(w.rowOut());
  }

  @Test
  void aJoinWhoseBatchesAreAllSmallNeverTakesTheBulkPath() {
    Wired w = wire(List.of("k"), false);
    w.send("l", Row.of(1, 5, "a"), 1);
    w.send("r", Row.of(2, 5, "b"), 1);
    w.run();
    assertThat(w.bulk().innerBulkSteps).isZero();
    assertThat(w.bulkOut()).isEqualTo(Map.of(Row.of(1, 5, "a", 2, 5, "b"), 1L));
  }
}
