package dev.rivulet.testkit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Every scenario of the operator suites, by name: what a committed trace is replayed against. */
final class Scenarios {
  private Scenarios() {}

  static List<Scenario> all() {
    List<Scenario> all = new ArrayList<>();
    all.addAll(LinearOperatorsOracleTest.scenarios());
    all.addAll(DistinctOracleTest.scenarios());
    all.addAll(JoinOracleTest.scenarios());
    all.addAll(ReduceOracleTest.scenarios());
    all.addAll(GroupByOracleTest.scenarios());
    all.addAll(TopKOracleTest.scenarios());
    all.addAll(PipelineOracleTest.scenarios());
    return all;
  }

  static Map<String, Scenario> byName() {
    Map<String, Scenario> out = new LinkedHashMap<>();
    for (Scenario s : all()) {
      if (out.put(s.name(), s) != null) {
        throw new IllegalStateException("two scenarios are named " + s.name());
      }
    }
    return out;
  }

  static Scenario get(String name) {
    Scenario s = byName().get(name);
    if (s == null) {
      throw new IllegalArgumentException("no scenario named '" + name + "'; known: " + byName().keySet());
    }
    return s;
  }
}
