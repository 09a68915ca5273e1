package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Equi-joins: inner, left, right, full and anti, with SQL null keys and multiplicities. */
class JoinOperatorTest {
  private static final Schema L = Schema.parse("id INT NOT NULL, k INT, lv STRING");
  private static final Schema R = Schema.parse("rid INT NOT NULL, k INT, rv STRING");
  private static final Row NO_LEFT = Row.nulls(3);
  private static final Row NO_RIGHT = Row.nulls(3);

  private static Graph join(JoinType type) {
    GraphBuilder b = Graph.builder();
    b.output("out", b.input("l", L).join(b.input("r", R), type, "k", "k"));
    return b.build();
  }

  private static Map<Row, Long> run(Graph g) {
    g.run();
    return g.output("out").delta().toMap();
  }

  private static Row l(long id, Long k) {
    return Row.of(id, k, "l" + id);
  }

  private static Row r(long id, Long k) {
    return Row.of(id, k, "r" + id);
  }

  @Test
  void outputSchemaPrefixesRepeatedNamesAndNullsThePreservedSidesPartner() {
    GraphBuilder b = Graph.builder();
    Stream left = b.input("l", L);
    Stream right = b.input("r", R);
    Stream inner = left.join(right, JoinType.INNER, "k", "k");
    Stream leftJoin = left.join(right, JoinType.LEFT, "k", "k");
    Stream rightJoin = left.join(right, JoinType.RIGHT, "k", "k");
    Stream anti = left.join(right, JoinType.ANTI, "k", "k");
    assertThat(inner.schema().names()).containsExactly("id", "k", "lv", "rid", "right_k", "rv");
    assertThat(inner.schema().column(3).nullable()).isFalse();
    assertThat(leftJoin.schema().column(0).nullable()).isFalse();
    assertThat(leftJoin.schema().column(3).nullable()).isTrue();
    assertThat(rightJoin.schema().column(0).nullable()).isTrue();
    assertThat(rightJoin.schema().column(3).nullable()).isFalse();
    assertThat(anti.schema()).isEqualTo(L);
  }

  @Test
  void innerJoinMultipliesMultiplicities() {
    Graph g = join(JoinType.INNER);
    g.input("l").send(l(1, 7L), 2).send(l(2, 7L), 1).send(l(3, 8L), 1);
    g.input("r").send(r(10, 7L), 3).send(r(11, 7L), 1).send(r(12, 9L), 1);
    assertThat(run(g)).containsOnly(
        Map.entry(l(1, 7L).concat(r(10, 7L)), 6L),
        Map.entry(l(1, 7L).concat(r(11, 7L)), 2L),
        Map.entry(l(2, 7L).concat(r(10, 7L)), 3L),
        Map.entry(l(2, 7L).concat(r(11, 7L)), 1L));
    g.input("r").send(r(10, 7L), -1);
    assertThat(run(g)).containsOnly(
        Map.entry(l(1, 7L).concat(r(10, 7L)), -2L),
        Map.entry(l(2, 7L).concat(r(10, 7L)), -1L));
    // Both sides change in one run: dL x R0 + L1 x dR.
    g.input("l").send(l(4, 7L), 1).send(l(2, 7L), -1);
    g.input("r").send(r(13, 7L), 1);
    assertThat(run(g)).containsOnly(
        Map.entry(l(4, 7L).concat(r(10, 7L)), 2L),
        Map.entry(l(4, 7L).concat(r(11, 7L)), 1L),
        Map.entry(l(2, 7L).concat(r(10, 7L)), -2L),
        Map.entry(l(2, 7L).concat(r(11, 7L)), -1L),
        Map.entry(l(1, 7L).concat(r(13, 7L)), 2L),
        Map.entry(l(4, 7L).concat(r(13, 7L)), 1L));
  }

