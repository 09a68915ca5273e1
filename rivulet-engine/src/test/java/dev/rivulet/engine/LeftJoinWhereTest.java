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
 * {@link Stream#leftJoinWhere}: the same change as a left join followed by a filter on the right
 * part (the general path), with no rejected pair built.
 */
class LeftJoinWhereTest {
  private static final Schema L = Schema.parse("id INT NOT NULL, k INT");
  private static final Schema R = Schema.parse("k INT NOT NULL, on BOOL");
  private static final int RIGHT_AT = L.width();

  /** The right part of a joined row passes: null-extended (k null) or on = true. */
  private static boolean joinedPasses(Row joined) {
    return joined.get(RIGHT_AT) == null || Boolean.TRUE.equals(joined.get(RIGHT_AT + 1));
  }

  private static Graph graph(Predicate<Row> onRight, Predicate<Row> onJoined) {
    GraphBuilder b = Graph.builder();
    Stream l = b.input("l", L);
    Stream r = b.input("r", R);
    b.output("fast", l.leftJoinWhere(r, List.of("k"), List.of("k"), onRight));
    b.output("general", l.join(r, JoinType.LEFT, List.of("k"), List.of("k")).filter(onJoined));
    return b.build();
  }

  @Test
  void aRejectedRightRowIsNeverPaired() {
    Graph g = graph(r -> r.get(0) == null || Boolean.TRUE.equals(r.get(1)), LeftJoinWhereTest::joinedPasses);
    g.input("r").send(Row.of(1L, false), 1);
    g.input("l").send(Row.of(10L, 1L), 1).send(Row.of(11L, null), 1).send(Row.of(12L, 2L), 1);
    g.run();
    assertThat(g.output("fast").delta().toMap()).isEqualTo(g.output("general").delta().toMap())
        .containsOnlyKeys(Row.of(11L, null, null, null), Row.of(12L, 2L, null, null));
    g.input("r").send(Row.of(1L, false), -1).send(Row.of(1L, true), 1); // the member turns on
    g.run();
    assertThat(g.output("fast").delta().toMap()).isEqualTo(g.output("general").delta().toMap())
        .containsOnlyKeys(Row.of(10L, 1L, 1L, true));
    assertThat(g.stats().stream().filter(s -> s.kind().equals("left-join")).count()).isEqualTo(2);
  }

  @Test
  void agreesWithFilteringTheJoin() {
    List<Predicate<Row>> onRight = List.of(r -> r.get(0) == null || Boolean.TRUE.equals(r.get(1)),
        r -> Boolean.FALSE.equals(r.get(1)));
    List<Predicate<Row>> onJoined = List.of(LeftJoinWhereTest::joinedPasses,
        j -> Boolean.FALSE.equals(j.get(RIGHT_AT + 1)));
    for (int p = 0; p < onRight.size(); p++) {
      for (long seed = 1; seed <= 40; seed++) {
        Random rnd = new Random(seed);
        Graph g = graph(onRight.get(p), onJoined.get(p));
        Map<Long, Row> left = new HashMap<>();
        Map<Long, Row> right = new HashMap<>();
        for (int step = 0; step < 30; step++) {
          int n = step == 0 ? 5000 : 1 + rnd.nextInt(4); // the first step indexes the left rows in bulk
          for (int c = 0; c < n; c++) {
            if (rnd.nextBoolean()) {
              long id = rnd.nextInt(step == 0 ? 6000 : 20);
              upsert(g, "l", left, id, rnd.nextInt(3) == 0 ? null : Row.of(id, rnd.nextInt(4) == 0 ? null
                  : (long) rnd.nextInt(5)), rnd);
            } else {
              long k = rnd.nextInt(5);
              upsert(g, "r", right, k, Row.of(k, rnd.nextInt(5) == 0 ? null : rnd.nextBoolean()), rnd);
            }
          }
          g.run();
          assertThat(g.output("fast").delta().toMap()).as("predicate %d seed %d step %d", p, seed, step)
              .isEqualTo(g.output("general").delta().toMap());
        }
      }
    }
  }

  /** Replaces the row under {@code id} by {@code next} (null: deletes it). */
  private static void upsert(Graph g, String input, Map<Long, Row> rows, long id, Row next, Random rnd) {
    Row old = rows.remove(id);
    if (old != null) {
      g.input(input).send(old, -1);
    }
    if (next != null) {
      g.input(input).send(next, 1);
      rows.put(id, next);
    }
  }
}
