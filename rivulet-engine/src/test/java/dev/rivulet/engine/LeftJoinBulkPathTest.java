package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.state.KeyIndex;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * The left join's hydration paths: a hydration-sized batch of left rows under integer keys goes
 * into the left index packed from the keys noted while matching ({@code LongBatch}), and in left
 * rows mode each left row is matched by its key's passing right weight, with no right bag made,
 * and its output entry is written over the batch itself, which is handed on whole.
 * Both are checked against the general path (the joined rows projected onto the left columns) at
 * every step of later changes: retractions, left keys turning NULL and back, right rows added,
 * removed, switched and doubled.
 */
class LeftJoinBulkPathTest {
  private static final Schema L = Schema.parse("id INT NOT NULL, k INT");
  private static final Schema R = Schema.parse("k INT NOT NULL, on BOOL");
  private static final int[] LEFT_COLUMNS = {0, 1};
  private static final Predicate<Row> ON = r -> r.get(0) == null || Boolean.TRUE.equals(r.get(1));

  private record Wired(Graph graph, JoinOperator fast, JoinOperator general) {}

  private static Wired wire(Schema l, Schema r, Predicate<Row> onRight) {
    GraphBuilder b = Graph.builder();
    Stream left = b.input("l", l);
    Stream right = b.input("r", r);
    Stream fast = left.leftJoinLeftRows(right, List.of("k"), List.of("k"), onRight);
    Stream joined = onRight == null ? left.join(right, JoinType.LEFT, List.of("k"), List.of("k"))
        : left.leftJoinWhere(right, List.of("k"), List.of("k"), onRight);
    b.output("fast", fast);
    b.output("general", joined.map(l, row -> row.project(LEFT_COLUMNS)));
    return new Wired(b.build(), (JoinOperator) fast.op, (JoinOperator) joined.op);
  }

  @Test
  void aHydrationPacksTheNotedKeysAndLaterChangesAgree() {
    List<Predicate<Row>> predicates = java.util.Arrays.asList(ON, r -> Boolean.FALSE.equals(r.get(1)), null);
    for (int p = 0; p < predicates.size(); p++) {
      for (long seed = 1; seed <= 6; seed++) {
        Random rnd = new Random(seed);
        Wired w = wire(L, R, predicates.get(p));
        Graph g = w.graph();
        Map<Long, Row> left = new HashMap<>();
        Map<Long, Row> right = new HashMap<>();
        for (long k = 0; k < 5000; k++) { // at least BULK_AT right rows, packed; keys from 5000 have none
          LeftJoinLeftRowsTest.upsert(g, "r", right, k, Row.of(k, rnd.nextInt(4) == 0 ? null : rnd.nextBoolean()));
        }
        g.input("r").send(Row.of(3L, true), 1); // a second right row of key 3: its left rows twice
        int keyed = 0;
        for (long id = 0; id < 6000; id++) { // at least KeyIndex.BULK_AT: the bulk path
          Row row = Row.of(id, rnd.nextInt(5) < 3 ? null : (long) rnd.nextInt(5010));
          keyed += row.get(1) == null ? 0 : 1;
          LeftJoinLeftRowsTest.upsert(g, "l", left, id, row);
        }
        g.run();
        assertThat(g.output("fast").delta().toMap()).as("predicate %d seed %d hydration", p, seed)
            .isEqualTo(g.output("general").delta().toMap());
        KeyIndex<Row> fastLeft = w.fast().index(true);
        assertThat(fastLeft.packs()).as("seed %d", seed).isEqualTo(1);
        assertThat(fastLeft.packed()).as("seed %d: the non-null keys only", seed).isEqualTo(keyed);
        assertThat(w.general().index(true).packs()).isEqualTo(1);
        assertThat(w.fast().index(false).packs()).isEqualTo(1);
        assertThat(w.fast().inPlaceHydrations()).as("the left rows' output written over their input").isEqualTo(1);
        assertThat(w.general().inPlaceHydrations()).isZero();
        // the left rows were matched by weight: no right bag was made (the general join made its own)
        assertThat(w.fast().index(false).opened()).as("seed %d", seed).isZero();
        assertThat(w.general().index(false).opened()).as("seed %d", seed).isPositive();

        for (int step = 0; step < 60; step++) {
          for (int c = 1 + rnd.nextInt(4); c > 0; c--) {
            int what = rnd.nextInt(6);
            if (what < 3) { // a left row's key: NULL, another key, or back
              long id = rnd.nextInt(40);
              Row old = left.get(id);
              Long k = old != null && old.get(1) == null || rnd.nextBoolean() ? Long.valueOf(key(rnd)) : null;
              LeftJoinLeftRowsTest.upsert(g, "l", left, id, rnd.nextInt(8) == 0 ? null : Row.of(id, k));
            } else if (what == 3) {
              long k = key(rnd);
              LeftJoinLeftRowsTest.upsert(g, "r", right, k, rnd.nextInt(3) == 0 ? null : Row.of(k, rnd.nextBoolean()));
            } else if (what == 4) { // a second right row of a key, or its removal
              long k = rnd.nextInt(15);
              LeftJoinLeftRowsTest.upsert(g, "r", right, 100 + k, rnd.nextBoolean() ? null : Row.of(k, rnd.nextBoolean()));
            } else { // a right row switched in one run
              long k = rnd.nextInt(15);
              LeftJoinLeftRowsTest.upsert(g, "r", right, k, Row.of(k, rnd.nextInt(4) == 0 ? null : rnd.nextBoolean()));
            }
          }
          g.run();
          assertThat(g.output("fast").delta().toMap()).as("predicate %d seed %d step %d", p, seed, step)
              .isEqualTo(g.output("general").delta().toMap());
        }
      }
    }
  }