  @Test
  void nullKeysNeverMatch() {
    Graph inner = join(JoinType.INNER);
    inner.input("l").insert(l(1, null));
    inner.input("r").insert(r(2, null));
    assertThat(run(inner)).isEmpty();

    Graph full = join(JoinType.FULL);
    full.input("l").insert(l(1, null));
    full.input("r").insert(r(2, null));
    assertThat(run(full)).containsOnly(
        Map.entry(l(1, null).concat(NO_RIGHT), 1L), Map.entry(NO_LEFT.concat(r(2, null)), 1L));
    // A later non-null partner does not pick up the null-keyed rows.
    full.input("r").insert(r(3, 5L));
    assertThat(run(full)).containsOnly(Map.entry(NO_LEFT.concat(r(3, 5L)), 1L));
    full.input("l").delete(l(1, null));
    assertThat(run(full)).containsOnly(Map.entry(l(1, null).concat(NO_RIGHT), -1L));

    Graph anti = join(JoinType.ANTI);
    anti.input("l").insert(l(1, null));
    anti.input("r").insert(r(2, null));
    assertThat(run(anti)).containsOnly(Map.entry(l(1, null), 1L));
  }

  @Test
  void leftJoinTransitions() {
    Graph g = join(JoinType.LEFT);
    g.input("l").insert(l(1, 5L));
    assertThat(run(g)).as("no match yet").containsOnly(Map.entry(l(1, 5L).concat(NO_RIGHT), 1L));
    g.input("r").insert(r(10, 5L));
    assertThat(run(g)).as("first match retracts the null-extended row").containsOnly(
        Map.entry(l(1, 5L).concat(NO_RIGHT), -1L), Map.entry(l(1, 5L).concat(r(10, 5L)), 1L));
    g.input("r").insert(r(11, 5L));
    assertThat(run(g)).as("second match").containsOnly(Map.entry(l(1, 5L).concat(r(11, 5L)), 1L));
    g.input("r").delete(r(10, 5L));
    assertThat(run(g)).containsOnly(Map.entry(l(1, 5L).concat(r(10, 5L)), -1L));
    g.input("r").delete(r(11, 5L));
    assertThat(run(g)).as("last match gone: null-extended row returns").containsOnly(
        Map.entry(l(1, 5L).concat(r(11, 5L)), -1L), Map.entry(l(1, 5L).concat(NO_RIGHT), 1L));
    g.input("l").delete(l(1, 5L));
    assertThat(run(g)).containsOnly(Map.entry(l(1, 5L).concat(NO_RIGHT), -1L));
    // A right row alone produces nothing in a left join.
    g.input("r").insert(r(12, 6L));
    assertThat(run(g)).isEmpty();
  }

  @Test
  void leftJoinTransitionsWithinOneRun() {
    Graph g = join(JoinType.LEFT);
    g.input("l").send(l(1, 5L), 2);
    g.input("r").insert(r(10, 5L));
    assertThat(run(g)).as("arriving together: joined only").containsOnly(Map.entry(l(1, 5L).concat(r(10, 5L)), 2L));
    // Replace the only match by another in one run: the null-extended row never appears.
    g.input("r").update(r(10, 5L), r(11, 5L));
    assertThat(run(g)).containsOnly(
        Map.entry(l(1, 5L).concat(r(10, 5L)), -2L), Map.entry(l(1, 5L).concat(r(11, 5L)), 2L));
    // Remove the match and add a new left row of the key in one run: both are null-extended.
    g.input("r").delete(r(11, 5L));
    g.input("l").insert(l(2, 5L));
    assertThat(run(g)).containsOnly(
        Map.entry(l(1, 5L).concat(r(11, 5L)), -2L),
        Map.entry(l(1, 5L).concat(NO_RIGHT), 2L),
        Map.entry(l(2, 5L).concat(NO_RIGHT), 1L));
    // Insert and delete a right row in one run: nothing.
    g.input("r").insert(r(12, 5L)).delete(r(12, 5L));
    assertThat(run(g)).isEmpty();
  }

