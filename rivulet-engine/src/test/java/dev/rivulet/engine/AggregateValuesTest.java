package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Aggregate values at their edges: count distinct under retractions, sums and averages with NaN
 * and infinities, decimal inputs, and integers beyond 64 bits; the aggregate's own checks.
 */
class AggregateValuesTest {
  private static final Schema S = Schema.parse("k STRING, i INT, d DOUBLE, m DECIMAL, s STRING");

  private static Graph global(Aggregate... aggs) {
    GraphBuilder b = Graph.builder();
    b.output("out", b.input("in", S).groupBy(List.of(), aggs));
    return b.build();
  }

  /** The one row the global aggregate holds after this run (its insertion in the change). */
  private static Row after(Graph g) {
    g.run();
    List<Row> inserted = g.output("out").delta().toMap().entrySet().stream()
        .filter(e -> e.getValue() > 0).map(Map.Entry::getKey).toList();
    assertThat(inserted).as("one inserted row in %s", g.output("out").delta()).hasSize(1);
    return inserted.get(0);
  }

  private static Row d(double v) {
    return Row.of("k", null, v, null, null);
  }

  @Test
  void countDistinctFollowsMultiplicities() {
    Graph g = global(Aggregate.countDistinct("s", "n"), Aggregate.count("s", "c"));
    g.input("in").insert(Row.of("k", null, null, null, "a")).insert(Row.of("k", 1, null, null, "a"))
        .insert(Row.of("k", null, null, null, "b")).insert(Row.of("k", null, null, null, null));
    assertThat(after(g)).isEqualTo(Row.of(2, 3));
    g.input("in").delete(Row.of("k", 1, null, null, "a"));
    assertThat(after(g)).as("one 'a' left").isEqualTo(Row.of(2, 2));
    g.input("in").delete(Row.of("k", null, null, null, "a"));
    assertThat(after(g)).isEqualTo(Row.of(1, 1));
    g.input("in").insert(Row.of("k", 2, null, null, "a"));
    assertThat(after(g)).as("'a' comes back").isEqualTo(Row.of(2, 2));
  }

  @Test
  void countDistinctRetainsOneEntryPerValue() {
    GraphBuilder b = Graph.builder();
    b.output("out", b.input("in", S).groupBy(List.of("k"), Aggregate.countDistinct("s", "n")));
    Graph g = b.build();
    g.input("in").insert(Row.of("k", 1, null, null, "a")).insert(Row.of("k", 2, null, null, "a"))
        .insert(Row.of("k", 3, null, null, "b")).insert(Row.of("k", 4, null, null, "c"));
    g.run();
    OperatorStats stats = g.stats().stream().filter(s -> s.kind().equals("group-by")).findFirst().orElseThrow();
    // One group, three distinct values.
    assertThat(stats.retained()).isEqualTo(1 + 3);
  }

  @Test
  void countDistinctOfAValueNeverAddedIsAViolation() {
    Graph g = global(Aggregate.countDistinct("s", "n"));
    g.input("in").insert(Row.of("k", null, null, null, "a"));
    g.run();
    // The group keeps one row, but value 'b' would have multiplicity -1. The input itself refuses
    // a retraction it does not hold, so the bad change goes through the unchecked shortcut.
    Input in = g.input("in");
    in.send(Row.of("k", null, null, null, "b"), -1, in.schema()).insert(Row.of("k", 1, null, null, "a"));
    assertThatThrownBy(g::run).isInstanceOf(InvariantViolation.class).hasMessageContaining("'b'");
  }