  /** A key with right rows mostly, or one (from 5000) that had none at the hydration. */
  private static long key(Random rnd) {
    return rnd.nextInt(4) == 0 ? 5000 + rnd.nextInt(10) : rnd.nextInt(15);
  }

  private record Single(Graph graph, JoinOperator join) {}

  /** One join alone on its inputs (so that a batch sent whole reaches it with its unit weights), its rows at "out". */
  private static Single single(boolean fast) {
    GraphBuilder b = Graph.builder();
    Stream left = b.input("l", L);
    Stream right = b.input("r", R);
    Stream joined = fast ? left.leftJoinLeftRows(right, List.of("k"), List.of("k"), ON)
        : left.leftJoinWhere(right, List.of("k"), List.of("k"), ON);
    b.output("out", fast ? joined : joined.map(L, row -> row.project(LEFT_COLUMNS)));
    return new Single(b.build(), (JoinOperator) joined.op);
  }

  /**
   * A hydration sent whole ({@code Input.sendAll}: unit weights, as the query layer sends one) is
   * read as it is: while every output entry weighs one its output keeps unit weights; a key with
   * two passing right rows makes its rows weigh two, and from the first of them the weights are
   * materialized. Right keys in a dense range are looked up in a table (left keys below and above
   * it have no right rows); a sparse one (1000000) leaves the table out. All agree with the general
   * join, at the hydration and after later changes.
   */
  @Test
  void aHydrationOfUnitWeightsIsReadAsItIs() {
    for (int variant = 0; variant < 3; variant++) {
      boolean doubled = variant == 1;
      boolean sparse = variant == 2;
      for (long seed = 1; seed <= 4; seed++) {
        Random rnd = new Random(seed);
        Single fast = single(true);
        Single general = single(false);
        for (long k = 0; k < 300; k++) {
          Row r = Row.of(k, k == 7 ? Boolean.TRUE : rnd.nextInt(4) == 0 ? null : rnd.nextBoolean());
          fast.graph().input("r").send(r, 1);
          general.graph().input("r").send(r, 1);
        }
        if (doubled || sparse) { // key 7's left rows weigh two, or a key far from the others
          Row extra = sparse ? Row.of(1_000_000L, true) : Row.of(7L, true);
          fast.graph().input("r").send(extra, 1);
          general.graph().input("r").send(extra, 1);
        }
        int n = 6000;
        Row[] rows = new Row[n];
        long[] outside = {-5, 300, 1_000_000, Long.MIN_VALUE, Long.MAX_VALUE};
        for (int id = 0; id < n; id++) { // rows 1500 and 5500 alone under key 7; 60% NULL keys
          long k = id % 97 == 0 ? outside[id % outside.length] : rnd.nextInt(299);
          rows[id] = id % 4000 == 1500 ? Row.of((long) id, 7L)
              : Row.of((long) id, rnd.nextInt(5) < 3 ? null : k == 7 ? 299L : k);
        }
        general.graph().input("l").sendAll(rows.clone(), n, L);
        fast.graph().input("l").sendAll(rows.clone(), n, L); // the array becomes the input's, then the join's output
        fast.graph().run();
        general.graph().run();
        String at = "variant " + variant + " seed " + seed;
        assertThat(fast.graph().output("out").delta().toMap()).as(at)
            .isEqualTo(general.graph().output("out").delta().toMap());
        assertThat(fast.join().inPlaceHydrations()).as(at).isEqualTo(1);
        LeftRowsHydration h = fast.join().leftRowsHydration();
        assertThat(h.unitRuns).as(at + ": the output kept unit weights").isEqualTo(doubled ? 0 : 1);
        assertThat(h.tables).as(at + ": keys looked up in a table").isEqualTo(sparse ? 0 : 1);
        assertThat(fast.join().index(true).packs()).as(at).isEqualTo(1);
        for (int step = 0; step < 20; step++) { // later changes on both sides agree
          Row before = rows[rnd.nextInt(n)];
          Row after = Row.of(before.get(0), rnd.nextBoolean() ? null : (long) rnd.nextInt(300));
          long k = rnd.nextInt(300);
          Row right = Row.of(k, true);
          for (Single s : List.of(fast, general)) {
            s.graph().input("l").send(before, -1).send(after, 1);
            s.graph().input("r").send(right, 1);
            s.graph().run();
          }
          rows[(int) (long) (Long) before.get(0)] = after;
          assertThat(fast.graph().output("out").delta().toMap()).as(at + " step " + step)
              .isEqualTo(general.graph().output("out").delta().toMap());
        }
        Row[] more = new Row[100]; // a small batch sent whole: unit weights the join materializes (matched row by row)
        for (int i = 0; i < more.length; i++) {
          more[i] = Row.of((long) (n + i), i % 3 == 0 ? null : (long) rnd.nextInt(300));
        }
        fast.graph().input("l").sendAll(more.clone(), more.length, L);
        general.graph().input("l").sendAll(more.clone(), more.length, L);
        fast.graph().run();
        general.graph().run();
        assertThat(fast.graph().output("out").delta().toMap()).as(at + ": a small whole batch")
            .isEqualTo(general.graph().output("out").delta().toMap()).isNotEmpty();
        assertThat(fast.join().inPlaceHydrations()).as(at).isEqualTo(1);
      }
    }
  }

