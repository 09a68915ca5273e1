package dev.rivulet.testkit;

import dev.rivulet.engine.Graph;
import dev.rivulet.engine.GraphBuilder;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.engine.Stream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * Oracle properties of the linear operators (map, filter, flatMap, negate, concat, consolidate):
 * over seeded histories with retractions, duplicates and nulls, the folded output equals the naive
 * recomputation after every step, and atomic or split delivery ends in the same state.
 */
class LinearOperatorsOracleTest extends OracleSuite {
  static final Schema A = Schema.parse("id INT NOT NULL, k INT, v INT, s STRING");
  static final Schema B = Schema.parse("k INT, w INT, s STRING");
  static final Map<String, Schema> AB = Map.of("a", A, "b", B);

  static final Schema KV = Schema.parse("k INT, vv INT, s STRING");
  /** Collapses rows (v mod 3, id dropped), so equal outputs of different inputs add up. */
  static final UnaryOperator<Row> MAP_FN =
      r -> Row.of(r.get(1), r.isNull(2) ? null : Math.floorMod(r.getLong(2), 3L), r.get(3));
  static final Predicate<Row> FILTER_FN = r -> !r.isNull(2) && r.getLong(2) >= 2;
  static final Schema KS = Schema.parse("k INT, s STRING");
  /** No row for a null v, else (v mod 3) copies of [k, s]: zero, one or two equal rows. */
  static final Function<Row, List<Row>> FLAT_FN = r -> {
    List<Row> out = new ArrayList<>();
    if (!r.isNull(2)) {
      for (long i = 0; i < Math.floorMod(r.getLong(2), 3L); i++) {
        out.add(Row.of(r.get(1), r.get(3)));
      }
    }
    return out;
  };
  static final UnaryOperator<Row> A_KS = r -> Row.of(r.get(1), r.get(3));
  static final UnaryOperator<Row> B_KS = r -> Row.of(r.get(0), r.get(2));

  static List<Scenario> scenarios() {
    return List.of(
        new Scenario(OracleRunner.builder("map", Map.of("a", A), graph(b -> b.input("a", A).map(KV, MAP_FN)))
            .multiset("out", in -> Naive.map(in.get("a"), MAP_FN)).build()),
        new Scenario(OracleRunner.builder("filter", Map.of("a", A), graph(b -> b.input("a", A).filter(FILTER_FN)))
            .multiset("out", in -> Naive.filter(in.get("a"), FILTER_FN)).build()),
        new Scenario(OracleRunner.builder("flat-map", Map.of("a", A), graph(b -> b.input("a", A).flatMap(KS, FLAT_FN)))
            .multiset("out", in -> Naive.flatMap(in.get("a"), FLAT_FN)).build()),
        new Scenario(OracleRunner.builder("negate", Map.of("a", A), graph(b -> b.input("a", A).negate()))
            .multiset("out", in -> Naive.negate(in.get("a"))).build()),
        new Scenario(OracleRunner.builder("concat", AB, graph(b -> {
          Stream a = b.input("a", A);
          Stream ks = a.map(KS, A_KS);
          return ks.concat(b.input("b", B).map(KS, B_KS), a.filter(FILTER_FN).map(KS, A_KS));
        })).multiset("out", in -> Naive.concat(Naive.map(in.get("a"), A_KS), Naive.map(in.get("b"), B_KS),
            Naive.map(Naive.filter(in.get("a"), FILTER_FN), A_KS))).build()),
        new Scenario(OracleRunner.builder("concat-self-negated", Map.of("a", A), graph(b -> {
          Stream a = b.input("a", A);
          return a.concat(a.negate(), a);
        })).multiset("out", in -> Naive.concat(in.get("a"), Naive.negate(in.get("a")), in.get("a"))).build()),
        new Scenario(OracleRunner.builder("consolidate", AB, graph(b -> b.input("a", A).map(KS, A_KS)
            .concat(b.input("b", B).map(KS, B_KS).negate()).consolidate()))
            .multiset("out", in -> Naive.consolidate(
                Naive.concat(Naive.map(in.get("a"), A_KS), Naive.negate(Naive.map(in.get("b"), B_KS))))).build()));
  }

  /** A factory of graphs with one output "out" built by {@code body}. */
  static java.util.function.Supplier<Graph> graph(Function<GraphBuilder, Stream> body) {
    return () -> {
      GraphBuilder b = Graph.builder();
      b.output("out", body.apply(b));
      return b.build();
    };
  }
}
