package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** reduce: a user function over each changed group, emitting the difference of its outputs. */
class ReduceOperatorTest {
  private static final Schema IN = Schema.parse("g STRING NOT NULL, v INT NOT NULL");
  private static final Schema OUT = Schema.parse("g STRING NOT NULL, total INT NOT NULL, rows INT NOT NULL");

  private final List<Row> reducedKeys = new ArrayList<>();
  private Graph graph;

  /** Sums v and counts rows, recording every call. */
  private ZSet sumReducer(Row key, ZSet group) {
    reducedKeys.add(key);
    long total = 0;
    long rows = 0;
    for (ZSet.Entry e : group) {
      assertThat(e.weight()).as("group weights are positive").isPositive();
      total += e.row().getLong(1) * e.weight();
      rows += e.weight();
    }
    return ZSet.of(Row.of(key.get(0), total, rows));
  }

  @BeforeEach
  void build() {
    GraphBuilder b = Graph.builder();
    b.output("out", b.input("in", IN).reduce(List.of("g"), OUT, this::sumReducer));
    graph = b.build();
  }

  private Map<Row, Long> run() {
    reducedKeys.clear();
    graph.run();
    return graph.output("out").delta().toMap();
  }

  @Test
  void reducesEachGroupAndEmitsTheDifference() {
    graph.input("in").insert(Row.of("a", 1)).insert(Row.of("a", 2)).insert(Row.of("b", 5));
    assertThat(run()).containsOnly(Map.entry(Row.of("a", 3, 2), 1L), Map.entry(Row.of("b", 5, 1), 1L));
    assertThat(reducedKeys).containsExactlyInAnyOrder(Row.of("a"), Row.of("b"));

    graph.input("in").send(Row.of("a", 2), 2);
    assertThat(run()).containsOnly(Map.entry(Row.of("a", 3, 2), -1L), Map.entry(Row.of("a", 7, 4), 1L));
    assertThat(reducedKeys).as("only the changed group is reduced").containsExactly(Row.of("a"));
  }

  @Test
  void emptiedGroupDisappearsWithoutCallingTheReducer() {
    graph.input("in").insert(Row.of("a", 1)).insert(Row.of("b", 2));
    run();
    graph.input("in").delete(Row.of("a", 1));
    assertThat(run()).containsOnly(Map.entry(Row.of("a", 1, 1), -1L));
    assertThat(reducedKeys).as("the reducer never sees an empty group").isEmpty();
    graph.input("in").insert(Row.of("a", 4));
    assertThat(run()).containsOnly(Map.entry(Row.of("a", 4, 1), 1L));
  }

  @Test
  void unchangedOutputEmitsNothing() {
    graph.input("in").insert(Row.of("a", 1)).insert(Row.of("a", 3));
    run();
    // Same total and row count: the group is reduced again but its output is the same.
    graph.input("in").update(Row.of("a", 1), Row.of("a", 2)).update(Row.of("a", 3), Row.of("a", 2));
    assertThat(run()).isEmpty();
    assertThat(reducedKeys).containsExactly(Row.of("a"));
  }

  @Test
  void changesThatCancelWithinARunDoNotTouchTheGroup() {
    graph.input("in").insert(Row.of("a", 1)).insert(Row.of("b", 1));
    run();
    graph.input("in").insert(Row.of("a", 9)).delete(Row.of("a", 9)).insert(Row.of("b", 1));
    assertThat(run()).containsOnly(Map.entry(Row.of("b", 1, 1), -1L), Map.entry(Row.of("b", 2, 2), 1L));
    assertThat(reducedKeys).containsExactly(Row.of("b"));
  }

  @Test
  void examinedCountsOnlyTheChangedGroup() {
    for (int i = 0; i < 500; i++) {
      graph.input("in").insert(Row.of("g" + (i % 50), i));
    }
    run();
    graph.resetCounters();
    graph.input("in").insert(Row.of("g7", 1000));
    run();
    OperatorStats reduce = graph.stats().stream().filter(s -> s.kind().equals("reduce")).findFirst().orElseThrow();
    // One input entry plus the 11 distinct rows of group g7 (10 old + 1 new).
    assertThat(reduce.examined()).isEqualTo(1 + 11);
    assertThat(reducedKeys).containsExactly(Row.of("g7"));
    // Retained: 501 input rows plus one output row per group.
    assertThat(reduce.retained()).isEqualTo(501 + 50);
  }

  @Test
  void reducerMayReturnSeveralRowsOrNone() {
    GraphBuilder b = Graph.builder();
    Schema one = Schema.parse("g STRING NOT NULL, v INT NOT NULL");
    // Keeps the group's rows of even v, each with its multiplicity.
    b.output("out", b.input("in", IN).reduce(List.of("g"), one, (key, group) -> {
      ZSet.Builder out = ZSet.builder();
      for (ZSet.Entry e : group) {
        if (e.row().getLong(1) % 2 == 0) {
          out.add(e.row(), e.weight());
        }
      }
      return out.build();
    }));
    Graph g = b.build();
    g.input("in").send(Row.of("a", 2), 3).insert(Row.of("a", 3));
    g.run();
    assertThat(g.output("out").delta().toMap()).containsOnly(Map.entry(Row.of("a", 2), 3L));
    g.input("in").send(Row.of("a", 2), -3);
    g.run();
    assertThat(g.output("out").delta().toMap()).containsOnly(Map.entry(Row.of("a", 2), -3L));
  }

  @Test
  void reducerOutputIsCheckedAgainstTheSchema() {
    GraphBuilder b = Graph.builder();
    b.output("out", b.input("in", IN).reduce(List.of("g"), OUT, (key, group) -> ZSet.of(Row.of(key.get(0), "x", 1))));
    Graph g = b.build();
    g.input("in").insert(Row.of("a", 1));
    assertThatThrownBy(g::run)
        .isInstanceOf(SchemaException.class)
        .hasMessageContaining("reduce#")
        .hasMessageContaining("'total' expects INT");
    assertThatThrownBy(g::run).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void reducerReturningANegativeMultiplicityIsAViolation() {
    GraphBuilder b = Graph.builder();
    b.output("out", b.input("in", IN).reduce(List.of("g"), IN, (key, group) -> ZSet.of(group.row(0)).negate()));
    Graph g = b.build();
    g.input("in").insert(Row.of("a", 1));
    assertThatThrownBy(g::run)
        .isInstanceOf(InvariantViolation.class)
        .hasMessageContaining("reducer returned")
        .hasMessageContaining("['a', 1]");
  }

  @Test
  void negativeInputMultiplicityIsAViolationNamingTheRow() {
    // The input refuses a retraction of a row it does not hold; a negated stream still gets one through.
    GraphBuilder b = Graph.builder();
    b.output("out", b.input("in", IN).concat(b.input("minus", IN).negate())
        .reduce(List.of("g"), IN, (key, group) -> ZSet.of(group.row(0))));
    Graph g = b.build();
    g.input("in").insert(Row.of("a", 1));
    g.run();
    g.input("minus").send(Row.of("a", 1), 2);
    assertThatThrownBy(g::run)
        .isInstanceOf(InvariantViolation.class)
        .hasMessageContaining("['a', 1]")
        .hasMessageContaining("-1");
    assertThatThrownBy(g::run).isInstanceOf(IllegalStateException.class);
  }
}