  /** Weights above 1 in the hydration: the packed entries keep them. */
  @Test
  void aHydrationWithRepeatedRowsAgrees() {
    Wired w = wire(L, R, ON);
    Graph g = w.graph();
    g.input("r").send(Row.of(1L, true), 1).send(Row.of(2L, false), 1);
    List<Row> rows = new ArrayList<>();
    for (long id = 0; id < 5000; id++) {
      Row row = Row.of(id, id % 4 == 0 ? null : id % 3);
      rows.add(row);
      g.input("l").send(row, id % 7 == 0 ? 2 : 1);
    }
    g.run();
    assertThat(g.output("fast").delta().toMap()).isEqualTo(g.output("general").delta().toMap());
    assertThat(w.fast().index(true).packs()).isEqualTo(1);
    for (int i = 0; i < 50; i++) { // retract one of each doubled row, then switch a right key
      g.input("l").send(rows.get(i * 7), -1);
    }
    g.input("r").send(Row.of(2L, false), -1).send(Row.of(2L, true), 1);
    g.run();
    assertThat(g.output("fast").delta().toMap()).isEqualTo(g.output("general").delta().toMap());
  }

  /** A key that is not an integer (1.5) in the hydration: the batch goes in with boxed keys, still agreeing. */
  @Test
  void aHydrationWithOtherKeysAgrees() {
    Schema l = Schema.parse("id INT NOT NULL, k DOUBLE");
    Schema r = Schema.parse("k DOUBLE NOT NULL, on BOOL");
    Wired w = wire(l, r, ON);
    Graph g = w.graph();
    g.input("r").send(Row.of(1.5, true), 1).send(Row.of(2L, false), 1).send(Row.of(3L, true), 1);
    Map<Long, Row> left = new HashMap<>();
    for (long id = 0; id < 5000; id++) {
      long m = id % 5;
      LeftJoinLeftRowsTest.upsert(g, "l", left, id, Row.of(id, m == 0 ? null : m == 1 ? (Object) 1.5 : (Object) m));
    }
    g.run();
    assertThat(g.output("fast").delta().toMap()).isEqualTo(g.output("general").delta().toMap());
    assertThat(w.fast().index(true).otherKeys()).isEqualTo(1); // 1.5, added as it was met
    assertThat(w.fast().inPlaceHydrations()).isEqualTo(1);
    assertThat(w.fast().index(true).packs()).isEqualTo(1);
    LeftJoinLeftRowsTest.upsert(g, "l", left, 1L, Row.of(1L, null));
    LeftJoinLeftRowsTest.upsert(g, "l", left, 5L, Row.of(5L, 3L));
    g.input("r").send(Row.of(1.5, true), -1);
    g.run();
    assertThat(g.output("fast").delta().toMap()).isEqualTo(g.output("general").delta().toMap());
  }

