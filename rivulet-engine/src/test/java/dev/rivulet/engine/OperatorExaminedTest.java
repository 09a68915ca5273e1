package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/**
 * Each operator's work counter ({@link OperatorStats#examined}) counts the entries it consumed in a
 * run, and accumulates over runs until {@link Graph#resetCounters}.
 */
class OperatorExaminedTest {
  private static final Schema S = Schema.parse("id INT NOT NULL, grp STRING, score INT");

  /** Sends 3 rows (one of them twice as separate entries), runs, then 2 more; returns the counter of {@code kind}. */
  private static long[] examined(String kind, BiFunction<GraphBuilder, Stream, Stream> shape) {
    GraphBuilder b = Graph.builder();
    b.output("out", shape.apply(b, b.input("in", S)));
    Graph g = b.build();
    g.input("in").insert(Row.of(1, "a", 5)).insert(Row.of(2, "b", 7)).insert(Row.of(3, "a", 9)).insert(Row.of(3, "a", 9));
    g.run();
    long first = stats(g, kind).examined();
    g.input("in").delete(Row.of(1, "a", 5)).insert(Row.of(4, "c", 1));
    g.run();
    long second = stats(g, kind).examined();
    g.resetCounters();
    return new long[] {first, second, stats(g, kind).examined()};
  }

  private static OperatorStats stats(Graph g, String kind) {
    List<OperatorStats> found = g.stats().stream().filter(s -> s.kind().equals(kind)).toList();
    assertThat(found).as("one %s operator in %s", kind, g.stats()).hasSize(1);
    return found.get(0);
  }

  @Test
  void linearOperatorsCountEveryEntryTheyConsume() {
    assertThat(examined("map", (b, s) -> s.map(S, r -> r))).containsExactly(4, 6, 0);
    assertThat(examined("negate", (b, s) -> s.negate())).containsExactly(4, 6, 0);
    assertThat(examined("flatMap", (b, s) -> s.flatMap(S, r -> List.of(r, r)))).containsExactly(4, 6, 0);
    assertThat(examined("filter", (b, s) -> s.filter(r -> r.getLong(0) > 1))).containsExactly(4, 6, 0);
  }

  @Test
  void consolidatingOperatorsCountTheEntriesLeftAfterConsolidation() {
    // The two inserts of row 3 consolidate into one entry before the operator counts.
    assertThat(examined("consolidate", (b, s) -> s.consolidate())).containsExactly(4, 6, 0);
    assertThat(examined("distinct", (b, s) -> s.distinct())).containsExactly(3, 5, 0);
    assertThat(examined("group-by", (b, s) -> s.groupBy(List.of("grp"), Aggregate.countRows("n"))))
        .containsExactly(4, 6, 0);
  }

  @Test
  void concatCountsTheEntriesOfEveryInput() {
    // First run: 4 entries plus the filtered copies of row 3 (2); second: 2 plus none.
    assertThat(examined("concat", (b, s) -> s.concat(s.filter(r -> r.getLong(0) == 3)))).containsExactly(6, 8, 0);
  }

  @Test
  void forwardCountsItsInput() {
    assertThat(examined("forward", (b, s) -> {
      Stream f = b.forward("f", S);
      b.bind(f, s);
      return f;
    })).containsExactly(4, 6, 0);
  }

  @Test
  void topKHydrationCountsItsInputAndTheDistinctRowsItLoads() {
    for (BiFunction<GraphBuilder, Stream, Stream> shape : List.<BiFunction<GraphBuilder, Stream, Stream>>of(
        (b, s) -> s.topK(List.of(SortKey.asc("score")), 0, 2),
        (b, s) -> s.topK(List.of("grp"), List.of(SortKey.asc("score")), 0, 1))) {
      // 4 entries in; 3 distinct rows loaded (row 3 twice).
      assertThat(examined("top-k", shape)[0]).isEqualTo(4 + 3);
    }
  }
}
