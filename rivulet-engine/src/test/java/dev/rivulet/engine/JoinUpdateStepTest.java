package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * A left or anti join's update step: a run with at most {@link JoinOperator#FEW} right changes is
 * grouped by key without a map ({@code stepRightFew}) and emits exactly what the map path emits;
 * a setting left join ({@link Stream#leftJoinSetting}) emits the rows of the left join mapped to
 * the left row with one column set to the right value.
 */
class JoinUpdateStepTest {
  private static final Schema L = Schema.parse("id INT NOT NULL, a INT, b INT, v ANY");
  private static final Schema R = Schema.parse("id INT NOT NULL, a INT, b INT, val STRING");
  private static final List<String> ONE = List.of("a");
  private static final List<String> TWO = List.of("a", "b");

  /** One kind of join, built twice on the same inputs: the fast one and one that always takes the map path. */
  private record Pair(JoinOperator fast, JoinOperator general) {}

  private static Pair wire(GraphBuilder b, Stream l, Stream r, String name, Function<Stream[], Stream> join) {
    Stream fast = join.apply(new Stream[] {l, r});
    Stream general = join.apply(new Stream[] {l, r});
    ((JoinOperator) general.op).few = 0;
    b.output(name + "-fast", fast);
    b.output(name + "-general", general);
    return new Pair((JoinOperator) fast.op, (JoinOperator) general.op);
  }

  @Test
  void fewRightChangesEmitWhatTheMapPathEmits() {
    for (long seed = 1; seed <= 12; seed++) {
      Random rnd = new Random(seed);
      GraphBuilder b = Graph.builder();
      Stream l = b.input("l", L);
      Stream r = b.input("r", R);
      Map<String, Pair> joins = new HashMap<>();
      joins.put("left1", wire(b, l, r, "left1", s -> s[0].join(s[1], JoinType.LEFT, ONE, ONE)));
      joins.put("left2", wire(b, l, r, "left2", s -> s[0].join(s[1], JoinType.LEFT, TWO, TWO)));
      joins.put("anti", wire(b, l, r, "anti", s -> s[0].join(s[1], JoinType.ANTI, ONE, ONE)));
      joins.put("where", wire(b, l, r, "where",
          s -> s[0].leftJoinWhere(s[1], ONE, ONE, row -> row.get(3) == null || ((String) row.get(3)).length() > 1)));
      joins.put("rows", wire(b, l, r, "rows", s -> s[0].leftJoinLeftRows(s[1], ONE, ONE, null)));
      joins.put("setting", wire(b, l, r, "setting", s -> s[0].leftJoinSetting(s[1], ONE, ONE, "v", "val", "-")));
      Graph g = b.build();
      Map<Long, Row> left = new HashMap<>();
      Map<Long, Row> right = new HashMap<>();
      for (int step = 0; step < 60; step++) {
        // mostly update-sized right batches (some repeating a key), sometimes larger ones
        int n = rnd.nextInt(6) == 0 ? JoinOperator.FEW + 1 + rnd.nextInt(8) : 1 + rnd.nextInt(JoinOperator.FEW);
        for (int c = 0; c < n; c++) {
          long id = rnd.nextInt(12);
          upsert(g, "r", right, id, rnd.nextInt(5) == 0 ? null : Row.of(id, key(rnd), key(rnd),
              rnd.nextInt(4) == 0 ? null : "v" + rnd.nextInt(20)));
        }
        for (int c = rnd.nextInt(3); c > 0; c--) {
          long id = rnd.nextInt(10);
          upsert(g, "l", left, id, rnd.nextInt(5) == 0 ? null : Row.of(id, key(rnd), key(rnd), null));
        }
        g.run();
        for (String name : joins.keySet()) {
          assertThat(entries(g.output(name + "-fast").delta()))
              .as("%s seed %d step %d", name, seed, step)
              .isEqualTo(entries(g.output(name + "-general").delta()));
        }
      }
      for (Map.Entry<String, Pair> e : joins.entrySet()) {
        assertThat(e.getValue().fast().fewRuns).as("%s seed %d", e.getKey(), seed).isPositive();
        assertThat(e.getValue().general().fewRuns).as("%s seed %d", e.getKey(), seed).isZero();
      }
    }
  }

  /** A key value 0..3, or null now and then (a null key matches nothing). */
  private static Long key(Random rnd) {
    return rnd.nextInt(6) == 0 ? null : (long) rnd.nextInt(4);
  }

  @Test
  void aSettingJoinIsTheLeftJoinWithTheColumnSet() {
    for (long seed = 1; seed <= 8; seed++) {
      Random rnd = new Random(seed);
      GraphBuilder b = Graph.builder();
      Stream l = b.input("l", L);
      Stream r = b.input("r", R);
      b.output("setting", l.leftJoinSetting(r, TWO, TWO, "v", "val", "none"));
      b.output("general", l.join(r, JoinType.LEFT, TWO, TWO).map(L, row -> row.project(new int[] {0, 1, 2, 7})
          .with(3, row.get(7) == null ? "none" : row.get(7))));
      Graph g = b.build();
      Map<Long, Row> left = new HashMap<>();
      Map<Long, Row> right = new HashMap<>();
      for (int step = 0; step < 30; step++) {
        int n = step == 0 ? 5000 : 1 + rnd.nextInt(4); // the first step: a hydration-sized batch of each side
        for (int c = 0; c < n; c++) {
          long id = rnd.nextInt(step == 0 ? 6000 : 30);
          upsert(g, "l", left, id, rnd.nextInt(6) == 0 ? null : Row.of(id, key(rnd), key(rnd), null));
          if (step == 0 || rnd.nextBoolean()) {
            upsert(g, "r", right, id, rnd.nextInt(6) == 0 ? null : Row.of(id, key(rnd), key(rnd),
                rnd.nextInt(4) == 0 ? null : "v" + id));
          }
        }
        g.run();
        Map<Row, Long> out = entries(g.output("setting").delta());
        assertThat(out).as("seed %d step %d", seed, step).isEqualTo(entries(g.output("general").delta()));
        if (step == 0) {
          assertThat(out).as("seed %d", seed).isNotEmpty();
        }
      }
    }
  }

  @Test
  void aSettingJoinChecksItsColumns() {
    GraphBuilder b = Graph.builder();
    Stream l = b.input("l", L);
    Stream r = b.input("r", R);
    assertThatThrownBy(() -> l.leftJoinSetting(r, ONE, ONE, "a", "val", null))
        .isInstanceOf(WiringException.class).hasMessageContaining("'a'").hasMessageContaining("'val'");
    assertThatThrownBy(() -> l.leftJoinSetting(r, ONE, ONE, "nope", "val", null))
        .isInstanceOf(WiringException.class).hasMessageContaining("nope");
    assertThatThrownBy(() -> l.leftJoinSetting(r, ONE, ONE, "v", "nope", null))
        .isInstanceOf(WiringException.class).hasMessageContaining("nope");
  }

  /** Replaces the row under {@code id} (null: deletes it), sending the retraction and the insertion. */
  private static void upsert(Graph g, String input, Map<Long, Row> rows, long id, Row row) {
    Row old = row == null ? rows.remove(id) : rows.put(id, row);
    if (old != null) {
      g.input(input).send(old, -1);
    }
    if (row != null) {
      g.input(input).send(row, 1);
    }
  }

  /** A run's output as a consolidated map (zero sums dropped). */
  private static Map<Row, Long> entries(ZSet delta) {
    Map<Row, Long> out = new HashMap<>();
    for (int i = 0; i < delta.size(); i++) {
      if (out.merge(delta.row(i), delta.weight(i), Long::sum) == 0L) {
        out.remove(delta.row(i));
      }
    }
    return out;
  }
}
