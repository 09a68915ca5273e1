package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Paths a coverage run found no engine test reaching, each shown taken and agreeing with a naive
 * recomputation or the general path: a left join's hydration on two key columns (keys read into
 * a buffer, indexed in bulk), a left-rows hydration of unit weights under text keys (no table,
 * every key added as met), and a top-K whose deferred rows are all retracted in one run.
 */
class FastPathReachTest {
  private static final Schema L2 = Schema.parse("id INT NOT NULL, a INT, b STRING");
  private static final Schema R2 = Schema.parse("a INT NOT NULL, b STRING NOT NULL, v INT");

  /** A left join on (a, b): each left row with every right row of its key, or alone, by nested loops. */
  private static Map<Row, Long> naiveLeftJoin(Map<Long, Row> left, List<Row> right) {
    Map<Row, Long> out = new HashMap<>();
    for (Row l : left.values()) {
      boolean matched = false;
      for (Row r : right) {
        if (l.get(1) != null && l.get(2) != null && l.get(1).equals(r.get(0)) && l.get(2).equals(r.get(1))) {
          out.merge(Row.of(l.get(0), l.get(1), l.get(2), r.get(0), r.get(1), r.get(2)), 1L, Long::sum);
          matched = true;
        }
      }
      if (!matched) {
        out.merge(Row.of(l.get(0), l.get(1), l.get(2), null, null, null), 1L, Long::sum);
      }
    }
    return out;
  }

  @Test
  void aLeftJoinOnTwoColumnsHydratesInBulkAndAgreesWithNestedLoops() {
    for (long seed = 1; seed <= 3; seed++) {
      Random rnd = new Random(seed);
      GraphBuilder b = Graph.builder();
      Stream joined = b.input("l", L2).join(b.input("r", R2), JoinType.LEFT, List.of("a", "b"), List.of("a", "b"));
      b.output("out", joined);
      Graph g = b.build();
      JoinOperator join = (JoinOperator) joined.op;
      List<Row> right = new ArrayList<>();
      for (int i = 0; i < 300; i++) {
        Row r = Row.of((long) rnd.nextInt(40), "s" + rnd.nextInt(4), (long) i);
        right.add(r);
        g.input("r").send(r, 1);
      }
      Map<Long, Row> left = new HashMap<>();
      for (long id = 0; id < 6000; id++) { // at least KeyIndex.BULK_AT: the bulk path
        Row row = Row.of(id, rnd.nextInt(5) == 0 ? null : (long) rnd.nextInt(45), "s" + rnd.nextInt(5));
        left.put(id, row);
        g.input("l").send(row, 1);
      }
      Map<Row, Long> seen = new HashMap<>();
      g.run();
      g.output("out").delta().toMap().forEach((row, w) -> seen.merge(row, w, Long::sum));
      assertThat(join.keyKind()).isEqualTo("row");
      assertThat(join.index(true).packs()).as("seed %d: the left rows went in as one batch", seed).isEqualTo(1);
      assertThat(seen).as("seed %d hydration", seed).isEqualTo(naiveLeftJoin(left, right));
      for (int step = 0; step < 30; step++) { // later changes, row by row, onto the bulk-built index
        long id = rnd.nextInt(6000);
        g.input("l").send(left.get(id), -1);
        Row next = Row.of(id, (long) rnd.nextInt(45), "s" + rnd.nextInt(5));
        g.input("l").send(next, 1);
        left.put(id, next);
        if (rnd.nextBoolean()) {
          Row gone = right.remove(rnd.nextInt(right.size()));
          g.input("r").send(gone, -1);
        }
        g.run();
        g.output("out").delta().toMap().forEach((row, w) -> seen.merge(row, w, Long::sum));
        seen.values().removeIf(w -> w == 0);
        assertThat(seen).as("seed %d step %d", seed, step).isEqualTo(naiveLeftJoin(left, right));
      }
    }
  }

