package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A limit just below Long.MAX_VALUE (end = offset + limit in (MAX - SLACK, MAX)) makes
 * `end + slack` overflow in TopKOperator.hydrate, so a hydration of any size takes the deferring path
 * with a negative target: the window is cut short. The same rows with limit Long.MAX_VALUE (no limit)
 * give the whole window.
 */
class TopKHugeLimitTest {
  private static final Schema S = Schema.parse("id INT NOT NULL, score INT");

  private static int windowSize(long limit, boolean bulk, int n) {
    GraphBuilder b = Graph.builder();
    b.output("out", b.input("in", S).topK(List.of(SortKey.asc("score"), SortKey.asc("id")), 0, limit));
    Graph g = b.build();
    Row[] rows = new Row[n];
    for (int i = 0; i < n; i++) {
      rows[i] = Row.of((long) i, (long) (i * 7919 % n));
    }
    if (bulk) {
      g.input("in").sendAll(rows, n, S); // unit weights: hydrateSelecting
    } else {
      for (Row r : rows) {
        g.input("in").send(r, 1); // weights materialized: the general deferring path
      }
    }
    g.run();
    return g.output("out").delta().size();
  }

  @Test
  void noLimitShowsEveryRow() {
    assertThat(windowSize(Long.MAX_VALUE, true, 1000)).isEqualTo(1000);
    assertThat(windowSize(Long.MAX_VALUE, false, 1000)).isEqualTo(1000);
  }

  @Test
  void aLimitJustBelowMaxShowsEveryRowToo_unitWeights() {
    assertThat(windowSize(Long.MAX_VALUE - 1, true, 1000)).isEqualTo(1000);
  }

  @Test
  void aLimitJustBelowMaxShowsEveryRowToo_materializedWeights() {
    assertThat(windowSize(Long.MAX_VALUE - 1, false, 1000)).isEqualTo(1000);
  }
}