  @Test
  void rightJoinTransitions() {
    Graph g = join(JoinType.RIGHT);
    g.input("r").insert(r(10, 5L));
    assertThat(run(g)).containsOnly(Map.entry(NO_LEFT.concat(r(10, 5L)), 1L));
    g.input("l").insert(l(1, 5L));
    assertThat(run(g)).containsOnly(
        Map.entry(NO_LEFT.concat(r(10, 5L)), -1L), Map.entry(l(1, 5L).concat(r(10, 5L)), 1L));
    g.input("l").delete(l(1, 5L));
    assertThat(run(g)).containsOnly(
        Map.entry(NO_LEFT.concat(r(10, 5L)), 1L), Map.entry(l(1, 5L).concat(r(10, 5L)), -1L));
    g.input("l").insert(l(2, 6L));
    assertThat(run(g)).isEmpty();
  }

  @Test
  void fullJoinTransitionsOnBothSides() {
    Graph g = join(JoinType.FULL);
    g.input("l").insert(l(1, 5L));
    g.input("r").insert(r(10, 6L));
    assertThat(run(g)).containsOnly(
        Map.entry(l(1, 5L).concat(NO_RIGHT), 1L), Map.entry(NO_LEFT.concat(r(10, 6L)), 1L));
    // Move the right row to key 5: it leaves key 6 (unmatched) and matches the left row.
    g.input("r").update(r(10, 6L), r(10, 5L));
    assertThat(run(g)).containsOnly(
        Map.entry(NO_LEFT.concat(r(10, 6L)), -1L),
        Map.entry(l(1, 5L).concat(NO_RIGHT), -1L),
        Map.entry(l(1, 5L).concat(r(10, 5L)), 1L));
    g.input("l").delete(l(1, 5L));
    assertThat(run(g)).containsOnly(
        Map.entry(l(1, 5L).concat(r(10, 5L)), -1L), Map.entry(NO_LEFT.concat(r(10, 5L)), 1L));
  }

  @Test
  void antiJoinKeepsLeftRowsWithoutMatch() {
    Graph g = join(JoinType.ANTI);
    g.input("l").send(l(1, 5L), 2).insert(l(2, 6L));
    assertThat(run(g)).containsOnly(Map.entry(l(1, 5L), 2L), Map.entry(l(2, 6L), 1L));
    g.input("r").send(r(10, 5L), 3);
    assertThat(run(g)).containsOnly(Map.entry(l(1, 5L), -2L));
    g.input("r").send(r(10, 5L), -2);
    assertThat(run(g)).as("still one match").isEmpty();
    g.input("l").insert(l(3, 5L));
    assertThat(run(g)).as("new left row of a matched key").isEmpty();
    g.input("r").delete(r(10, 5L));
    assertThat(run(g)).containsOnly(Map.entry(l(1, 5L), 2L), Map.entry(l(3, 5L), 1L));
  }

  @Test
  void multiColumnKeysMatchOnEveryColumnAcrossNumericTypes() {
    Schema ls = Schema.parse("a INT, b STRING, x INT");
    Schema rs = Schema.parse("a DOUBLE, b STRING, y INT");
    GraphBuilder b = Graph.builder();
    b.output("out", b.input("l", ls).join(b.input("r", rs), JoinType.INNER, List.of("a", "b"), List.of("a", "b")));
    Graph g = b.build();
    g.input("l").insert(Row.of(1, "p", 100)).insert(Row.of(1, "q", 101)).insert(Row.of(2, "p", 102))
        .insert(Row.of(1, null, 103));
    g.input("r").insert(Row.of(1.0, "p", 200)).insert(Row.of(2.5, "p", 201)).insert(Row.of(1, null, 202));
    assertThat(run(g)).containsOnly(Map.entry(Row.of(1, "p", 100, 1, "p", 200), 1L));
    g.input("r").insert(Row.of(2.0, "p", 203));
    assertThat(run(g)).containsOnly(Map.entry(Row.of(2, "p", 102, 2, "p", 203), 1L));
  }

