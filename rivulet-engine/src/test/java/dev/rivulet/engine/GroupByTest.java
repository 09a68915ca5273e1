package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** group-by with SQL aggregates: count(*), count, sum, avg, min, max. */
class GroupByTest {
  private static final Schema SALES = Schema.parse("region STRING, amount INT, price DOUBLE, note STRING");

  private static Graph graph(List<String> keys, Aggregate... aggs) {
    GraphBuilder b = Graph.builder();
    b.output("out", b.input("in", SALES).groupBy(keys, aggs));
    return b.build();
  }

  private static Map<Row, Long> run(Graph g) {
    g.run();
    return g.output("out").delta().toMap();
  }

  private static Row sale(String region, Long amount, Double price, String note) {
    return Row.of(region, amount, price, note);
  }

  @Test
  void outputSchemaHasKeysThenAggregatesWithSqlTypes() {
    GraphBuilder b = Graph.builder();
    Stream s = b.input("in", Schema.parse("k STRING NOT NULL, i INT, d DOUBLE, m DECIMAL"))
        .groupBy(List.of("k"), Aggregate.countRows("n"), Aggregate.count("i", "ci"), Aggregate.sum("i", "si"),
            Aggregate.sum("d", "sd"), Aggregate.avg("i", "ai"), Aggregate.avg("m", "am"), Aggregate.min("d", "mind"));
    assertThat(s.schema().names()).containsExactly("k", "n", "ci", "si", "sd", "ai", "am", "mind");
    assertThat(s.schema().columns().stream().map(Column::type).toList()).containsExactly(
        ColumnType.STRING, ColumnType.INT, ColumnType.INT, ColumnType.DECIMAL, ColumnType.DOUBLE, ColumnType.DOUBLE,
        ColumnType.DECIMAL, ColumnType.DOUBLE);
    assertThat(s.schema().column(1).nullable()).isFalse();
    assertThat(s.schema().column(2).nullable()).isFalse();
    assertThat(s.schema().column(3).nullable()).isTrue();
  }

  @Test
  void countStarCountsRowsAndCountColumnIgnoresNulls() {
    Graph g = graph(List.of("region"), Aggregate.countRows("n"), Aggregate.count("amount", "c"));
    g.input("in").insert(sale("eu", 1L, null, null)).insert(sale("eu", null, null, null))
        .send(sale("eu", 3L, null, null), 2).insert(sale("us", null, null, null));
    assertThat(run(g)).containsOnly(Map.entry(Row.of("eu", 4, 3), 1L), Map.entry(Row.of("us", 1, 0), 1L));
  }

  @Test
  void sumAvgMinMaxPerGroup() {
    Graph g = graph(List.of("region"), Aggregate.sum("amount", "s"), Aggregate.avg("amount", "a"),
        Aggregate.min("amount", "lo"), Aggregate.max("amount", "hi"), Aggregate.min("note", "first"));
    g.input("in").insert(sale("eu", 1L, null, "m")).insert(sale("eu", 2L, null, "b")).insert(sale("eu", null, null, null))
        .insert(sale("us", null, null, null));
    assertThat(run(g)).containsOnly(
        Map.entry(Row.of("eu", 3, 1.5, 1, 2, "b"), 1L),
        Map.entry(Row.of("us", null, null, null, null, null), 1L));
    g.input("in").insert(sale("us", 10L, null, "z"));
    assertThat(run(g)).containsOnly(
        Map.entry(Row.of("us", null, null, null, null, null), -1L),
        Map.entry(Row.of("us", 10, 10, 10, 10, "z"), 1L));
  }

  @Test
  void nullIsAGroupKeyLikeAnyOther() {
    Graph g = graph(List.of("region"), Aggregate.countRows("n"));
    g.input("in").insert(sale(null, 1L, null, null)).insert(sale(null, 2L, null, null));
    assertThat(run(g)).containsOnly(Map.entry(Row.of(null, 2), 1L));
  }

  @Test
  void emptyGroupDisappearsAndComesBackFresh() {
    Graph g = graph(List.of("region"), Aggregate.countRows("n"), Aggregate.max("amount", "hi"));
    g.input("in").insert(sale("eu", 5L, null, null)).insert(sale("us", 1L, null, null));
    run(g);
    g.input("in").delete(sale("eu", 5L, null, null));
    assertThat(run(g)).containsOnly(Map.entry(Row.of("eu", 1, 5), -1L));
    g.input("in").insert(sale("eu", 2L, null, null));
    assertThat(run(g)).as("no trace of the old max").containsOnly(Map.entry(Row.of("eu", 1, 2), 1L));
  }