  @Test
  void nanAndInfinitiesAreCountedApartAndRetractable() {
    Graph g = global(Aggregate.sum("d", "s"), Aggregate.avg("d", "a"));
    g.input("in").insert(d(1.5)).insert(d(2.5));
    assertThat(after(g)).isEqualTo(Row.of(4.0, 2.0));
    g.input("in").insert(d(Double.POSITIVE_INFINITY));
    assertThat(after(g)).isEqualTo(Row.of(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY));
    g.input("in").insert(d(Double.NEGATIVE_INFINITY));
    assertThat(after(g)).as("+inf and -inf").isEqualTo(Row.of(Double.NaN, Double.NaN));
    g.input("in").delete(d(Double.POSITIVE_INFINITY));
    assertThat(after(g)).isEqualTo(Row.of(Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY));
    g.input("in").delete(d(Double.NEGATIVE_INFINITY)).insert(d(Double.NaN));
    assertThat(after(g)).isEqualTo(Row.of(Double.NaN, Double.NaN));
    g.input("in").delete(d(Double.NaN));
    assertThat(after(g)).as("finite again, exact").isEqualTo(Row.of(4.0, 2.0));
  }

  @Test
  void nanWinsOverOneInfinity() {
    Graph g = global(Aggregate.sum("d", "s"));
    g.input("in").insert(d(Double.NaN)).insert(d(Double.POSITIVE_INFINITY)).insert(d(1.0));
    assertThat(after(g)).isEqualTo(Row.of(Double.NaN));
  }

  @Test
  void decimalSumsAndAveragesStayDecimal() {
    Graph g = global(Aggregate.sum("m", "s"), Aggregate.avg("m", "a"));
    g.input("in").insert(Row.of("k", null, null, new BigDecimal("0.1"), null))
        .insert(Row.of("k", null, null, new BigDecimal("0.25"), null));
    Row r = after(g);
    assertThat(r).isEqualTo(Row.of(new BigDecimal("0.35"), new BigDecimal("0.175")));
    assertThat(r.get(1)).isInstanceOf(BigDecimal.class);
    g.input("in").insert(Row.of("k", null, null, 0.5, null)); // a double in a DECIMAL column
    assertThat(after(g)).isEqualTo(Row.of(new BigDecimal("0.85"), new BigDecimal("0.85").divide(BigDecimal.valueOf(3),
        java.math.MathContext.DECIMAL128)));
  }

  @Test
  void integerSumMeetingAHugeIntegerStaysExact() {
    // 1e19 is beyond 64 bits, so an INT column holds it as its canonical Double: an exact integer,
    // not a double, so the sum (DECIMAL over INT) is exact, not rounded to a double.
    Graph g = global(Aggregate.sum("i", "s"));
    g.input("in").insert(Row.of("k", 1e19, null, null, null)).insert(Row.of("k", 1, null, null, null));
    Object sum = after(g).get(0);
    assertThat(sum).isEqualTo(new BigDecimal("10000000000000000001"));
    g.input("in").delete(Row.of("k", 1e19, null, null, null));
    assertThat(after(g)).isEqualTo(Row.of(1));
  }

  @Test
  void countRowsTakesNoColumnAndTheOthersNeedOne() {
    assertThatThrownBy(() -> new Aggregate(Aggregate.Kind.COUNT_ROWS, "i", "n"))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("COUNT_ROWS takes no column");
    assertThatThrownBy(() -> new Aggregate(Aggregate.Kind.SUM, null, "s"))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("SUM needs an input column");
    assertThat(Aggregate.countDistinct("s", "n")).isEqualTo(new Aggregate(Aggregate.Kind.COUNT_DISTINCT, "s", "n"));
  }

  @Test
  void aggregatesOverTheFirstColumnKeepItsType() {
    GraphBuilder b = Graph.builder();
    b.output("out", b.input("in", Schema.parse("m DECIMAL, k STRING"))
        .groupBy(List.of(), Aggregate.sum("m", "s"), Aggregate.avg("m", "a"), Aggregate.count("m", "c")));
    Graph g = b.build();
    g.input("in").insert(Row.of(new BigDecimal("0.1"), "x")).insert(Row.of(new BigDecimal("0.25"), "y"));
    Row r = after(g);
    assertThat(r).isEqualTo(Row.of(new BigDecimal("0.35"), new BigDecimal("0.175"), 2));
    // 0.175 has no exact double, so its canonical form stays a decimal unless the average went through a double.
    assertThat(r.get(1)).as("avg over DECIMAL is DECIMAL").isInstanceOf(BigDecimal.class);
  }
}
