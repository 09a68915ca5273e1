package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * {@link Stream#leftJoinLeftRows}: the left parts of {@link Stream#leftJoinWhere}'s rows (the
 * general path: the joined rows, then a projection onto the left columns), each the left input's
 * own row object.
 */
class LeftJoinLeftRowsTest {
  private static final Schema L = Schema.parse("id INT NOT NULL, k INT");
  private static final Schema R = Schema.parse("k INT NOT NULL, on BOOL");
  private static final int[] LEFT_COLUMNS = {0, 1};
  private static final Predicate<Row> ON = r -> r.get(0) == null || Boolean.TRUE.equals(r.get(1));

  private static Graph graph(Predicate<Row> onRight) {
    GraphBuilder b = Graph.builder();
    Stream l = b.input("l", L);
    Stream r = b.input("r", R);
    b.output("fast", l.leftJoinLeftRows(r, List.of("k"), List.of("k"), onRight));
    Stream joined = onRight == null ? l.join(r, JoinType.LEFT, List.of("k"), List.of("k"))
        : l.leftJoinWhere(r, List.of("k"), List.of("k"), onRight);
    b.output("general", joined.map(L, row -> row.project(LEFT_COLUMNS)));
    return b.build();
  }

  @Test
  void emitsTheLeftRowsThemselves() {
    Graph g = graph(ON);
    Row matched = Row.of(10L, 1L);
    Row unmatched = Row.of(11L, null);
    Row rejected = Row.of(12L, 2L);
    g.input("r").send(Row.of(1L, true), 1).send(Row.of(2L, false), 1);
    g.input("l").send(matched, 1).send(unmatched, 1).send(rejected, 1);
    g.run();
    Map<Row, Long> out = g.output("fast").delta().toMap();
    assertThat(out).isEqualTo(g.output("general").delta().toMap()).containsOnlyKeys(matched, unmatched);
    assertThat(out.keySet()).allMatch(row -> row == matched || row == unmatched);
    assertThat(g.stats().stream().filter(s -> s.kind().equals("left-join-rows")).count()).isEqualTo(1);

    g.input("r").send(Row.of(2L, false), -1).send(Row.of(2L, true), 1); // member 2 turns on
    g.run();
    Map<Row, Long> turned = g.output("fast").delta().toMap();
    assertThat(turned).isEqualTo(g.output("general").delta().toMap()).containsOnlyKeys(rejected);
    assertThat(turned.keySet().iterator().next()).isSameAs(rejected);
  }

  @Test
  void aHydrationEmitsEachLeftRowByReference() {
    Graph g = graph(ON);
    Row[] rows = new Row[6000]; // at least KeyIndex.BULK_AT: the bulk path
    for (int i = 0; i < rows.length; i++) {
      rows[i] = Row.of((long) i, i % 3 == 0 ? null : (long) (i % 7));
      g.input("l").send(rows[i], 1);
    }
    for (long k = 0; k < 7; k++) {
      g.input("r").send(Row.of(k, k % 2 == 0), 1);
    }
    g.run();
    Map<Row, Long> out = g.output("fast").delta().toMap();
    assertThat(out).isEqualTo(g.output("general").delta().toMap());
    java.util.Set<Row> inputs = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    inputs.addAll(List.of(rows));
    assertThat(out.keySet()).allMatch(inputs::contains);
  }

  @Test
  void agreesWithProjectingTheJoin() {
    List<Predicate<Row>> onRight = java.util.Arrays.asList(ON, r -> Boolean.FALSE.equals(r.get(1)), null);
    for (int p = 0; p < onRight.size(); p++) {
      for (long seed = 1; seed <= 20; seed++) {
        Random rnd = new Random(seed);
        Graph g = graph(onRight.get(p));
        Map<Long, Row> left = new HashMap<>();
        Map<Long, Row> right = new HashMap<>();
        for (int step = 0; step < 30; step++) {
          int n = step == 0 ? 5000 : 1 + rnd.nextInt(4); // the first step indexes the left rows in bulk
          for (int c = 0; c < n; c++) {
            if (rnd.nextBoolean()) {
              long id = rnd.nextInt(step == 0 ? 6000 : 20);
              upsert(g, "l", left, id, rnd.nextInt(3) == 0 ? null : Row.of(id, rnd.nextInt(4) == 0 ? null
                  : (long) rnd.nextInt(5)));
            } else if (rnd.nextInt(4) == 0) { // a second right row of a key: a left row is emitted twice
              long k = rnd.nextInt(5);
              g.input("r").send(Row.of(k, null), 1);
              right.put(100 + k, Row.of(k, null));
            } else {
              long k = rnd.nextInt(5);
              upsert(g, "r", right, k, Row.of(k, rnd.nextInt(5) == 0 ? null : rnd.nextBoolean()));
            }
          }
          g.run();
          assertThat(g.output("fast").delta().toMap()).as("predicate %d seed %d step %d", p, seed, step)
              .isEqualTo(g.output("general").delta().toMap());
        }
      }
    }
  }

