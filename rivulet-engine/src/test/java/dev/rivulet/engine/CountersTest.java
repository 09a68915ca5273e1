package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Work and space counters: a small change examines a small number of rows, whatever the size of
 * the state, and retained counters follow the state's size. These are counts, not timings.
 */
class CountersTest {
  private static final Schema S = Schema.parse("id INT NOT NULL, grp STRING, score INT");

  private static OperatorStats stats(Graph g, String kind) {
    List<OperatorStats> found = g.stats().stream().filter(s -> s.kind().equals(kind)).toList();
    assertThat(found).as("one %s operator in %s", kind, g.stats()).hasSize(1);
    return found.get(0);
  }

  private static OperatorStats named(Graph g, String name) {
    return g.stats().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
  }

  private static Row row(long id, String grp, long score) {
    return Row.of(id, grp, score);
  }

  /** Loads n rows with scores 0, 2, 4, ... into a graph built by {@code shape}. */
  private static Graph loaded(int n, java.util.function.Function<Stream, Stream> shape) {
    GraphBuilder b = Graph.builder();
    b.output("out", shape.apply(b.input("in", S)));
    Graph g = b.build();
    ZSet.Builder batch = ZSet.builder();
    for (long i = 0; i < n; i++) {
      batch.insert(row(i, "g" + (i % 10), 2 * i));
    }
    g.input("in").send(batch.build());
    g.run();
    return g;
  }

  /** Examined rows of the top-K for each of a few single-row updates after loading n rows. */
  private static long[] topKExaminedPerUpdate(int n, java.util.function.Function<Stream, Stream> shape) {
    Graph g = loaded(n, shape);
    long mid = n / 2;
    Row[][] updates = {
        {row(mid, "g" + (mid % 10), 2 * mid), row(mid, "g" + (mid % 10), 1)}, // enters the window
        {row(3, "g3", 6), row(3, "g3", 3L * n)}, // leaves the window for the end
        {row(mid + 1, "g" + ((mid + 1) % 10), 2 * (mid + 1)), row(mid + 1, "g" + ((mid + 1) % 10), 2 * mid + 3)},
        {null, row(n + 7L, "g7", 5)}, // a pure insert into the window
        {row(0, "g0", 0), null}, // a pure delete from the window
    };
    long[] out = new long[updates.length];
    for (int i = 0; i < updates.length; i++) {
      if (updates[i][0] != null) {
        g.input("in").delete(updates[i][0]);
      }
      if (updates[i][1] != null) {
        g.input("in").insert(updates[i][1]);
      }
      g.resetCounters();
      g.run();
      out[i] = stats(g, "top-k").examined();
      assertThat(g.examined()).as("whole graph, update %d over %d rows", i, n).isLessThan(64 + 8);
    }
    return out;
  }

  private static void assertTopKUpdatesAreSmallAndSizeIndependent(java.util.function.Function<Stream, Stream> shape) {
    long[] small = topKExaminedPerUpdate(1_000, shape);
    long[] large = topKExaminedPerUpdate(100_000, shape);
    for (int i = 0; i < small.length; i++) {
      assertThat(large[i]).as("update %d over 100,000 rows", i).isLessThan(64);
      assertThat(small[i]).as("update %d over 1,000 rows", i).isLessThan(64);
      assertThat(Math.abs(large[i] - small[i])).as("update %d: 1,000 vs 100,000 rows (%d vs %d)", i, small[i], large[i])
          .isLessThanOrEqualTo(4);
    }
  }

  @Test
  void topKSingleRowUpdateExaminesAConstantNumberOfRows() {
    assertTopKUpdatesAreSmallAndSizeIndependent(s -> s.topK(List.of(SortKey.asc("score")), 0, 10));
  }

  @Test
  void topKWithOffsetSingleRowUpdateExaminesAConstantNumberOfRows() {
    assertTopKUpdatesAreSmallAndSizeIndependent(s -> s.topK(List.of(SortKey.asc("score")), 5, 20));
  }

  @Test
  void unlimitedOrderBySingleRowUpdateExaminesAConstantNumberOfRows() {
    assertTopKUpdatesAreSmallAndSizeIndependent(s -> s.orderBy(SortKey.asc("score")));
  }

  @Test
  void partitionedTopKSingleRowUpdateExaminesAConstantNumberOfRows() {
    assertTopKUpdatesAreSmallAndSizeIndependent(s -> s.topK(List.of("grp"), List.of(SortKey.asc("score")), 0, 10));
  }

  @Test
  void topKRetainsOneEntryPerDistinctRow() {
    Graph g = loaded(1_000, s -> s.topK(List.of(SortKey.asc("score")), 0, 10));
    assertThat(stats(g, "top-k").retained()).isEqualTo(1_000);
    g.input("in").send(row(1, "g1", 2), 4); // more copies of a present row: no new entry
    g.input("in").delete(row(2, "g2", 4));
    g.run();
    assertThat(stats(g, "top-k").retained()).isEqualTo(999);
  }