  @Test
  void unchangedAggregatesEmitNothing() {
    Graph g = graph(List.of("region"), Aggregate.sum("amount", "s"));
    g.input("in").insert(sale("eu", 5L, null, null));
    run(g);
    g.input("in").update(sale("eu", 5L, null, null), sale("eu", 5L, null, "renamed"));
    assertThat(run(g)).isEmpty();
    assertThat(g.output("out").deltaSize()).isZero();
  }

  @Test
  void globalAggregateHasOneRowEvenOverNoInput() {
    Graph g = graph(List.of(), Aggregate.countRows("n"), Aggregate.sum("amount", "s"), Aggregate.min("amount", "lo"),
        Aggregate.count("amount", "c"));
    assertThat(run(g)).as("first run, no input").containsOnly(Map.entry(Row.of(0, null, null, 0), 1L));
    g.input("in").insert(sale("eu", 4L, null, null)).insert(sale("us", 6L, null, null));
    assertThat(run(g)).containsOnly(
        Map.entry(Row.of(0, null, null, 0), -1L), Map.entry(Row.of(2, 10, 4, 2), 1L));
    g.input("in").delete(sale("eu", 4L, null, null)).delete(sale("us", 6L, null, null));
    assertThat(run(g)).as("back to empty: the row stays").containsOnly(
        Map.entry(Row.of(2, 10, 4, 2), -1L), Map.entry(Row.of(0, null, null, 0), 1L));
    assertThat(run(g)).as("a run with no input changes nothing").isEmpty();
  }

  @Test
  void globalAggregateStartsAtTheFirstRunEvenWithInput() {
    Graph g = graph(List.of(), Aggregate.countRows("n"));
    g.input("in").insert(sale("eu", 4L, null, null));
    assertThat(run(g)).containsOnly(Map.entry(Row.of(1), 1L));
  }

  @Test
  void minAndMaxSurviveRetractingTheCurrentExtreme() {
    Graph g = graph(List.of("region"), Aggregate.min("amount", "lo"), Aggregate.max("amount", "hi"));
    g.input("in").insert(sale("eu", 1L, null, null)).send(sale("eu", 5L, null, "x"), 2).insert(sale("eu", 3L, null, null))
        .insert(sale("eu", 5L, null, "y"));
    assertThat(run(g)).containsOnly(Map.entry(Row.of("eu", 1, 5), 1L));
    g.input("in").delete(sale("eu", 1L, null, null));
    assertThat(run(g)).containsOnly(Map.entry(Row.of("eu", 1, 5), -1L), Map.entry(Row.of("eu", 3, 5), 1L));
    // Three rows carry the max 5; removing two of them keeps it.
    g.input("in").send(sale("eu", 5L, null, "x"), -2);
    assertThat(run(g)).isEmpty();
    g.input("in").delete(sale("eu", 5L, null, "y"));
    assertThat(run(g)).containsOnly(Map.entry(Row.of("eu", 3, 5), -1L), Map.entry(Row.of("eu", 3, 3), 1L));
  }

  @Test
  void sumOfDoublesIsExactWhateverTheOrder() {
    for (List<Double> order : List.of(List.of(0.1, 0.2), List.of(0.2, 0.1))) {
      Graph g = graph(List.of(), Aggregate.sum("price", "s"), Aggregate.avg("price", "a"));
      for (Double d : order) {
        g.input("in").insert(sale("eu", null, d, null));
        run(g);
      }
      g.input("in").delete(sale("eu", null, 0.1, null));
      Map<Row, Long> out = run(g);
      assertThat(0.1 + 0.2 - 0.1).as("naive double arithmetic drifts").isNotEqualTo(0.2);
      Row expected = Row.of(0.2, 0.2);
      assertThat(out).as("order %s", order).containsEntry(expected, 1L);
    }
  }

  @Test
  void sumIsExactAcrossMagnitudes() {
    Graph g = graph(List.of(), Aggregate.sum("price", "s"));
    g.input("in").insert(sale("a", null, 1e20, null)).insert(sale("b", null, 1.0, null)).insert(sale("c", null, -1e20, null));
    Map<Row, Long> out = run(g);
    assertThat((1e20 + 1.0) + -1e20).as("naive").isEqualTo(0.0);
    assertThat(out).containsEntry(Row.of(1), 1L);
  }

  @Test
  void sumOfShuffledDoublesIsTheRoundedExactSum() {
    Random rnd = new Random(23);
    List<Double> values = new ArrayList<>();
    BigDecimal exact = BigDecimal.ZERO;
    for (int i = 0; i < 200; i++) {
      double d = (rnd.nextDouble() - 0.5) * Math.pow(10, rnd.nextInt(12));
      values.add(d);
      exact = exact.add(new BigDecimal(d));
    }
    Object expected = Values.canonical(exact.doubleValue());
    for (int trial = 0; trial < 3; trial++) {
      Collections.shuffle(values, rnd);
      Graph g = graph(List.of(), Aggregate.sum("price", "s"));
      for (int i = 0; i < values.size(); i += 7) {
        for (int j = i; j < Math.min(i + 7, values.size()); j++) {
          g.input("in").insert(sale("r" + j, null, values.get(j), null));
        }
        run(g);
      }
      assertThat(g.output("out").delta().toMap()).containsEntry(Row.of(expected), 1L);
    }
  }