  /**
   * A hydration's right rows meet no left rows: they enter the right index as one batch (packed, the
   * index being lazy), and the result, then and after later changes, is the naive left join's.
   */
  @Test
  void aHydrationIndexesTheRightRowsInBulk() {
    for (long seed = 1; seed <= 4; seed++) {
      Random rnd = new Random(seed);
      GraphBuilder b = Graph.builder();
      Stream l = b.input("l", L);
      Stream r = b.input("r", R);
      Stream joined = l.leftJoinWhere(r, List.of("k"), List.of("k"), ON);
      Stream rows = l.leftJoinLeftRows(r, List.of("k"), List.of("k"), ON);
      b.output("joined", joined);
      b.output("rows", rows);
      Graph g = b.build();
      Map<Long, Row> left = new HashMap<>();
      Map<Long, Row> right = new HashMap<>();
      Map<Row, Long> foldJoined = new HashMap<>();
      Map<Row, Long> foldRows = new HashMap<>();
      for (long k = 0; k < 5000; k++) { // at least KeyIndex.BULK_AT right rows
        upsert(g, "r", right, k, Row.of(k, rnd.nextInt(4) == 0 ? null : rnd.nextBoolean()));
      }
      for (long id = 0; id < 3000; id++) {
        upsert(g, "l", left, id, Row.of(id, rnd.nextInt(3) == 0 ? null : (long) rnd.nextInt(6000)));
      }
      for (int step = 0; step < 40; step++) {
        g.run();
        fold(foldJoined, g.output("joined").delta().toMap());
        fold(foldRows, g.output("rows").delta().toMap());
        assertThat(foldJoined).as("seed %d step %d", seed, step).isEqualTo(naive(left, right, false));
        assertThat(foldRows).as("seed %d step %d", seed, step).isEqualTo(naive(left, right, true));
        for (int c = 1 + rnd.nextInt(3); c > 0; c--) {
          long id = rnd.nextInt(20);
          if (rnd.nextBoolean()) {
            upsert(g, "l", left, id, rnd.nextInt(4) == 0 ? null : Row.of(id, (long) rnd.nextInt(30)));
          } else {
            upsert(g, "r", right, id, rnd.nextInt(4) == 0 ? null : Row.of(id, rnd.nextBoolean()));
          }
        }
      }
      // the hydration's right rows went in as one batch: packed, the join's index being lazy
      assertThat(((JoinOperator) joined.op).index(false).packs()).as("seed %d", seed).isEqualTo(1);
      assertThat(((JoinOperator) rows.op).index(false).packs()).as("seed %d", seed).isEqualTo(1);
    }
  }

  private static void fold(Map<Row, Long> into, Map<Row, Long> delta) {
    delta.forEach((row, w) -> {
      if (into.merge(row, w, Long::sum) == 0L) {
        into.remove(row);
      }
    });
  }

  /** The left join with {@link #ON}, each left row looked up in the right rows grouped by k: joined rows, or their left parts. */
  private static Map<Row, Long> naive(Map<Long, Row> left, Map<Long, Row> right, boolean leftParts) {
    Map<Object, List<Row>> byK = new HashMap<>();
    for (Row r : right.values()) {
      byK.computeIfAbsent(r.get(0), k -> new java.util.ArrayList<>()).add(r);
    }
    Map<Row, Long> out = new HashMap<>();
    for (Row l : left.values()) {
      List<Row> matches = l.get(1) == null ? List.of() : byK.getOrDefault(l.get(1), List.of());
      for (Row r : matches) {
        if (ON.test(r)) {
          out.merge(leftParts ? l : l.concat(r), 1L, Long::sum);
        }
      }
      if (matches.isEmpty()) {
        out.merge(leftParts ? l : l.concat(Row.nulls(R.width())), 1L, Long::sum);
      }
    }
    return out;
  }

  @Test
  void needsALeftJoin() {
    GraphBuilder b = Graph.builder();
    Stream l = b.input("l", L);
    Stream r = b.input("r", R);
    Stream rows = l.leftJoinLeftRows(r, List.of("k"), List.of("k"), null);
    assertThat(rows.schema()).isEqualTo(L);
    assertThatThrownBy(() -> new JoinOperator(l.op, r.op, JoinType.INNER, new int[] {1}, new int[] {0}, null, true))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs a left join, not INNER");
  }

  /** Replaces the row under {@code id} by {@code next} (null: deletes it). */
  static void upsert(Graph g, String input, Map<Long, Row> rows, long id, Row next) {
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
