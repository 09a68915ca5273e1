package dev.rivulet.testkit;

import static dev.rivulet.testkit.LinearOperatorsOracleTest.A;
import static dev.rivulet.testkit.LinearOperatorsOracleTest.graph;

import dev.rivulet.engine.Reducer;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.engine.Values;
import dev.rivulet.engine.ZSet;
import java.util.List;
import java.util.Map;

/** Oracle properties of reduce: a pure user function per group, by one key, two keys or none. */
class ReduceOracleTest extends OracleSuite {
  static final Schema OUT = Schema.parse("k INT, s STRING, n INT, maxv INT, tag STRING");

  /**
   * One row [k, s, row count, max v, 'one'] per group; groups of three or more rows also give
   * [k, s, NULL, NULL, 'big'] twice (an output multiplicity above one). Order-insensitive.
   */
  static final Reducer SUMMARY = (key, group) -> {
    long n = 0;
    Object max = null;
    Row any = null;
    for (ZSet.Entry e : group) {
      n += e.weight();
      Object v = e.row().get(2);
      if (v != null && (max == null || Values.compare(v, max) > 0)) {
        max = v;
      }
      if (any == null || e.row().compareTo(any) < 0) {
        any = e.row();
      }
    }
    ZSet.Builder out = ZSet.builder().insert(Row.of(any.get(1), any.get(3), n, max, "one"));
    if (n >= 3) {
      out.add(Row.of(any.get(1), any.get(3), null, null, "big"), 2);
    }
    return out.build();
  };

  static List<Scenario> scenarios() {
    return List.of(reduce("reduce-by-k", List.of("k")), reduce("reduce-by-k-s", List.of("k", "s")),
        reduce("reduce-global", List.of()));
  }

  private static Scenario reduce(String name, List<String> keys) {
    return new Scenario(OracleRunner.builder(name, Map.of("a", A),
        graph(b -> b.input("a", A).reduce(keys, OUT, SUMMARY)))
        .multiset("out", in -> Naive.reduce(in.get("a"), A, keys, SUMMARY)).build());
  }
}