  @Test
  void joinUpdateExaminesOnlyTheMatchingKeysRows() {
    long[] examined = new long[2];
    int[] keyCounts = {5_000, 20_000}; // both hydrations packed (KeyIndex.BULK_AT): the same regime
    for (int t = 0; t < 2; t++) {
      GraphBuilder b = Graph.builder();
      Schema left = Schema.parse("id INT NOT NULL, k INT NOT NULL");
      Schema right = Schema.parse("rid INT NOT NULL, k INT NOT NULL");
      b.output("out", b.input("l", left).join(b.input("r", right), JoinType.INNER, "k", "k"));
      Graph g = b.build();
      ZSet.Builder rs = ZSet.builder();
      for (long k = 0; k < keyCounts[t]; k++) {
        for (long j = 0; j < 3; j++) {
          rs.insert(Row.of(k * 3 + j, k));
        }
      }
      g.input("r").send(rs.build());
      ZSet.Builder ls = ZSet.builder();
      for (long k = 0; k < keyCounts[t]; k++) {
        ls.insert(Row.of(k, k));
      }
      g.input("l").send(ls.build());
      g.run();
      assertThat(stats(g, "inner-join").retained()).isEqualTo(4L * keyCounts[t]);

      g.resetCounters();
      g.input("l").insert(Row.of(-1, 5));
      g.run();
      assertThat(g.output("out").delta().size()).isEqualTo(3);
      examined[t] = stats(g, "inner-join").examined();
      // One input row plus the three right rows of key 5.
      assertThat(examined[t]).as("%d keys", keyCounts[t]).isBetween(4L, 8L);

      g.resetCounters();
      g.input("r").delete(Row.of(15, 5)); // right row of key 5: meets the two left rows of key 5
      g.run();
      assertThat(g.output("out").delta().size()).isEqualTo(2);
      assertThat(stats(g, "inner-join").examined()).isBetween(3L, 8L);
    }
    assertThat(examined[1]).isEqualTo(examined[0]);
  }

  @Test
  void outerJoinTransitionExaminesOnlyTheKeysPartnerRows() {
    GraphBuilder b = Graph.builder();
    Schema left = Schema.parse("id INT NOT NULL, k INT NOT NULL");
    b.output("out", b.input("l", left).join(b.input("r", left), JoinType.LEFT, "k", "k"));
    Graph g = b.build();
    for (long i = 0; i < 5_000; i++) {
      g.input("l").insert(Row.of(i, i % 1_000)); // five left rows per key
    }
    g.run();
    g.resetCounters();
    g.input("r").insert(Row.of(1, 7L)); // key 7 gains its first right row
    g.run();
    // Five null-extended rows retracted and five joined rows emitted.
    assertThat(g.output("out").delta().size()).isEqualTo(10);
    assertThat(stats(g, "left-join").examined()).isBetween(6L, 16L);
  }

  @Test
  void retainedCountersFollowStateSizes() {
    GraphBuilder b = Graph.builder();
    Stream in = b.input("in", S);
    Stream other = b.input("other", Schema.parse("grp STRING, label STRING"));
    b.output("distinct", in.distinct());
    b.output("join", in.join(other, JoinType.LEFT, "grp", "grp"));
    b.output("groups", in.groupBy(List.of("grp"), Aggregate.countRows("n"), Aggregate.max("score", "hi")));
    b.output("mapped", in.map(S, r -> r));
    Graph g = b.build();
    g.input("in").insert(row(1, "a", 1)).send(row(2, "a", 2), 2).insert(row(3, "a", 2)).insert(row(4, "b", 5))
        .insert(Row.of(5, null, 9));
    g.input("other").insert(Row.of("a", "x")).insert(Row.of(null, "y"));
    g.run();

    assertThat(stats(g, "distinct").retained()).isEqualTo(5);
    // Left side: 4 rows with a non-null key (row 5 has a null key and is not indexed); right: 1.
    assertThat(stats(g, "left-join").retained()).isEqualTo(4 + 1);
    // Groups a, b, null; per group one count(*) entry plus the distinct max candidates:
    // a {1, 2}, b {5}, null {9}.
    assertThat(stats(g, "group-by").retained()).isEqualTo(3 + 3 + (2 + 1 + 1));
    assertThat(stats(g, "map").retained()).isZero();
    // An input retains its distinct rows (to check retractions against them); an output nothing.
    assertThat(named(g, "input:in").retained()).isEqualTo(5);
    assertThat(named(g, "input:other").retained()).isEqualTo(2);
    assertThat(g.stats().stream().filter(s -> s.kind().equals("output")))
        .hasSize(4)
        .allMatch(s -> s.retained() == 0);
    long sum = g.stats().stream().mapToLong(OperatorStats::retained).sum();
    assertThat(g.retained()).isEqualTo(sum);

    g.input("in").delete(row(1, "a", 1)).delete(row(4, "b", 5)).send(row(2, "a", 2), -1);
    g.run();
    assertThat(stats(g, "distinct").retained()).isEqualTo(3);
    assertThat(stats(g, "left-join").retained()).isEqualTo(2 + 1);
    assertThat(stats(g, "group-by").retained()).isEqualTo(2 + 2 + (1 + 1));
    assertThat(named(g, "input:in").retained()).isEqualTo(3);
  }

  @Test
  void statsNameAndCountEachOperator() {
    GraphBuilder b = Graph.builder();
    Stream in = b.input("in", S);
    b.output("out", in.filter(r -> r.getLong(0) % 2 == 0).named("evens"));
    Graph g = b.build();
    for (long i = 0; i < 10; i++) {
      g.input("in").insert(row(i, "g", i));
    }
    g.run();
    assertThat(g.stats()).extracting(OperatorStats::name).containsExactly("input:in", "evens", "output:out");
    assertThat(g.stats()).extracting(OperatorStats::examined).containsExactly(10L, 10L, 5L);
    assertThat(g.examined()).isEqualTo(25);
    g.resetCounters();
    assertThat(g.examined()).isZero();
  }
}