  @Test
  void aLeftRowsHydrationOfUnitWeightsUnderTextKeysAddsEachKeyAsMet() {
    Schema l = Schema.parse("id INT NOT NULL, k STRING");
    Schema r = Schema.parse("k STRING NOT NULL, on BOOL");
    Predicate<Row> on = row -> row.get(0) == null || Boolean.TRUE.equals(row.get(1));
    Graph[] graphs = new Graph[2];
    JoinOperator fast = null;
    for (int i = 0; i < 2; i++) {
      GraphBuilder b = Graph.builder();
      Stream left = b.input("l", l);
      Stream right = b.input("r", r);
      Stream joined = i == 0 ? left.leftJoinLeftRows(right, List.of("k"), List.of("k"), on)
          : left.leftJoinWhere(right, List.of("k"), List.of("k"), on);
      b.output("out", i == 0 ? joined : joined.map(l, row -> row.project(new int[] {0, 1})));
      graphs[i] = b.build();
      fast = i == 0 ? (JoinOperator) joined.op : fast;
    }
    Random rnd = new Random(7);
    for (int k = 0; k < 50; k++) {
      Row row = Row.of("k" + k, k % 3 != 0);
      for (Graph g : graphs) {
        g.input("r").send(row, 1);
      }
    }
    int n = 2000; // at least LeftRowsHydration.AT
    Row[] rows = new Row[n];
    for (int id = 0; id < n; id++) {
      rows[id] = Row.of((long) id, rnd.nextInt(3) == 0 ? null : "k" + rnd.nextInt(60)); // k50..k59: no right rows
    }
    for (Graph g : graphs) {
      g.input("l").sendAll(rows.clone(), n, l); // unit weights, as a query layer hydration sends
      g.run();
    }
    assertThat(graphs[0].output("out").delta().toMap()).isEqualTo(graphs[1].output("out").delta().toMap());
    LeftRowsHydration h = fast.leftRowsHydration();
    assertThat(fast.inPlaceHydrations()).isEqualTo(1);
    assertThat(h.unitRuns).as("the unit pass ran to the end").isEqualTo(1);
    assertThat(h.tables).as("text keys: no table").isZero();
    assertThat(fast.index(true).otherKeys()).as("every text key went in as met").isEqualTo(60);
    for (int step = 0; step < 20; step++) { // later changes agree
      int id = rnd.nextInt(n);
      Row next = Row.of((long) id, "k" + rnd.nextInt(60));
      Row flip = Row.of("k" + rnd.nextInt(50), rnd.nextBoolean());
      for (Graph g : graphs) {
        g.input("l").send(rows[id], -1).send(next, 1);
        g.input("r").send(flip, 1);
        g.run();
      }
      rows[id] = next;
      assertThat(graphs[0].output("out").delta().toMap()).as("step %d", step)
          .isEqualTo(graphs[1].output("out").delta().toMap());
    }
  }

  @Test
  void retractingEveryRowInOneRunEmptiesTheDeferredRows() {
    Schema s = Schema.parse("id INT NOT NULL, p INT");
    List<SortKey> order = List.of(SortKey.desc("p"), SortKey.asc("id"));
    GraphBuilder b = Graph.builder();
    Stream top = b.input("in", s).topK(order, 0, 10);
    b.output("top", top);
    Graph g = b.build();
    TopKOperator op = (TopKOperator) top.op;
    List<Row> rows = new ArrayList<>();
    for (long id = 0; id < 5000; id++) {
      Row row = Row.of(id, id * 7919 % 1000);
      rows.add(row);
      g.input("in").send(row, 1);
    }
    g.run();
    List<Row> window = new ArrayList<>();
    g.output("top").delta().spliceInto(window);
    assertThat(op.deferredHydrations).as("the hydration deferred most rows").isEqualTo(1);
    assertThat(op.deferred()).isPositive();
    for (Row row : rows) {
      g.input("in").send(row, -1);
    }
    g.input("in").send(Row.of(9000L, 5L), 1); // one row stays
    g.run();
    g.output("top").delta().spliceInto(window);
    assertThat(op.deferred()).as("the deferred rows cancelled out and were let go").isZero();
    assertThat(op.deferredRows()).isNull();
    assertThat(window).containsExactly(Row.of(9000L, 5L));
    g.input("in").send(Row.of(9001L, 6L), 1).send(Row.of(9002L, 4L), 1);
    g.run();
    g.output("top").delta().spliceInto(window);
    assertThat(window).containsExactly(Row.of(9001L, 6L), Row.of(9000L, 5L), Row.of(9002L, 4L));
  }
}
