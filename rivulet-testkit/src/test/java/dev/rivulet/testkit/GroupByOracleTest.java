package dev.rivulet.testkit;

import static dev.rivulet.testkit.LinearOperatorsOracleTest.graph;

import dev.rivulet.engine.Aggregate;
import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Oracle properties of group-by with each aggregate (count(*), count, sum, avg, min, max) over
 * each numeric type and, for min/max, every other type including a mixed ANY column; by one key,
 * two keys and none (the global aggregate: one row even over no input).
 */
class GroupByOracleTest extends OracleSuite {
  static final Schema G = Schema.parse(
      "g INT, g2 STRING, i INT, d DOUBLE, m DECIMAL, s STRING, b BOOL, t DATE, ts TIMESTAMP, y BYTES, x ANY");

  static List<Scenario> scenarios() {
    List<Scenario> out = new ArrayList<>();
    out.add(group("group-count-rows", List.of("g"), Aggregate.countRows("n")));
    out.add(group("group-count", List.of("g"), Aggregate.count("i", "ci"), Aggregate.count("s", "cs")));
    out.add(group("group-count-distinct", List.of("g"), Aggregate.countDistinct("i", "di"), Aggregate.countDistinct("s", "ds")));
    out.add(group("group-global-count-distinct", List.of(), Aggregate.countDistinct("i", "di")));
    for (String c : List.of("i", "d", "m")) {
      out.add(group("group-sum-" + c, List.of("g"), Aggregate.sum(c, "sum")));
      out.add(group("group-avg-" + c, List.of("g"), Aggregate.avg(c, "avg")));
    }
    for (String c : List.of("i", "d", "m", "s", "b", "t", "ts", "y", "x")) {
      out.add(group("group-min-max-" + c, List.of("g"), Aggregate.min(c, "lo"), Aggregate.max(c, "hi")));
    }
    out.add(group("group-two-keys-all", List.of("g", "g2"), all()));
    out.add(group("group-global-all", List.of(), all()));
    out.add(group("group-global-count-rows", List.of(), Aggregate.countRows("n")));
    // All of the INT palette common, 64-bit extremes included, grouped by a boolean: sums overflow.
    out.add(group("group-sum-int-extremes", List.of("b"), Aggregate.sum("i", "sum"), Aggregate.avg("i", "avg"))
        .withGenerator(HistoryGenerator.over("g", G).withDomainSize(11)));
    // NaN and both infinities among the doubles: IEEE results for sum and avg, NaN last for min/max.
    out.add(group("group-special-doubles", List.of("g"), Aggregate.sum("d", "sum"), Aggregate.avg("d", "avg"),
        Aggregate.min("d", "lo"), Aggregate.max("d", "hi"), Aggregate.count("d", "n"))
        .withGenerator(HistoryGenerator.over("g", G).withPalette(ColumnType.DOUBLE, SPECIAL_DOUBLES).withDomainSize(4)
            .mixed()));
    return out;
  }

  static final List<Double> SPECIAL_DOUBLES = List.of(Double.NaN, 1.5, Double.POSITIVE_INFINITY,
      Double.NEGATIVE_INFINITY, 0.1, -2.0);

  static Aggregate[] all() {
    return new Aggregate[] {Aggregate.countRows("n"), Aggregate.count("d", "cd"), Aggregate.sum("i", "si"),
        Aggregate.sum("d", "sd"), Aggregate.sum("m", "sm"), Aggregate.avg("i", "ai"), Aggregate.avg("d", "ad"),
        Aggregate.avg("m", "am"), Aggregate.min("s", "mins"), Aggregate.max("t", "maxt"), Aggregate.min("x", "minx"),
        Aggregate.max("m", "maxm")};
  }

  private static Scenario group(String name, List<String> keys, Aggregate... aggs) {
    return new Scenario(OracleRunner.builder(name, Map.of("g", G),
        graph(b -> b.input("g", G).groupBy(keys, aggs)))
        .multiset("out", in -> Naive.groupBy(in.get("g"), G, keys, aggs)).build());
  }
}
