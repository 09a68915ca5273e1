package dev.rivulet.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.rivulet.engine.Row;
import dev.rivulet.query.expr.ExprText;
import dev.rivulet.testkit.Seeds;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Metamorphic relations of live queries, over random worlds, queries and histories (each scenario
 * also runs every check of {@link OracleRun}, engine against the naive evaluator):
 *
 * <ol>
 *   <li>Split or atomic: the same writes delivered as one sync batch per collection, as one
 *       optimistic transaction over all collections (applied, then confirmed), as a few random
 *       batches, or one batch per write, end in the same rows of every live query: the same list
 *       when the query orders (the engine's tie-break is a function of the rows), else the same
 *       multiset.
 *   <li>Alpha-renaming: a query with every alias renamed (declarations and column references,
 *       subqueries included) has the same rows as the original after every transaction.
 *   <li>Ternary partitioning: for a predicate P over one collection t, the live queries {@code t
 *       where P}, {@code t where NOT P} and {@code t where P IS NULL} partition t (their union all
 *       equals t), and for a single-relation query F, F over t equals the union all of F over the
 *       three parts, after every transaction.
 * </ol>
 *
 * <p>{@code RIVULET_SEED} replays one seed, {@code RIVULET_RUNS} multiplies the seed counts (each
 * property salts the seed, so the three see different worlds); a failure is shrunk as in {@link
 * QueryOracleTest}.
 */
class QueryMetamorphicTest {
  private static final int SPLIT_SCENARIOS = 40;
  private static final int RENAME_SCENARIOS = 40;
  private static final int PARTITION_SCENARIOS = 60;

  @Test
  void splitAndAtomicDeliveriesEndInTheSameRows() {
    for (long seed : Seeds.runs(SPLIT_SCENARIOS)) {
      Random r = new Random(seed ^ 0x5B117L);
      OracleScenario base = OracleScenario.random(r, 3 + r.nextInt(2), false, 0);
      OracleWorld w = base.world();
      List<OracleHistory.Step> load = base.steps(); // the initial load of every table
      List<OracleHistory.Write> writes = new ArrayList<>();
      OracleHistory.Model m = new OracleHistory.Model(w.tables.size());
      load.forEach(m::apply);
      for (int i = 10 + r.nextInt(20); i > 0; i--) {
        int t = r.nextInt(w.tables.size());
        long id = 1 + r.nextInt(w.maxId);
        writes.add(new OracleHistory.Write(t, id, r.nextInt(4) == 0 ? null : w.row(t, id, r)));
      }
      Map<String, List<OracleHistory.Step>> variants = new HashMap<>();
      variants.put("one sync batch per collection", perTable(w, writes));
      variants.put("one optimistic transaction, confirmed",
          List.of(new OracleHistory.Apply(0, writes), new OracleHistory.Settle(0, true)));
      List<OracleHistory.Step> split = new ArrayList<>();
      for (int from = 0; from < writes.size(); ) {
        int to = Math.min(writes.size(), from + 1 + r.nextInt(6));
        split.addAll(perTable(w, writes.subList(from, to)));
        from = to;
      }
      variants.put("random batches", split);
      List<OracleHistory.Step> singles = new ArrayList<>();
      for (OracleHistory.Write x : writes) {
        singles.add(new OracleHistory.Sync(x.table(), false, List.of(x)));
      }
      variants.put("one batch per write", singles);
      Map<String, List<Row>> reference = null;
      String referenceName = null;
      for (Map.Entry<String, List<OracleHistory.Step>> v : variants.entrySet()) {
        List<OracleHistory.Step> steps = new ArrayList<>(load);
        steps.addAll(v.getValue());
        OracleScenario sc = base.withSteps(steps, load.size());
        Map<String, List<Row>> rows = new HashMap<>();
        OracleRun.Divergence d = OracleRun.run(sc, OracleRun.Options.ENGINE_ONLY, new OracleRun.Stats(), rows);
        if (d != null) {
          fail(v.getKey() + ":\n" + QueryOracleTest.report(QueryMetamorphicTest.class, seed, sc, d));
        }
        if (reference == null) {
          reference = rows;
          referenceName = v.getKey();
          continue;
        }
        for (OracleScenario.Spec spec : sc.queries()) {
          List<Row> want = reference.get(spec.name());
          List<Row> got = rows.get(spec.name());
          boolean ordered = spec.ir() instanceof QueryIR.Select s && (!s.orderBy().isEmpty() || s.findOne());
          boolean same = ordered ? want.equals(got) : ResultMatch.sameMultiset(want, got);
          if (!same) {
            fail("seed " + seed + ": live query " + spec.name() + " ends differently delivered as '" + v.getKey()
                + "' than as '" + referenceName + "'\n  " + referenceName + ": " + want + "\n  " + v.getKey() + ": "
                + got + "\n" + sc.describe());
          }
        }
      }
    }
  }

  private static List<OracleHistory.Step> perTable(OracleWorld w, List<OracleHistory.Write> writes) {
    List<OracleHistory.Step> out = new ArrayList<>();
    for (int t = 0; t < w.tables.size(); t++) {
      List<OracleHistory.Write> mine = new ArrayList<>();
      for (OracleHistory.Write x : writes) {
        if (x.table() == t) {
          mine.add(x);
        }
      }
      if (!mine.isEmpty()) {
        out.add(new OracleHistory.Sync(t, false, mine));
      }
    }
    return out;
  }

  @Test
  void renamingAliasesChangesNothing() {
    for (long seed : Seeds.runs(RENAME_SCENARIOS)) {
      Random r = new Random(seed ^ 0xA1FAL);
      OracleScenario base = OracleScenario.random(r, 4, r.nextBoolean(), 14 + r.nextInt(10));
      List<OracleScenario.Spec> specs = new ArrayList<>(base.queries());
      int n = specs.size();
      for (int i = 0; i < n; i++) {
        OracleScenario.Spec s = specs.get(i);
        QueryIR renamed = QueryIrs.renameAliases(s.ir(), a -> "renamed_" + a + "_" + a.length());
        specs.add(new OracleScenario.Spec(s.name() + "_renamed", renamed, s.reads(), i));
      }
      OracleScenario sc = new OracleScenario(base.world(), specs, base.steps(), base.createAt());
      OracleRun.Divergence d = OracleRun.run(sc, OracleRun.Options.ENGINE_ONLY);
      if (d != null) {
        fail(QueryOracleTest.report(QueryMetamorphicTest.class, seed, sc, d));
      }
    }
  }

  @Test
  void wherePartitionsByTrueFalseAndNull() {
    int nonTrivial = 0;
    for (long seed : Seeds.runs(PARTITION_SCENARIOS)) {
      Random r = new Random(seed ^ 0x7E57L);
      OracleWorld w = OracleWorld.random(r);
      OracleWorld.Table t = w.tables.get(r.nextInt(w.tables.size()));
      RandomScalars x = new RandomScalars(r);
      List<RandomScalars.Col> cols = new ArrayList<>();
      for (var c : t.schema().columns()) {
        cols.add(new RandomScalars.Col(new Expr.Col("p", c.name()), c.type(), true));
      }
      Expr p = x.bool(cols, 1 + r.nextInt(3));
      List<OracleScenario.Spec> specs = new ArrayList<>();
      specs.add(OracleScenario.Spec.of("all", Query.from("p", t).raw()));
      specs.add(OracleScenario.Spec.of("whereP", Query.from("p", t).where(p).raw()));
      specs.add(OracleScenario.Spec.of("whereNotP", Query.from("p", t).where(new Expr.Not(p)).raw()));
      specs.add(OracleScenario.Spec.of("wherePIsNull", Query.from("p", t).where(new Expr.IsNull(p, false)).raw()));
      List<OracleWorld.LiveRef> parts = new ArrayList<>();
      for (int i = 1; i <= 3; i++) {
        parts.add(OracleWorld.LiveRef.of(specs.get(i).name(), specs.get(i).ir()));
      }
      // t is the union all of its three parts
      specs.add(new OracleScenario.Spec("unionOfParts", new QueryIR.UnionAll(List.of(
          Query.from("a", parts.get(0)).raw(), Query.from("b", parts.get(1)).raw(), Query.from("c", parts.get(2)).raw())),
          List.of(1, 2, 3), 0));
      // F over t, and F over each part, united (a third of the time F is "where P" itself)
      QueryIR f = r.nextInt(3) == 0 ? Query.from("f", t).where(ExprTrees.map(p, e -> e instanceof Expr.Col c
          ? new Expr.Col("f", c.column()) : e)).raw() : filter(t, x, r);
      specs.add(OracleScenario.Spec.of("F", f));
      List<QueryIR> overParts = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        OracleWorld.LiveRef part = parts.get(i);
        int k = i;
        overParts.add(QueryIrs.renameAliases(QueryIrs.bind(f, s -> part), a -> a + k));
      }
      specs.add(new OracleScenario.Spec("FoverParts", new QueryIR.UnionAll(overParts), List.of(1, 2, 3), 5));
      List<OracleHistory.Step> steps = OracleHistory.random(w, r, 14 + r.nextInt(10));
      OracleScenario sc = new OracleScenario(w, specs, steps, r.nextInt(3) == 0 ? 0 : w.tables.size());
      OracleRun.Divergence d = OracleRun.run(sc, OracleRun.Options.ENGINE_ONLY);
      if (d != null) {
        fail("P = " + ExprText.of(p) + "\n" + QueryOracleTest.report(QueryMetamorphicTest.class, seed, sc, d));
      }
      nonTrivial += ((QueryIR.Select) f).where() != null ? 1 : 0;
    }
    if (Seeds.fixedSeed().isEmpty()) {
      assertThat(nonTrivial).as("F with a where clause").isGreaterThan(PARTITION_SCENARIOS * Seeds.multiplier() / 4);
    }
  }

  /**
   * A random single-relation query over {@code t} (alias {@code f}): a where clause (most of the
   * time) and select-all or a select list of columns and computed columns. No grouping, distinct
   * or window: F over a union must equal the union of F over the parts.
   */
  private static QueryIR filter(OracleWorld.Table t, RandomScalars x, Random r) {
    List<RandomScalars.Col> cols = new ArrayList<>();
    for (var c : t.schema().columns()) {
      cols.add(new RandomScalars.Col(new Expr.Col("f", c.name()), c.type(), true));
    }
    Query q = Query.from("f", t);
    if (r.nextInt(10) < 8) {
      q = q.where(x.bool(cols, 1 + r.nextInt(3)));
    }
    if (r.nextBoolean()) {
      List<QueryIR.SelectItem> items = new ArrayList<>();
      for (int i = 1 + r.nextInt(3); i > 0; i--) {
        Expr e = r.nextBoolean() ? cols.get(r.nextInt(cols.size())).ref() : x.any(cols, 2);
        items.add(Query.as("c" + items.size(), e));
      }
      q = q.select(items.toArray(new QueryIR.SelectItem[0]));
    }
    return q.raw();
  }
}
