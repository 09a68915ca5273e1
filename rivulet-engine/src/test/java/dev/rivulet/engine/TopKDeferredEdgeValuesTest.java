package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The deferred top-K path against the whole sort when the first sort key takes the
 * prefix sentinels (NULL, Long.MIN_VALUE, Long.MAX_VALUE share prefixes), with multiplicities,
 * retractions on both sides of the boundary, and small split/compaction thresholds.
 */
class TopKDeferredEdgeValuesTest {
  private static final Schema S = Schema.parse("id INT NOT NULL, score INT");

  private static Graph graph(boolean desc, long offset, long limit) {
    GraphBuilder b = Graph.builder();
    List<SortKey> order = List.of(desc ? SortKey.desc("score") : SortKey.asc("score"), SortKey.asc("id"));
    b.output("out", b.input("in", S).topK(order, offset, limit));
    return b.build();
  }

  private static TopKOperator only(Graph g) {
    return g.operators().stream().filter(TopKOperator.class::isInstance).map(TopKOperator.class::cast)
        .findFirst().orElseThrow();
  }

  private static Row row(Random rnd, long id) {
    int c = rnd.nextInt(8);
    Long score = c == 0 ? null : c == 1 ? Long.MIN_VALUE : c == 2 ? Long.MAX_VALUE : (long) rnd.nextInt(6);
    return Row.of(id, score);
  }

  @Test
  void deferredEqualsWholeSortWithSentinelPrefixes() {
    long refills = 0;
    for (long seed = 1; seed <= 60; seed++) {
      Random rnd = new Random(seed);
      boolean desc = seed % 2 == 0;
      long offset = rnd.nextInt(3);
      long limit = 1 + rnd.nextInt(5);
      Graph d = graph(desc, offset, limit);
      Graph w = graph(desc, offset, limit);
      TopKOperator dop = only(d);
      TopKOperator wop = only(w);
      dop.slack = 1 + rnd.nextInt(4);
      dop.compactSlack = 4;
      dop.splitAt = 4 + rnd.nextInt(20);
      wop.slack = Integer.MAX_VALUE / 4;
      List<Row> held = new ArrayList<>();
      int n = 80 + rnd.nextInt(200);
      Row[] batch = new Row[n];
      long id = 0;
      for (int i = 0; i < n; i++) {
        Row r = i > 0 && rnd.nextInt(8) == 0 ? held.get(rnd.nextInt(held.size())) : row(rnd, id++);
        held.add(r);
        batch[i] = r;
        w.input("in").send(r, 1);
      }
      if (seed % 3 == 0) {
        for (Row r : batch) {
          d.input("in").send(r, 1);
        }
      } else {
        d.input("in").sendAll(batch, n, S);
      }
      d.run();
      w.run();
      assertThat(d.output("out").delta()).as("seed %d hydration", seed).isEqualTo(w.output("out").delta());
      for (int step = 0; step < 80; step++) {
        for (int c = 1 + rnd.nextInt(3); c > 0; c--) {
          if (!held.isEmpty() && rnd.nextInt(3) > 0) {
            Row r = held.remove(rnd.nextInt(held.size()));
            d.input("in").send(r, -1);
            w.input("in").send(r, -1);
          } else {
            Row r = row(rnd, id++);
            held.add(r);
            d.input("in").send(r, 1);
            w.input("in").send(r, 1);
          }
        }
        d.run();
        w.run();
        assertThat(d.output("out").delta()).as("seed %d step %d", seed, step).isEqualTo(w.output("out").delta());
      }
      refills += dop.treeRefills;
    }
    assertThat(refills).isPositive();
  }
}
