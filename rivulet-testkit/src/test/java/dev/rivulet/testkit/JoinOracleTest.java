package dev.rivulet.testkit;

import static dev.rivulet.testkit.LinearOperatorsOracleTest.A;
import static dev.rivulet.testkit.LinearOperatorsOracleTest.graph;

import dev.rivulet.engine.JoinType;
import dev.rivulet.engine.Schema;
import dev.rivulet.engine.Stream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Oracle properties of every join type, on one key and on two keys, with null keys (which match
 * nothing), duplicate rows on both sides, a self-join, and INT keys matched against DECIMAL keys.
 */
class JoinOracleTest extends OracleSuite {
  static final Schema L = Schema.parse("lk INT, lk2 STRING, lv INT");
  static final Schema R = Schema.parse("rk INT, rk2 STRING, rv INT");
  static final Schema RD = Schema.parse("rk DECIMAL, rv INT");
  static final Map<String, Schema> LR = Map.of("l", L, "r", R);

  static List<Scenario> scenarios() {
    List<Scenario> out = new ArrayList<>();
    for (JoinType type : JoinType.values()) {
      String t = type.name().toLowerCase(Locale.ROOT);
      out.add(join("join-" + t, type, List.of("lk"), List.of("rk")));
      out.add(join("join-" + t + "-two-keys", type, List.of("lk", "lk2"), List.of("rk", "rk2")));
    }
    out.add(new Scenario(OracleRunner.builder("join-self-inner", Map.of("a", A),
        graph(b -> {
          Stream a = b.input("a", A);
          return a.join(a, JoinType.INNER, "k", "k");
        }))
        .multiset("out", in -> Naive.join(in.get("a"), A, in.get("a"), A, JoinType.INNER, List.of("k"), List.of("k")))
        .build()));
    out.add(new Scenario(OracleRunner.builder("join-full-int-decimal", Map.of("l", L, "r", RD),
        graph(b -> b.input("l", L).join(b.input("r", RD), JoinType.FULL, "lk", "rk")))
        .multiset("out", in -> Naive.join(in.get("l"), L, in.get("r"), RD, JoinType.FULL, List.of("lk"), List.of("rk")))
        .build()));
    return out;
  }

  private static Scenario join(String name, JoinType type, List<String> lk, List<String> rk) {
    return new Scenario(OracleRunner.builder(name, LR,
        graph(b -> b.input("l", L).join(b.input("r", R), type, lk, rk)))
        .multiset("out", in -> Naive.join(in.get("l"), L, in.get("r"), R, type, lk, rk))
        .build());
  }
}
