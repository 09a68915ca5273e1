package dev.rivulet.query;

import dev.rivulet.query.compile.QueryPlans;
import dev.rivulet.query.sql.SqlDialect;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * One case of the query oracle: a world, live queries over it (some reading another live query),
 * a history, and the step before which the live queries are created (0: before any data, so the
 * whole history is incremental; {@code steps.size()}: after all of it, hydration only).
 *
 * @param queries in creation order; a query's upstream comes before it
 */
record OracleScenario(OracleWorld world, List<Spec> queries, List<OracleHistory.Step> steps, int createAt) {
  OracleScenario {
    queries = List.copyOf(queries);
    steps = List.copyOf(steps);
  }

  /**
   * One live query: its IR over the world's {@link OracleWorld.Table}s and upstream {@link
   * OracleWorld.LiveRef}s.
   *
   * @param reads the indexes of the live queries it reads (each before it)
   * @param twin the index of an earlier live query whose rows it must equal after every
   *     transaction (as a list when both order, else as a multiset), or -1
   */
  record Spec(String name, QueryIR ir, List<Integer> reads, int twin) {
    Spec {
      reads = List.copyOf(reads);
    }

    static Spec of(String name, QueryIR ir) {
      return new Spec(name, ir, List.of(), -1);
    }
  }

  /**
   * A random scenario: {@code queries} queries over the collections, plus one query over one of
   * them when {@code layered}, and a history of {@code steps} steps.
   */
  static OracleScenario random(Random r, int queries, boolean layered, int steps) {
    OracleWorld w = OracleWorld.random(r);
    RandomQueries gen = new RandomQueries(r, w.tables, s -> s instanceof OracleWorld.Table, w.unicode);
    List<Spec> specs = new ArrayList<>();
    for (int i = 0; i < queries; i++) {
      specs.add(Spec.of("q" + i, valid(gen::query)));
    }
    if (layered) {
      // one query over another, sometimes a second level over that one; joins may read the
      // upstream again (a self-join of a live query)
      int up = r.nextInt(specs.size());
      for (int level = r.nextInt(3) == 0 ? 2 : 1; level > 0; level--) {
        OracleWorld.LiveRef ref = OracleWorld.LiveRef.of(specs.get(up).name(), specs.get(up).ir());
        List<Source> sources = new ArrayList<>(w.tables);
        if (r.nextInt(4) == 0) {
          sources.add(ref);
        }
        RandomQueries over = new RandomQueries(r, sources, s -> s instanceof OracleWorld.Table, w.unicode);
        specs.add(new Spec("q" + specs.size(), valid(() -> over.over(ref)), List.of(up), -1));
        up = specs.size() - 1;
      }
    }
    List<OracleHistory.Step> h = OracleHistory.random(w, r, steps);
    int k = r.nextInt(10);
    int createAt = k < 2 ? 0 : k < 6 ? w.tables.size() : k < 7 ? h.size() : r.nextInt(h.size() + 1);
    return new OracleScenario(w, specs, h, createAt);
  }

  /** Generated queries that the compiler rejects (a generator bug, or a compiler one) are retried. */
  static QueryIR valid(java.util.function.Supplier<QueryIR> gen) {
    RuntimeException last = null;
    for (int i = 0; i < 20; i++) {
      QueryIR q = gen.get();
      try {
        QueryPlans.check(q);
        Shapes.of(q);
        return q;
      } catch (QueryException | IllegalArgumentException e) {
        // the compiler's check, or the reference typing table (Shapes) refused it
        last = e;
        REJECTED.add(e.getMessage() + "\n      " + q);
      }
    }
    throw new IllegalStateException("the generator made 20 queries the compiler rejects; last: " + last.getMessage(),
        last);
  }

  /** Rejected generated queries, for the suite's summary (a high rate means a generator bug). */
  static final List<String> REJECTED = java.util.Collections.synchronizedList(new ArrayList<>());

  /** This scenario with only the queries at {@code keep} and those they read or must equal. */
  OracleScenario onlyQueries(List<Integer> keep) {
    java.util.Set<Integer> needed = new java.util.TreeSet<>();
    java.util.Deque<Integer> todo = new java.util.ArrayDeque<>(keep);
    while (!todo.isEmpty()) {
      int q = todo.pop();
      if (needed.add(q)) {
        todo.addAll(queries.get(q).reads());
        if (queries.get(q).twin() >= 0) {
          todo.add(queries.get(q).twin());
        }
      }
    }
    java.util.Map<Integer, Integer> renumber = new java.util.HashMap<>();
    List<Spec> out = new ArrayList<>();
    for (int q : needed) {
      Spec s = queries.get(q);
      renumber.put(q, out.size());
      List<Integer> reads = new ArrayList<>();
      for (int r : s.reads()) {
        reads.add(renumber.get(r));
      }
      out.add(new Spec(s.name(), s.ir(), reads, s.twin() < 0 ? -1 : renumber.get(s.twin())));
    }
    return new OracleScenario(world, out, steps, createAt);
  }

  OracleScenario withSteps(List<OracleHistory.Step> next, int nextCreateAt) {
    return new OracleScenario(world, queries, next, nextCreateAt);
  }

  String describe() {
    StringBuilder sb = new StringBuilder();
    sb.append("  schema: ").append(world).append('\n');
    for (Spec s : queries) {
      sb.append("  live query ").append(s.name());
      for (int r : s.reads()) {
        sb.append(" (reads ").append(queries.get(r).name()).append(')');
      }
      if (s.twin() >= 0) {
        sb.append(" (must equal ").append(queries.get(s.twin()).name()).append(')');
      }
      sb.append(": ").append(sql(s.ir())).append('\n');
    }
    sb.append("  history (").append(steps.size()).append(" steps; live queries created before step ").append(createAt)
        .append("):\n");
    sb.append(OracleHistory.describe(steps));
    return sb.toString();
  }

  /** A query as SQLite SQL, for reports. */
  static String sql(QueryIR ir) {
    try {
      return QuerySqlRenderer.render(ir, SqlDialect.SQLITE, Source::name);
    } catch (RuntimeException e) {
      return ir.toString();
    }
  }
}
