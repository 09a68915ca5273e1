package dev.rivulet.testkit;

import static dev.rivulet.testkit.LinearOperatorsOracleTest.A;
import static dev.rivulet.testkit.LinearOperatorsOracleTest.AB;
import static dev.rivulet.testkit.LinearOperatorsOracleTest.A_KS;
import static dev.rivulet.testkit.LinearOperatorsOracleTest.B;
import static dev.rivulet.testkit.LinearOperatorsOracleTest.B_KS;
import static dev.rivulet.testkit.LinearOperatorsOracleTest.KS;
import static dev.rivulet.testkit.LinearOperatorsOracleTest.graph;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/** Oracle properties of distinct: each row of positive multiplicity, once. */
class DistinctOracleTest extends OracleSuite {
  static final Schema K = Schema.parse("k INT");
  static final UnaryOperator<Row> A_K = r -> Row.of(r.get(1));
  static final UnaryOperator<Row> B_K = r -> Row.of(r.get(0));

  static List<Scenario> scenarios() {
    return List.of(
        new Scenario(OracleRunner.builder("distinct", Map.of("a", A), graph(b -> b.input("a", A).distinct()))
            .multiset("out", in -> Naive.distinct(in.get("a"))).build()),
        new Scenario(OracleRunner.builder("distinct-projected", Map.of("a", A),
            graph(b -> b.input("a", A).map(KS, A_KS).distinct()))
            .multiset("out", in -> Naive.distinct(Naive.map(in.get("a"), A_KS))).build()),
        new Scenario(OracleRunner.builder("distinct-of-concat", AB,
            graph(b -> b.input("a", A).map(K, A_K).concat(b.input("b", B).map(K, B_K)).distinct()))
            .multiset("out", in -> Naive.distinct(Naive.concat(Naive.map(in.get("a"), A_K), Naive.map(in.get("b"), B_K))))
            .build()),
        new Scenario(OracleRunner.builder("distinct-twice", AB,
            graph(b -> b.input("a", A).map(KS, A_KS).distinct().concat(b.input("b", B).map(KS, B_KS)).distinct()))
            .multiset("out", in -> Naive.distinct(Naive.concat(Naive.distinct(Naive.map(in.get("a"), A_KS)),
                Naive.map(in.get("b"), B_KS)))).build()));
  }
}
