package dev.rivulet.testkit;

import static dev.rivulet.testkit.JoinOracleTest.L;
import static dev.rivulet.testkit.JoinOracleTest.LR;
import static dev.rivulet.testkit.JoinOracleTest.R;

import dev.rivulet.engine.Aggregate;
import dev.rivulet.engine.Graph;
import dev.rivulet.engine.GraphBuilder;
import dev.rivulet.engine.JoinType;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.engine.SortKey;
import dev.rivulet.engine.Stream;
import java.util.List;
import java.util.Map;

/**
 * Operators chained: a left join, grouped and aggregated, then the top two groups by count, with
 * the join's distinct keys as a second output checked at once; and top-K and group-by fed
 * unconsolidated changes (a stream concatenated with its own negation and itself again).
 */
class PipelineOracleTest extends OracleSuite {
  static final List<Aggregate> AGGS = List.of(Aggregate.countRows("n"), Aggregate.sum("rv", "total"));
  static final List<SortKey> ORDER = List.of(SortKey.desc("n"), SortKey.asc("lk"));

  static final Schema T = TopKOracleTest.T;
  static final Schema G = GroupByOracleTest.G;
  static final List<SortKey> BY_X = List.of(SortKey.asc("x"), SortKey.desc("y"));

  static List<Scenario> scenarios() {
    return List.of(joinGroupTopK(),
        new Scenario(OracleRunner.builder("pipeline-topk-over-concat", Map.of("t", T), () -> {
          GraphBuilder b = Graph.builder();
          Stream t = b.input("t", T);
          b.output("out", t.concat(t.negate(), t, t.filter(r -> !r.isNull(1))).topK(List.of("p"), BY_X, 1, 3));
          return b.build();
        }).windows("out", List.of("p"), in -> Naive.topK(
            Naive.concat(in.get("t"), Naive.filter(in.get("t"), r -> !r.isNull(1))), T, List.of("p"), BY_X, 1, 3))
            .build()),
        new Scenario(OracleRunner.builder("pipeline-group-over-concat", Map.of("g", G), () -> {
          GraphBuilder b = Graph.builder();
          Stream g = b.input("g", G);
          b.output("out", g.concat(g.negate(), g).groupBy(List.of("g"), GroupByOracleTest.all()));
          return b.build();
        }).multiset("out", in -> Naive.groupBy(in.get("g"), G, List.of("g"), GroupByOracleTest.all())).build()));
  }

  private static Scenario joinGroupTopK() {
    return new Scenario(OracleRunner.builder("pipeline-join-group-topk", LR, () -> {
      GraphBuilder b = Graph.builder();
      Stream joined = b.input("l", L).join(b.input("r", R), JoinType.LEFT, "lk", "rk");
      Stream grouped = joined.groupBy(List.of("lk"), AGGS.toArray(new Aggregate[0]));
      b.output("top", grouped.topK(ORDER, 0, 2));
      b.output("keys", joined.map(Schema.parse("lk INT"), r -> Row.of(r.get(0))).distinct());
      return b.build();
    }).windows("top", List.of(), in -> Naive.topK(grouped(in), grouped(), List.of(), ORDER, 0, 2))
        .multiset("keys", in -> Naive.distinct(Naive.map(joined(in), r -> Row.of(r.get(0)))))
        .build());
  }

  private static Map<Row, Long> joined(Map<String, Map<Row, Long>> in) {
    return Naive.join(in.get("l"), L, in.get("r"), R, JoinType.LEFT, List.of("lk"), List.of("rk"));
  }

  private static Schema grouped() {
    return Schema.parse("lk INT, n INT, total DECIMAL");
  }

  private static Map<Row, Long> grouped(Map<String, Map<Row, Long>> in) {
    Schema joinedSchema = L.concat(R, "right_", true);
    return Naive.groupBy(joined(in), joinedSchema, List.of("lk"), AGGS.toArray(new Aggregate[0]));
  }
}
