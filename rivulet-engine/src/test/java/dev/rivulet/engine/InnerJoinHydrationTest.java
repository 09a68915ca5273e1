package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.state.KeyIndex;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * An inner join's hydration-sized path ({@link InnerJoinHydration}) is taken for a large batch and
 * gives, step by step, the same change as the row-by-row path ({@code bulkAt} raised past every
 * batch): batches of unit weights and of mixed weights (retractions, doubled rows), repeated and
 * null keys, either side the larger, on an integer key (packed, read without making bags), a
 * text key and two key columns. Seeds: {@code -Drivulet.seed} replays one, {@code -Drivulet.runs}
 * multiplies the runs.
 */
class InnerJoinHydrationTest {
  private static final long BASE_SEED = Long.getLong("rivulet.seed", 0x1A4E7L);
  private static final int RUNS = 9 * Integer.getInteger("rivulet.runs", 1);
  private static final Schema S = Schema.parse("id INT NOT NULL, k INT, s STRING");
  private static final List<List<String>> KEYS = List.of(List.of("k"), List.of("s"), List.of("k", "s"));

  private record Wired(Graph graph, JoinOperator bulk, JoinOperator rows) {}

  private static Wired wire(List<String> keys, boolean keeping) {
    GraphBuilder b = Graph.builder();
    Stream l = b.input("l", S);
    Stream r = b.input("r", S);
    Stream bulk = keeping ? l.innerJoinKeeping(r, keys, keys, new int[] {2, 0}, new int[] {0, 1})
        : l.join(r, JoinType.INNER, keys, keys);
    Stream rows = keeping ? l.innerJoinKeeping(r, keys, keys, new int[] {2, 0}, new int[] {0, 1})
        : l.join(r, JoinType.INNER, keys, keys);
    b.output("bulk", bulk);
    b.output("rows", rows);
    JoinOperator slow = (JoinOperator) rows.op;
    slow.bulkAt = Integer.MAX_VALUE;
    return new Wired(b.build(), (JoinOperator) bulk.op, slow);
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
      Graph g = w.graph();
      int keyRange = rnd.nextBoolean() ? 400 : 20_000; // chains of a few rows per key, or about one row per key
      boolean leftLarger = rnd.nextBoolean();
      int large = KeyIndex.BULK_AT + rnd.nextInt(500);
      List<Row> liveL = new ArrayList<>();
      List<Row> liveR = new ArrayList<>();
      long[] ids = {0};
      hydrate(g, "l", liveL, rnd, leftLarger ? large : large / (2 + rnd.nextInt(8)), keyRange, ids);
      hydrate(g, "r", liveR, rnd, leftLarger ? large / (2 + rnd.nextInt(8)) : large, keyRange, ids);
      g.run();
      String at = "seed " + seed + " keys " + keys;
      assertThat(w.bulk().innerBulkSteps).as(at).isEqualTo(1);
      assertThat(w.rows().innerBulkSteps).as(at).isZero();
      assertThat(g.output("bulk").delta().toMap()).as(at + " hydration").isNotEmpty()
          .isEqualTo(g.output("rows").delta().toMap());
      if (keys.equals(List.of("k"))) {
        KeyIndex<Row> first = w.bulk().index(!leftLarger); // the smaller side, indexed first and probed
        assertThat(first.longKeys()).as(at + ": probed without making bags").isZero();
        assertThat(first.opened()).as(at).isZero();
      }
      for (int step = 0; step < 4; step++) {
        boolean big = rnd.nextInt(3) == 0; // a large batch of mixed weights, or an update-sized one
        change(g, "l", liveL, rnd, big ? KeyIndex.BULK_AT : rnd.nextInt(12), keyRange, ids);
        change(g, "r", liveR, rnd, big ? rnd.nextInt(300) : rnd.nextInt(6), keyRange, ids);
        g.run();
        assertThat(g.output("bulk").delta().toMap()).as(at + " step " + step)
            .isEqualTo(g.output("rows").delta().toMap());
      }
    }
  }

  /** A first batch of {@code n} rows (some repeated whole) sent as one unit-weight batch. */
  private static void hydrate(Graph g, String input, List<Row> live, Random rnd, int n, int keyRange, long[] ids) {
    Row[] rows = new Row[n];
    for (int i = 0; i < n; i++) {
      rows[i] = i > 0 && rnd.nextInt(20) == 0 ? rows[rnd.nextInt(i)] : row(rnd, ids[0]++, keyRange);
      live.add(rows[i]);
    }
    g.input(input).sendAll(rows, n, S);
  }

  /** About {@code n} changes: retractions of live rows, insertions, some doubled. */
  private static void change(Graph g, String input, List<Row> live, Random rnd, int n, int keyRange, long[] ids) {
    for (int i = 0; i < n; i++) {
      int what = rnd.nextInt(5);
      if (what < 2 && !live.isEmpty()) {
        Row gone = live.remove(rnd.nextInt(live.size()));
        g.input(input).send(gone, -1);
      } else {
        Row r = row(rnd, ids[0]++, keyRange);
        long w = what == 4 ? 2 : 1;
        for (int c = 0; c < w; c++) {
          live.add(r);
        }
        g.input(input).send(r, w);
      }
    }
  }

  @Test
  void aLargeBatchConsolidatedBelowTheBulkSizeMeetsASmallUnitWeightBatchRowByRow() {
    // Regression: the path was chosen before consolidation, so a small batch of unit weights (its
    // weights unallocated, handed over by an input with no other target) took the row path, which reads them.
    GraphBuilder b = Graph.builder();
    Stream joined = b.input("l", S).join(b.input("r", S), JoinType.INNER, List.of("k"), List.of("k"));
    b.output("out", joined);
    Graph g = b.build();
    g.input("l").sendAll(new Row[] {Row.of(1, 5, "a"), Row.of(2, 6, "b")}, 2, S);
    for (int i = 0; i < KeyIndex.BULK_AT; i++) {
      g.input("r").send(Row.of(100 + i, i % 10, "r"), 1);
    }
    for (int i = 0; i < KeyIndex.BULK_AT; i++) {
      if (i != 5) {
        g.input("r").send(Row.of(100 + i, i % 10, "r"), -1);
      }
    }
    g.run();
    assertThat(((JoinOperator) joined.op).innerBulkSteps).isZero();
    assertThat(g.output("out").delta().toMap()).isEqualTo(java.util.Map.of(Row.of(1, 5, "a", 105, 5, "r"), 1L));
  }

  @Test
  void aJoinWhoseBatchesAreAllSmallNeverTakesTheBulkPath() {
    Wired w = wire(List.of("k"), false);
    Graph g = w.graph();
    g.input("l").send(Row.of(1, 5, "a"), 1);
    g.input("r").send(Row.of(2, 5, "b"), 1);
    g.run();
    assertThat(w.bulk().innerBulkSteps).isZero();
    assertThat(g.output("bulk").delta().toMap()).containsOnlyKeys(Row.of(1, 5, "a", 2, 5, "b"));
  }
}