  /**
   * The in-place path is taken from {@link LeftRowsHydration#AT} left rows on, far below {@link
   * KeyIndex#BULK_AT} (so that the engine's warm-up of a thousand rows runs it), and not below:
   * sizes around both bounds, each agreeing with the general join at the hydration and after a
   * batch of the same size with retractions (no longer a hydration: weights materialized).
   */
  @Test
  void theInPlacePathStartsAtItsOwnSize() {
    int[] sizes = {LeftRowsHydration.AT - 1, LeftRowsHydration.AT, 1000, KeyIndex.BULK_AT - 1, KeyIndex.BULK_AT};
    for (int n : sizes) {
      Random rnd = new Random(n);
      Single fast = single(true);
      Single general = single(false);
      for (long k = 0; k < 50; k++) {
        Row r = Row.of(k, rnd.nextInt(4) == 0 ? null : rnd.nextBoolean());
        fast.graph().input("r").send(r, 1);
        general.graph().input("r").send(r, 1);
      }
      Row[] rows = new Row[n];
      for (int id = 0; id < n; id++) { // 40% NULL keys, some keys (50..54) without right rows
        rows[id] = Row.of((long) id, id % 5 < 2 ? null : (long) rnd.nextInt(55));
      }
      general.graph().input("l").sendAll(rows.clone(), n, L);
      fast.graph().input("l").sendAll(rows.clone(), n, L);
      fast.graph().run();
      general.graph().run();
      String at = "size " + n;
      assertThat(fast.graph().output("out").delta().toMap()).as(at)
          .isEqualTo(general.graph().output("out").delta().toMap()).isNotEmpty();
      boolean inPlace = n >= LeftRowsHydration.AT;
      assertThat(fast.join().inPlaceHydrations()).as(at).isEqualTo(inPlace ? 1 : 0);
      assertThat(fast.join().index(true).packs()).as(at + ": packed on the in-place path").isEqualTo(inPlace ? 1 : 0);
      for (Single s : List.of(fast, general)) { // every row's key turned NULL or from NULL to one, in one batch
        Input in = s.graph().input("l");
        for (int id = 0; id < n; id++) {
          in.send(rows[id], -1).send(Row.of((long) id, rows[id].get(1) == null ? (Object) (long) (id % 60) : null), 1);
        }
        s.graph().run();
      }
      assertThat(fast.graph().output("out").delta().toMap()).as(at + ": a batch of 2n changes")
          .isEqualTo(general.graph().output("out").delta().toMap()).isNotEmpty();
      assertThat(fast.join().inPlaceHydrations()).as(at + ": the changes in place").isEqualTo(inPlace ? 2 : 1);
    }
  }
}
