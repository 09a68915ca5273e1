package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** distinct: a row is present once while its multiplicity is positive. */
class DistinctOperatorTest {
  private static final Schema S = Schema.parse("k STRING, v INT");
  private static final Row A = Row.of("a", 1);
  private static final Row B = Row.of("b", 2);

  private static Graph graph() {
    GraphBuilder b = Graph.builder();
    b.output("out", b.input("in", S).distinct());
    return b.build();
  }

  private static Map<Row, Long> step(Graph g, Row row, long weight) {
    g.input("in").send(row, weight);
    g.run();
    return g.output("out").delta().toMap();
  }

  @Test
  void emitsOnlyWhenMultiplicityCrossesZero() {
    Graph g = graph();
    assertThat(step(g, A, 1)).containsOnly(Map.entry(A, 1L));
    assertThat(step(g, A, 2)).as("1 -> 3: no change").isEmpty();
    assertThat(step(g, A, -2)).as("3 -> 1: no change").isEmpty();
    assertThat(step(g, A, -1)).as("1 -> 0").containsOnly(Map.entry(A, -1L));
    assertThat(step(g, A, 5)).as("0 -> 5: once").containsOnly(Map.entry(A, 1L));
    assertThat(step(g, A, -5)).containsOnly(Map.entry(A, -1L));
  }

  @Test
  void aRiseAndFallWithinOneRunEmitsNothing() {
    Graph g = graph();
    g.input("in").insert(A).delete(A).insert(B).insert(B);
    g.run();
    assertThat(g.output("out").delta().toMap()).containsOnly(Map.entry(B, 1L));
    // A retraction and re-insertion of a present row in one run is no change at all.
    g.input("in").delete(B).insert(B);
    g.run();
    assertThat(g.output("out").delta().isEmpty()).isTrue();
  }

  @Test
  void nullsAreOrdinaryValues() {
    Graph g = graph();
    Row n = Row.of(null, null);
    assertThat(step(g, n, 2)).containsOnly(Map.entry(n, 1L));
    assertThat(step(g, Row.of(null, null), -1)).isEmpty();
    assertThat(step(g, n, -1)).containsOnly(Map.entry(n, -1L));
  }

  @Test
  void matchesANaiveSetOverRandomHistory() {
    Random rnd = new Random(5);
    Graph g = graph();
    Map<Row, Long> counts = new HashMap<>();
    Map<Row, Long> visible = new LinkedHashMap<>();
    for (int step = 0; step < 300; step++) {
      ZSet.Builder batch = ZSet.builder();
      Map<Row, Long> pending = new HashMap<>(counts);
      for (int i = 0; i < 1 + rnd.nextInt(4); i++) {
        Row r = Row.of("k" + rnd.nextInt(5), rnd.nextInt(2));
        long have = pending.getOrDefault(r, 0L);
        long w = have > 0 && rnd.nextBoolean() ? -1 - rnd.nextInt((int) have) : 1 + rnd.nextInt(2);
        pending.merge(r, w, Long::sum);
        batch.add(r, w);
      }
      g.input("in").send(batch.build());
      g.run();
      counts = pending;
      g.output("out").delta().toMap().forEach((r, w) -> visible.merge(r, w, Long::sum));
      visible.values().removeIf(w -> w == 0);
      Map<Row, Long> expected = new HashMap<>();
      counts.forEach((r, c) -> {
        if (c > 0) {
          expected.put(r, 1L);
        }
      });
      assertThat(visible).as("step %d", step).isEqualTo(expected);
    }
  }

  /**
   * distinct over {@code in - minus}: the input refuses to retract what it does not hold, so a
   * negative multiplicity can only reach an operator through wiring such as a negated stream.
   */
  private static Graph signedGraph() {
    GraphBuilder b = Graph.builder();
    b.output("out", b.input("in", S).concat(b.input("minus", S).negate()).distinct());
    return b.build();
  }

  @Test
  void negativeMultiplicityIsAnInvariantViolationNamingTheRow() {
    Graph g = signedGraph();
    g.input("in").insert(A);
    g.run();
    g.input("minus").insert(B);
    assertThatThrownBy(g::run)
        .isInstanceOf(InvariantViolation.class)
        .hasMessageContaining("distinct")
        .hasMessageContaining(B.toString())
        .hasMessageContaining("-1");
    assertThatThrownBy(g::run)
        .isInstanceOf(IllegalStateException.class)
        .hasCauseInstanceOf(InvariantViolation.class);
    assertThat(g.runs()).isEqualTo(1);
  }

  @Test
  void overRetractingAPresentRowIsAlsoAViolation() {
    Graph g = signedGraph();
    g.input("in").send(A, 2);
    g.run();
    g.input("minus").send(A, 3);
    assertThatThrownBy(g::run)
        .isInstanceOf(InvariantViolation.class)
        .hasMessageContaining(A.toString())
        .hasMessageContaining("-1");
    assertThatThrownBy(g::run).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void theInputRefusesARetractionOfARowItDoesNotHoldAndDistinctKeepsWorking() {
    Graph g = graph();
    step(g, A, 2);
    assertThatThrownBy(() -> g.input("in").send(A, -3))
        .isInstanceOf(RivuletException.class)
        .hasMessageContaining(A.toString())
        .hasMessageContaining("holds 2 copies");
    assertThatThrownBy(() -> g.input("in").send(B, -1)).hasMessageContaining("holds 0 copies");
    assertThat(step(g, A, -2)).containsOnly(Map.entry(A, -1L));
  }

  @Test
  void retainsOneEntryPerPresentRow() {
    Graph g = graph();
    g.input("in").send(A, 3).send(B, 1);
    g.run();
    assertThat(distinctRetained(g)).isEqualTo(2);
    step(g, B, -1);
    assertThat(distinctRetained(g)).isEqualTo(1);
    step(g, A, -3);
    assertThat(distinctRetained(g)).isZero();
  }

  private static long distinctRetained(Graph g) {
    return g.stats().stream().filter(s -> s.kind().equals("distinct")).findFirst().orElseThrow().retained();
  }
}
