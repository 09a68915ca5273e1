package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A batch handed downstream without a copy ({@link Operator#handOff}: an input's queued batch, a
 * filter's kept entries compacted in place, with unit weights up to a deferring top-K) gives the
 * same outputs as the copying path, which a filter with a second target takes; a map's results,
 * written over its batch and handed on with their weights, are the rows mapped one by one; and
 * {@link Delta#takeOver} and {@link Delta#adopt} move entries only into an empty buffer, unit
 * weights with them. Fixed seeds, named in every failure.
 */
class HandOffTest {
  private static final Schema S = Schema.parse("id INT NOT NULL, grp STRING, score INT");
  private static final List<SortKey> ORDER = List.of(SortKey.desc("score"), SortKey.asc("id"));

  /** input -> filter -> top-K; with {@code tapped}, the filter also feeds a second output. */
  private static Graph graph(boolean tapped) {
    GraphBuilder b = Graph.builder();
    Stream kept = b.input("in", S).filter(r -> !"c".equals(r.get(1)));
    b.output("out", kept.topK(ORDER, 0, 5));
    if (tapped) {
      b.output("tap", kept);
    }
    return b.build();
  }

  private static Row randomRow(Random rnd) {
    return Row.of((long) rnd.nextInt(80), new String[] {"a", "b", "c"}[rnd.nextInt(3)],
        rnd.nextInt(7) == 0 ? null : (long) rnd.nextInt(30));
  }

  private static Operator op(Graph g, String kind) {
    return g.operators().stream().filter(o -> o.kind.equals(kind)).findFirst().orElseThrow();
  }

  @Test
  void handedOffBatchesGiveTheCopyingPathsOutputs() {
    for (long seed = 1; seed <= 30; seed++) {
      Random rnd = new Random(seed);
      Graph fast = graph(false);
      Graph copying = graph(true);
      int n = rnd.nextInt(seed < 4 ? 3 : 3000);
      Row[] a = new Row[n];
      Row[] b = new Row[n];
      List<Row> held = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        a[i] = randomRow(rnd);
        b[i] = a[i];
        held.add(a[i]);
      }
      fast.input("in").sendAll(a, n, S);
      copying.input("in").sendAll(b, n, S);
      fast.run();
      copying.run();
      long fed = n > 0 ? 1 : 0; // runs with queued changes
      assertSame(fast, copying, seed, "hydration");
      for (int step = 0; step < 6; step++) {
        int changes = rnd.nextInt(5);
        fed += changes > 0 ? 1 : 0;
        for (int k = changes; k > 0; k--) {
          if (!held.isEmpty() && rnd.nextBoolean()) {
            Row gone = held.remove(rnd.nextInt(held.size()));
            fast.input("in").send(gone, -1, S);
            copying.input("in").send(gone, -1, S);
          } else {
            Row r = randomRow(rnd);
            held.add(r);
            fast.input("in").send(r, 1, S);
            copying.input("in").send(r, 1, S);
          }
        }
        fast.run();
        copying.run();
        assertSame(fast, copying, seed, "change " + step);
      }
      assertThat(op(fast, "input").handOffs).as("seed %d: the input's batches were handed over", seed)
          .isEqualTo(fed);
      assertThat(op(fast, "filter").handOffs).as("seed %d: the filter's batches were handed over", seed)
          .isEqualTo(fed);
      assertThat(op(copying, "filter").handOffs).as("seed %d: a filter with two targets copies", seed).isZero();
      TopKOperator fastTop = (TopKOperator) op(fast, "top-k");
      TopKOperator copyingTop = (TopKOperator) op(copying, "top-k");
      assertThat(fastTop.unitWeightHydrations).as("seed %d: unit weights reached the top-K", seed)
          .isEqualTo(fastTop.deferredHydrations);
      assertThat(copyingTop.unitWeightHydrations).as("seed %d: the copying filter allocated weights", seed).isZero();
      if (n >= 2000) {
        assertThat(fastTop.deferredHydrations).as("seed %d: a large hydration deferred rows", seed).isEqualTo(1);
      }
    }
  }

  private static void assertSame(Graph fast, Graph copying, long seed, String when) {
    List<ZSet.Entry> f = new ArrayList<>();
    List<ZSet.Entry> c = new ArrayList<>();
    fast.output("out").delta().forEach(f::add);
    copying.output("out").delta().forEach(c::add);
    assertThat(f).as("seed %d, %s", seed, when).isEqualTo(c);
  }

  @Test
  void aMapWritesOverItsBatchAndHandsItOnWithItsWeights() {
    Schema out = Schema.parse("score INT, id INT NOT NULL");
    int[] cols = {2, 0};
    for (long seed = 1; seed <= 20; seed++) {
      Random rnd = new Random(seed);
      GraphBuilder b = Graph.builder();
      Stream mapped = b.input("in", S).map(out, r -> r.project(cols));
      b.output("all", mapped);
      Graph g = b.build();
      int n = rnd.nextInt(seed < 4 ? 3 : 3000);
      Row[] rows = new Row[n];
      java.util.Map<Row, Long> expected = new java.util.HashMap<>();
      List<Row> held = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        rows[i] = randomRow(rnd);
        held.add(rows[i]);
        expected.merge(rows[i].project(cols), 1L, Long::sum);
      }
      g.input("in").sendAll(rows, n, S);
      g.run();
      assertThat(g.output("all").delta().toMap()).as("seed %d hydration", seed).isEqualTo(expected);
      long fed = n > 0 ? 1 : 0;
      for (int step = 0; step < 4; step++) {
        expected.clear();
        int changes = 1 + rnd.nextInt(5);
        for (int k = changes; k > 0; k--) {
          boolean retract = !held.isEmpty() && rnd.nextBoolean();
          Row r = retract ? held.remove(rnd.nextInt(held.size())) : randomRow(rnd);
          long w = retract ? -1 : 1 + rnd.nextInt(2);
          g.input("in").send(r, w, S);
          expected.merge(r.project(cols), w, Long::sum);
        }
        expected.values().removeIf(w -> w == 0);
        fed++;
        g.run();
        assertThat(g.output("all").delta().toMap()).as("seed %d change %d", seed, step).isEqualTo(expected);
      }
      assertThat(op(g, "map").handOffs).as("seed %d: the map's batches were handed over", seed).isEqualTo(fed);
    }
  }

  @Test
  void takeOverMovesEntriesOnlyIntoAnEmptyBuffer() {
    Delta src = new Delta();
    src.add(Row.of(1L), 2, 0);
    src.add(Row.of(2L), -1, 1);
    Delta full = new Delta();
    full.add(Row.of(9L), 1);
    assertThat(full.takeOver(src)).isFalse();
    assertThat(full.size).isEqualTo(1);
    assertThat(src.size).isEqualTo(2);

    Delta empty = new Delta();
    assertThat(empty.takeOver(src)).isTrue();
    assertThat(src.size).isZero();
    assertThat(src.positions).isNull();
    assertThat(empty.size).isEqualTo(2);
    assertThat(empty.positions).as("positions are dropped, as addAll drops them").isNull();
    assertThat(List.of(empty.rows[0], empty.rows[1])).containsExactly(Row.of(1L), Row.of(2L));
    assertThat(new long[] {empty.weights[0], empty.weights[1]}).containsExactly(2, -1);
    src.add(Row.of(3L), 1); // the buffer left behind still works
    assertThat(src.size).isEqualTo(1);
    assertThat(src.rows[0]).isEqualTo(Row.of(3L));
  }

  @Test
  void adoptTakesTheArrayOnlyIntoAnEmptyBuffer() {
    Row[] rows = {Row.of(1L), Row.of(2L), Row.of(3L)};
    Delta d = new Delta();
    assertThat(d.adopt(rows, 2)).isTrue();
    assertThat(d.rows).isSameAs(rows);
    assertThat(d.size).isEqualTo(2);
    assertThat(d.unitWeights()).isTrue();
    Delta copy = new Delta();
    copy.addAll(d); // reads unit weights without allocating them
    assertThat(d.unitWeights()).isTrue();
    assertThat(new long[] {copy.weights[0], copy.weights[1]}).containsExactly(1, 1);
    Delta moved = new Delta();
    assertThat(moved.takeOver(d)).isTrue();
    assertThat(moved.unitWeights()).as("unit weights move with the entries").isTrue();
    assertThat(d.unitWeights()).isFalse();
    assertThat(d.takeOver(moved)).isTrue();
    d.materialize();
    assertThat(d.unitWeights()).isFalse();
    assertThat(d.weights).hasSameSizeAs(d.rows);
    assertThat(new long[] {d.weights[0], d.weights[1]}).containsExactly(1, 1);
    d.add(Row.of(4L), 5); // grows past the adopted entries like any buffer
    d.add(Row.of(5L), 6);
    assertThat(d.size).isEqualTo(4);
    assertThat(d.rows[3]).isEqualTo(Row.of(5L));
    assertThat(d.weights[3]).isEqualTo(6);
    assertThat(d.adopt(new Row[] {Row.of(7L)}, 1)).isFalse();
    assertThat(d.size).isEqualTo(4);
  }
}
