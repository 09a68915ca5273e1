package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link Stream#mapWindow}: a window taken before a projection that keeps its order columns gives
 * the same positioned change as the window taken after the projection (the general path), and a
 * row whose projection did not change is no change.
 */
class MapWindowTest {
  private static final Schema IN = Schema.parse("id INT NOT NULL, s INT, h STRING");
  private static final Schema OUT = Schema.parse("s INT, id INT NOT NULL");
  private static final List<SortKey> IN_ORDER = List.of(SortKey.desc("s").withNullsLast(), SortKey.asc("id"));

  private static Row project(Row r) {
    return Row.of(r.get(1), r.get(0));
  }

  /** Outputs "fast" (window, then mapWindow) and "general" (map, then window) of one input. */
  private static Graph graph(long offset, long limit) {
    GraphBuilder b = Graph.builder();
    Stream in = b.input("in", IN);
    b.output("fast", in.topK(IN_ORDER, offset, limit).mapWindow(OUT, MapWindowTest::project));
    b.output("general", in.map(OUT, MapWindowTest::project)
        .topK(List.of(SortKey.desc("s").withNullsLast(), SortKey.asc("id")), offset, limit));
    return b.build();
  }

  private static List<ZSet.Entry> entries(ZSet z) {
    List<ZSet.Entry> out = new ArrayList<>();
    z.forEach(out::add);
    return out;
  }

  @Test
  void aRowWhoseProjectionDidNotChangeIsNoChange() {
    Graph g = graph(0, 2);
    g.input("in").send(Row.of(1L, 5L, "a"), 1).send(Row.of(2L, 7L, "b"), 1).send(Row.of(3L, 1L, "c"), 1);
    g.run();
    assertThat(entries(g.output("fast").delta())).isEqualTo(entries(g.output("general").delta()));

    g.resetCounters();
    g.input("in").send(Row.of(1L, 5L, "a"), -1).send(Row.of(1L, 5L, "z"), 1); // only the hidden column
    g.run();
    assertThat(g.output("fast").delta().isEmpty()).isTrue();
    assertThat(g.output("general").delta().isEmpty()).isTrue();
    assertThat(g.stats().stream().filter(s -> s.kind().equals("map-window")).findFirst().orElseThrow().examined())
        .as("the window's retraction and insertion reached the window map").isEqualTo(2);

    g.input("in").send(Row.of(1L, 5L, "z"), -1).send(Row.of(1L, 9L, "z"), 1); // a sort column: a move
    g.run();
    assertThat(entries(g.output("fast").delta())).isEqualTo(entries(g.output("general").delta()))
        .containsExactly(new ZSet.Entry(Row.of(5L, 1L), -1, 1), new ZSet.Entry(Row.of(9L, 1L), 1, 0));
  }

  @Test
  void twoRowsWhoseProjectionsDidNotChangeAreNoChange() {
    Graph g = graph(0, 2); // both rows are at kept index 0 (no other row stays): they cancel together
    g.input("in").send(Row.of(1L, 5L, "a"), 1).send(Row.of(2L, 7L, "b"), 1);
    g.run();
    g.input("in").send(Row.of(1L, 5L, "a"), -1).send(Row.of(1L, 5L, "y"), 1)
        .send(Row.of(2L, 7L, "b"), -1).send(Row.of(2L, 7L, "y"), 1);
    g.run();
    assertThat(g.output("fast").delta().isEmpty()).isTrue();
    assertThat(g.output("general").delta().isEmpty()).isTrue();
  }

  @Test
  void agreesWithTheWindowAfterTheProjection() {
    for (long seed = 1; seed <= 60; seed++) {
      Random rnd = new Random(seed);
      long offset = rnd.nextInt(3);
      long limit = rnd.nextBoolean() ? Long.MAX_VALUE : rnd.nextInt(6);
      Graph g = graph(offset, limit);
      Map<Long, Row> rows = new HashMap<>();
      for (int step = 0; step < 40; step++) {
        for (int c = 1 + rnd.nextInt(4); c > 0; c--) {
          long id = rnd.nextInt(12);
          Row old = rows.remove(id);
          if (old != null) {
            g.input("in").send(old, -1);
          }
          if (old == null || rnd.nextInt(4) > 0) {
            Long s = rnd.nextInt(6) == 0 ? null : (long) rnd.nextInt(4);
            if (old != null && rnd.nextBoolean()) {
              s = (Long) old.get(1); // a change of the hidden column only
            }
            Row next = Row.of(id, s, "h" + rnd.nextInt(3));
            g.input("in").send(next, 1);
            rows.put(id, next);
          }
        }
        g.run();
        assertThat(entries(g.output("fast").delta())).as("seed %d step %d", seed, step)
            .isEqualTo(entries(g.output("general").delta()));
      }
    }
  }

  /**
   * More than eight retractions in one change: the pairs are found through a map of the
   * retractions instead of a scan (examined proves the window map met them in one change).
   */
  @Test
  void manyUnchangedRowsInOneChangeAreFoundByRow() {
    for (long seed = 1; seed <= 20; seed++) {
      Random rnd = new Random(seed);
      Graph g = graph(0, 30);
      Map<Long, Row> rows = new HashMap<>();
      for (long id = 0; id < 40; id++) {
        Row row = Row.of(id, (long) rnd.nextInt(10), "h0");
        rows.put(id, row);
        g.input("in").send(row, 1);
      }
      g.run();
      for (int step = 0; step < 10; step++) {
        g.resetCounters();
        int hidden = 0;
        for (long id = 0; id < 40; id++) {
          int what = rnd.nextInt(10);
          if (what < 5) { // the hidden column only: no change of the projection
            Row old = rows.get(id);
            Row next = Row.of(id, old.get(1), "h" + (step + 1));
            g.input("in").send(old, -1).send(next, 1);
            rows.put(id, next);
            hidden++;
          } else if (what == 5) { // a sort column: a move
            Row old = rows.get(id);
            Row next = Row.of(id, (long) rnd.nextInt(10), old.get(2));
            g.input("in").send(old, -1).send(next, 1);
            rows.put(id, next);
          }
        }
        g.run();
        assertThat(entries(g.output("fast").delta())).as("seed %d step %d", seed, step)
            .isEqualTo(entries(g.output("general").delta()));
        long examined = g.stats().stream().filter(st -> st.kind().equals("map-window")).findFirst().orElseThrow()
            .examined();
        if (hidden >= 24) { // at least 14 of them within the window of 30: more than eight retractions
          assertThat(examined).as("seed %d step %d", seed, step).isGreaterThanOrEqualTo(2 * 9);
        }
      }
    }
  }

  @Test
  void needsAWindowWithoutPartitions() {
    GraphBuilder b = Graph.builder();
    Stream in = b.input("in", IN);
    assertThatThrownBy(() -> in.mapWindow(OUT, MapWindowTest::project)).isInstanceOf(WiringException.class)
        .hasMessageContaining("map-window");
    assertThatThrownBy(() -> in.topK(List.of("h"), IN_ORDER, 0, 2).mapWindow(OUT, MapWindowTest::project))
        .isInstanceOf(WiringException.class).hasMessageContaining("without partitions");
  }
}