  @Test
  void integerSumsStayExactPastLongRange() {
    Graph g = graph(List.of(), Aggregate.sum("amount", "s"));
    g.input("in").insert(sale("a", Long.MAX_VALUE, null, null)).insert(sale("b", Long.MAX_VALUE, null, null));
    BigDecimal twice = BigDecimal.valueOf(Long.MAX_VALUE).multiply(BigDecimal.valueOf(2));
    assertThat(run(g)).containsEntry(Row.of(twice), 1L);
    g.input("in").delete(sale("b", Long.MAX_VALUE, null, null)).insert(sale("c", -5L, null, null));
    assertThat(run(g)).containsEntry(Row.of(Long.MAX_VALUE - 5), 1L);
  }

  @Test
  void groupByMatchesANaiveRecomputationOverRandomHistory() {
    Random rnd = new Random(8);
    Graph g = graph(List.of("region"), Aggregate.countRows("n"), Aggregate.count("amount", "c"),
        Aggregate.sum("amount", "s"), Aggregate.min("amount", "lo"), Aggregate.max("amount", "hi"));
    Map<Row, Long> contents = new HashMap<>();
    Map<Row, Long> folded = new HashMap<>();
    for (int step = 0; step < 300; step++) {
      for (int i = 0; i < 1 + rnd.nextInt(3); i++) {
        Row row = sale("r" + rnd.nextInt(3), rnd.nextInt(4) == 0 ? null : (long) rnd.nextInt(10), null, null);
        long have = contents.getOrDefault(row, 0L);
        long w = have > 0 && rnd.nextBoolean() ? -1 : 1;
        contents.merge(row, w, Long::sum);
        contents.values().removeIf(c -> c == 0);
        g.input("in").send(row, w);
      }
      run(g).forEach((r, w) -> folded.merge(r, w, Long::sum));
      folded.values().removeIf(w -> w == 0);
      assertThat(folded).as("step %d", step).isEqualTo(naiveGroupBy(contents));
    }
  }

  private static Map<Row, Long> naiveGroupBy(Map<Row, Long> contents) {
    Map<Object, List<Row>> groups = new HashMap<>();
    contents.forEach((row, w) -> {
      for (long i = 0; i < w; i++) {
        groups.computeIfAbsent(row.get(0), k -> new ArrayList<>()).add(row);
      }
    });
    Map<Row, Long> out = new HashMap<>();
    groups.forEach((key, rows) -> {
      List<Long> amounts = rows.stream().filter(r -> !r.isNull(1)).map(r -> r.getLong(1)).toList();
      Object sum = amounts.isEmpty() ? null : amounts.stream().mapToLong(Long::longValue).sum();
      Object lo = amounts.stream().min(Long::compare).orElse(null);
      Object hi = amounts.stream().max(Long::compare).orElse(null);
      out.put(Row.of(key, rows.size(), amounts.size(), sum, lo, hi), 1L);
    });
    return out;
  }

  @Test
  void negativeGroupSizeIsAViolation() {
    // The input refuses a retraction of a row it does not hold; a negated stream still gets one through.
    GraphBuilder b = Graph.builder();
    b.output("out", b.input("in", SALES).concat(b.input("minus", SALES).negate())
        .groupBy(List.of("region"), Aggregate.countRows("n")));
    Graph g = b.build();
    g.input("minus").insert(sale("eu", 1L, null, null));
    assertThatThrownBy(g::run)
        .isInstanceOf(InvariantViolation.class)
        .hasMessageContaining("group-by")
        .hasMessageContaining("['eu']");
    assertThatThrownBy(g::run).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void sumOfANonNumericColumnIsRejectedAtBuildTime() {
    GraphBuilder b = Graph.builder();
    Stream in = b.input("in", SALES);
    assertThatThrownBy(() -> in.groupBy(List.of("region"), Aggregate.sum("note", "s")))
        .isInstanceOf(WiringException.class)
        .hasMessageContaining("sum(note)")
        .hasMessageContaining("STRING");
    assertThatThrownBy(() -> in.groupBy(List.of("region"), Aggregate.countRows("region")))
        .isInstanceOf(WiringException.class)
        .hasMessageContaining("duplicate column 'region'");
  }
}