  @Test
  void selfJoinSeesBothSidesOfOneChange() {
    GraphBuilder b = Graph.builder();
    Stream in = b.input("in", L);
    b.output("out", in.join(in, JoinType.INNER, "k", "k"));
    Graph g = b.build();
    g.input("in").insert(l(1, 5L)).insert(l(2, 5L));
    Map<Row, Long> out = run(g);
    assertThat(out).hasSize(4).containsEntry(l(1, 5L).concat(l(2, 5L)), 1L).containsEntry(l(1, 5L).concat(l(1, 5L)), 1L);
    g.input("in").delete(l(1, 5L));
    assertThat(run(g)).containsOnly(
        Map.entry(l(1, 5L).concat(l(1, 5L)), -1L),
        Map.entry(l(1, 5L).concat(l(2, 5L)), -1L),
        Map.entry(l(2, 5L).concat(l(1, 5L)), -1L));
  }

  // ---- naive oracle over random histories --------------------------------------------------

  private static Map<Row, Long> naiveJoin(JoinType type, Map<Row, Long> left, Map<Row, Long> right) {
    Map<Row, Long> out = new HashMap<>();
    Map<Object, Long> rightByKey = new HashMap<>();
    right.forEach((r, w) -> {
      if (r.get(1) != null) {
        rightByKey.merge(r.get(1), w, Long::sum);
      }
    });
    Map<Object, Long> leftByKey = new HashMap<>();
    left.forEach((r, w) -> {
      if (r.get(1) != null) {
        leftByKey.merge(r.get(1), w, Long::sum);
      }
    });
    if (type != JoinType.ANTI) {
      left.forEach((lr, lw) -> right.forEach((rr, rw) -> {
        if (lr.get(1) != null && lr.get(1).equals(rr.get(1))) {
          out.merge(lr.concat(rr), lw * rw, Long::sum);
        }
      }));
    }
    boolean keepLeft = type == JoinType.LEFT || type == JoinType.FULL || type == JoinType.ANTI;
    boolean keepRight = type == JoinType.RIGHT || type == JoinType.FULL;
    if (keepLeft) {
      left.forEach((lr, lw) -> {
        if (lr.get(1) == null || !rightByKey.containsKey(lr.get(1))) {
          out.merge(type == JoinType.ANTI ? lr : lr.concat(NO_RIGHT), lw, Long::sum);
        }
      });
    }
    if (keepRight) {
      right.forEach((rr, rw) -> {
        if (rr.get(1) == null || !leftByKey.containsKey(rr.get(1))) {
          out.merge(NO_LEFT.concat(rr), rw, Long::sum);
        }
      });
    }
    out.values().removeIf(w -> w == 0);
    return out;
  }

  private static void randomChanges(Random rnd, ZSet.Builder batch, Map<Row, Long> contents, boolean isLeft) {
    int n = rnd.nextInt(4);
    for (int i = 0; i < n; i++) {
      Long key = rnd.nextInt(6) == 0 ? null : (long) rnd.nextInt(4);
      Row row = isLeft ? l(rnd.nextInt(5), key) : r(rnd.nextInt(5), key);
      long have = contents.getOrDefault(row, 0L);
      long w = have > 0 && rnd.nextInt(3) > 0 ? -1 - rnd.nextInt((int) have) : 1 + rnd.nextInt(2);
      contents.merge(row, w, Long::sum);
      contents.values().removeIf(c -> c == 0);
      batch.add(row, w);
    }
  }

  @ParameterizedTest
  @EnumSource(JoinType.class)
  void matchesANaiveJoinOverRandomHistory(JoinType type) {
    Random rnd = new Random(17 + type.ordinal());
    Graph g = join(type);
    Map<Row, Long> left = new HashMap<>();
    Map<Row, Long> right = new HashMap<>();
    Map<Row, Long> folded = new LinkedHashMap<>();
    for (int step = 0; step < 400; step++) {
      ZSet.Builder dl = ZSet.builder();
      ZSet.Builder dr = ZSet.builder();
      randomChanges(rnd, dl, left, true);
      randomChanges(rnd, dr, right, false);
      g.input("l").send(dl.build());
      g.input("r").send(dr.build());
      run(g).forEach((row, w) -> folded.merge(row, w, Long::sum));
      folded.values().removeIf(w -> w == 0);
      assertThat(folded).as("%s join, step %d", type, step).isEqualTo(naiveJoin(type, left, right));
    }
  }
}
