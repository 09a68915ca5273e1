package dev.rivulet.query;

import static dev.rivulet.query.Exprs.lit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.Row;
import dev.rivulet.testkit.Seeds;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The include oracle: random histories over project -> issue -> comment (-> author) and issue ->
 * assignee, with inserts, deletes, updates, re-parents, re-keys, sync batches over several
 * collections and optimistic transactions confirmed or rolled back (see {@link IncludeWorld}).
 * After every transaction every live nested query, in every materialization mode and up to three
 * includes deep, equals the naive per-parent evaluation ({@link IncludeNaive}) over the
 * collections' current rows; nested arrays equal a flat join grouped by parent and fresh
 * per-parent queries; folding the change-tree face gives the fresh rows.
 *
 * <p>{@code RIVULET_SEED} replays one seed, {@code RIVULET_RUNS} multiplies the seed count; a
 * failure names the seed and the steps that led to it.
 */
class IncludeOracleTest {
  private static final int SEEDS = 5;
  private static final int STEPS = 25;

  private static final java.util.Set<Expr.IncludeMode> INLINE =
      java.util.EnumSet.of(Expr.IncludeMode.ARRAY, Expr.IncludeMode.ONE, Expr.IncludeMode.CONCAT);

  @Test
  void inlineModesAtEveryDepthEqualTheNaivePerParentEvaluationAfterEveryTransaction() {
    compareWithNaive(INLINE, SEEDS);
  }

  /** Collection includes mixed with the inline modes; a collection is compared by its rows. */
  @Test
  void collectionModeMixedWithInlineModesEqualsTheNaivePerParentEvaluation() {
    compareWithNaive(java.util.EnumSet.allOf(Expr.IncludeMode.class), SEEDS / 2);
  }

  /**
   * After every transaction: each live query's rows equal the naive evaluation, and the rows its
   * keyed events fold to (from the rows at creation) equal its rows, nested values included.
   */
  private static void compareWithNaive(java.util.Set<Expr.IncludeMode> modes, int seeds) {
    long compared = 0;
    long nonEmptyNested = 0;
    Map<String, Integer> kinds = new java.util.TreeMap<>();
    Map<String, Integer> writes = new java.util.TreeMap<>();
    for (long seed : Seeds.runs(seeds)) {
      IncludeWorld w = new IncludeWorld(seed);
      Random rnd = new Random(seed ^ 0x5A5A);
      w.populate(4, 10, 24, 4);
      Map<String, LiveQuery> live = new LinkedHashMap<>();
      IncludeQueries qs = new IncludeQueries(w, rnd);
      Map<String, Query> queries = qs.randomSet(modes);
      Map<String, Map<Row, Row>> byEvents = new LinkedHashMap<>();
      queries.forEach((name, q) -> track(live, byEvents, name, w.db.liveQuery(name, q)));
      java.util.Set<LiveCollection> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
      java.util.Set<LiveCollection> released = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
      for (int step = 0; step <= STEPS; step++) {
        if (step > 0) {
          String done = w.step();
          kinds.merge(done.substring(0, done.indexOf(' ')), 1, Integer::sum);
        }
        if (step == STEPS / 2) { // the same queries created mid-history (pending transactions and all)
          queries.forEach((name, q) -> track(live, byEvents, "late " + name, w.db.liveQuery("late " + name, q)));
        }
        IncludeNaive naive = new IncludeNaive(cached(w.contents()));
        for (Map.Entry<String, LiveQuery> e : live.entrySet()) {
          QueryIR ir = e.getValue().query().raw();
          List<List<Object>> want = naive.eval(ir);
          List<List<Object>> got = IncludeTrees.of(e.getValue().rows(), ir);
          check(seed, w, e.getKey(), ordered(ir), want, got);
          check(seed, w, e.getKey() + " folded from its events", false, got,
              IncludeTrees.of(new ArrayList<>(byEvents.get(e.getKey()).values()), ir));
          compared++;
          nonEmptyNested += want.stream().filter(IncludeOracleTest::hasNestedRows).count();
        }
        checkFacades(seed, w, live, seen, released);
      }
      w.writeKinds.forEach((k, v) -> writes.merge(k, v, Integer::sum));
    }
    if (Seeds.fixedSeed().isEmpty()) {
      assertThat(writes).as("kinds of writes").containsKeys("insert", "update", "delete", "re-parent", "re-key");
      assertThat(kinds).as("kinds of steps").containsKeys("sync", "apply", "confirm", "roll");
    }
    assertThat(compared).isGreaterThan(seeds * STEPS * 5L);
    assertThat(nonEmptyNested).as("rows with a non-empty nested value").isGreaterThan(compared);
  }

  @Test
  void nestedArraysEqualAFlatJoinGroupedByParentAndFreshPerParentQueries() {
    long fresh = 0;
    for (long seed : Seeds.runs(SEEDS)) {
      IncludeWorld w = new IncludeWorld(seed);
      Random rnd = new Random(seed ^ 0x77);
      w.populate(4, 10, 24, 4);
      IncludeQueries qs = new IncludeQueries(w, rnd);
      boolean openOnly = rnd.nextBoolean();
      LiveQuery nested = w.db.liveQuery("nested", Query.from("p", w.projects).select(Query.as("id",
          Exprs.col("p.id")), Query.includeArray("issues", qs.plainIssues(Exprs.col("p.id"), openOnly))));
      LiveQuery flat = w.db.liveQuery("flat", qs.flatIssues(openOnly));
      for (int step = 0; step <= STEPS; step++) {
        if (step > 0) {
          w.step();
        }
        Map<Object, List<List<Object>>> grouped = new LinkedHashMap<>();
        for (Row r : flat.rows()) {
          List<Object> issue = new ArrayList<>(r.canonical().toList());
          grouped.computeIfAbsent(issue.remove(0), k -> new ArrayList<>()).add(issue);
        }
        for (List<Object> project : IncludeTrees.of(nested.rows(), nested.query().raw())) {
          Object id = project.get(0);
          check(seed, w, "nested vs flat join, project " + id, true, grouped.getOrDefault(id, List.of()),
              asRows(project.get(1)));
          if (step % 10 == 0) {
            Query perParent = qs.plainIssues(lit(id, ColumnType.INT), openOnly);
            LiveQuery q = w.db.liveQuery("fresh" + id, perParent);
            check(seed, w, "nested vs fresh query, project " + id, true, IncludeTrees.of(q.rows(), perParent.raw()),
                asRows(project.get(1)));
            q.close();
            fresh++;
          }
        }
      }
    }
    assertThat(fresh).isGreaterThan(SEEDS * 3L);
  }

  @Test
  void foldingTheChangeTreeGivesTheFreshRowsAtEveryTransactionAndNoBatchSplitsOne() {
    foldTrees(INLINE, SEEDS / 2);
  }

  /**
   * The same with collection includes: a collection slot folds to its bucket's rows, changes
   * inside a bucket arriving as Child changes of each parent showing it.
   */
  @Test
  void foldingTheChangeTreeWithCollectionRelationships() {
    int[] counts = foldTrees(java.util.EnumSet.allOf(Expr.IncludeMode.class), SEEDS / 2);
    assertThat(counts[0]).as("Child changes inside a collection slot").isGreaterThan(20);
    assertThat(counts[1]).as("Child changes inside a collection slot inside another").isGreaterThan(0);
  }

  /** Folds every query's tree batches; returns how many changes went through one, two collection slots. */
  private static int[] foldTrees(java.util.Set<Expr.IncludeMode> modes, int seeds) {
    int[] throughCollections = new int[2];
    Map<String, Integer> kinds = new java.util.TreeMap<>();
    Map<String, Integer> writes = new java.util.TreeMap<>();
    for (long seed : Seeds.runs(seeds)) {
      IncludeWorld w = new IncludeWorld(seed);
      Random rnd = new Random(seed ^ 0x3C3C);
      w.populate(4, 10, 24, 4);
      Map<String, LiveQuery> live = new LinkedHashMap<>();
      live.put("flat", w.db.liveQuery("flat", new IncludeQueries(w, rnd).flatIssues(false)));
      try {
        live.get("flat").changeTreeSink(1).close();
      } catch (UnsupportedOperationException notYet) {
        Assumptions.abort("the change-tree face is not built yet: " + notYet.getMessage());
      }
      IncludeQueries qs = new IncludeQueries(w, rnd);
      qs.randomSet(modes).forEach((name, q) -> live.put(name, w.db.liveQuery(name, q)));
      if (modes.contains(Expr.IncludeMode.COLLECTION)) { // a collection inside a collection, always
        Query nested = Query.from("p", w.projects).select(Query.as("id", Exprs.col("p.id")),
            Query.as("name", Exprs.col("p.name")), Query.include("issues", qs.issues(Exprs.col("p.id"),
                new IncludeQueries.IssueShape(false, 0, Expr.IncludeMode.COLLECTION, qs.randomComments(), true))));
        live.put("collections in collections", w.db.liveQuery("collections in collections", nested));
        live.put("its window", w.db.liveQuery("its window",
            nested.orderBy(Query.asc(Exprs.col("p.name")), Query.desc(Exprs.col("p.id"))).limit(2)));
      }
      Map<String, ChangeTreeSink> sinks = new LinkedHashMap<>();
      Map<String, List<CaughtNode>> folded = new LinkedHashMap<>();
      Map<LiveCollection, FacadeFold> facadeFolds = new java.util.IdentityHashMap<>();
      for (Map.Entry<String, LiveQuery> e : live.entrySet()) {
        ChangeTreeSink sink = e.getValue().changeTreeSink(8);
        TreeBatch h = sink.hydrate();
        assertThat(h.hydrated()).isTrue();
        List<CaughtNode> list = new ArrayList<>();
        for (CaughtChange c : h.changes()) {
          assertThat(c).as("hydration holds additions only").isInstanceOf(CaughtChange.Add.class);
          IncludeTrees.apply(list, c, (QueryIR.Select) e.getValue().query().raw());
        }
        sinks.put(e.getKey(), sink);
        folded.put(e.getKey(), list);
      }
      for (int step = 0; step <= STEPS; step++) {
        long before = w.db.lastTxId();
        if (step > 0) {
          String done = w.step();
          kinds.merge(done.substring(0, done.indexOf(' ')), 1, Integer::sum);
        }
        for (Map.Entry<String, LiveQuery> e : live.entrySet()) {
          List<TreeBatch> batches = sinks.get(e.getKey()).take();
          assertThat(batches).as("seed %d step %d %s: at most one batch per transaction", seed, step, e.getKey())
              .hasSizeLessThanOrEqualTo(step == 0 ? 0 : 1);
          for (TreeBatch b : batches) {
            assertThat(b.txId()).as("seed %d: the batch's transaction", seed).isEqualTo(w.db.lastTxId())
                .isGreaterThan(before);
            assertThat(b.hydrated()).isFalse();
            assertThat(b.changes()).as("a delivered batch changes something").isNotEmpty();
            for (CaughtChange c : b.changes()) {
              QueryIR.Select s = (QueryIR.Select) e.getValue().query().raw();
              try {
                IncludeTrees.apply(folded.get(e.getKey()), c, s);
              } catch (AssertionError fault) {
                throw new AssertionError("seed " + seed + " step " + step + " " + e.getKey() + " ("
                    + Seeds.replayHint(seed) + "): " + fault.getMessage(), fault);
              }
              int depth = IncludeTrees.collectionsCrossed(c, s);
              throughCollections[0] += depth > 0 ? 1 : 0;
              throughCollections[1] += depth > 1 ? 1 : 0;
            }
          }
          QueryIR ir = e.getValue().query().raw();
          List<CaughtNode> fresh = IncludeTrees.nodes(IncludeTrees.of(e.getValue().rows(), ir), ir);
          List<CaughtNode> mine = folded.get(e.getKey());
          boolean ord = ordered(ir);
          check(seed, w, "change tree of " + e.getKey(), true, ord ? fresh : IncludeTrees.unordered(fresh),
              ord ? mine : IncludeTrees.unordered(mine));
        }
        foldFacades(seed, w, live, facadeFolds);
      }
      w.writeKinds.forEach((k, v) -> writes.merge(k, v, Integer::sum));
    }
    if (Seeds.fixedSeed().isEmpty()) {
      assertThat(writes).as("kinds of writes").containsKeys("insert", "update", "delete", "re-parent", "re-key");
      assertThat(kinds).as("kinds of steps").containsKeys("sync", "apply", "confirm", "roll");
    }
    return throughCollections;
  }

  /** The rows of {@code q} that hold facade {@code f}. */
  private static List<Row> holders(LiveQuery q, LiveCollection f) {
    List<Row> out = new ArrayList<>();
    for (Row r : q.rows()) {
      for (int i = 0; i < r.width(); i++) {
        if (r.get(i) == f) {
          out.add(r.canonical());
        }
      }
    }
    return out;
  }

  /** Adds {@code q} to {@code live} and folds its keyed events into {@code byEvents}. */
  private static void track(Map<String, LiveQuery> live, Map<String, Map<Row, Row>> byEvents, String name,
      LiveQuery q) {
    Map<Row, Row> rows = new java.util.HashMap<>();
    q.entries().forEach(kr -> rows.put(kr.key(), kr.row()));
    byEvents.put(name, rows);
    live.put(name, q);
    q.subscribe(events -> events.forEach(ev -> {
      if (ev.type() == ChangeEvent.Type.DELETE) {
        rows.remove(ev.key());
      } else {
        rows.put(ev.key(), ev.value());
      }
    }));
  }

  /** Which live query a facade was reached from (for messages). */
  private static final Map<LiveCollection, String> OWNER = new java.util.WeakHashMap<>();

  /**
   * Collection facades held directly by the rows of a root without a window: one no longer held by
   * any row (its bucket lost its last route) has no rows, and never comes back (a later active
   * interval gets a new one). Deeper facades are not checked this way: a child row that a ONE
   * include or a window does not show still routes to its bucket.
   */
  private static void checkFacades(long seed, IncludeWorld w, Map<String, LiveQuery> live,
      java.util.Set<LiveCollection> seen, java.util.Set<LiveCollection> released) {
    java.util.Set<LiveCollection> now = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    for (LiveQuery q : live.values()) {
      if (((QueryIR.Select) q.query().raw()).limit() != null) {
        continue;
      }
      java.util.Set<LiveCollection> mine = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
      IncludeTrees.facades(q.rows(), (QueryIR.Select) q.query().raw(), mine);
      mine.forEach(f -> OWNER.put(f, q.name()));
      now.addAll(mine);
    }
    for (LiveCollection f : now) {
      if (released.contains(f)) {
        throw new AssertionError("seed " + seed + ": a released facade of live query " + OWNER.get(f)
            + " (rows " + f.rows() + ") is held again by " + holders(live.get(OWNER.get(f)), f) + " after " + w.log);
      }
    }
    for (LiveCollection f : seen) {
      if (!now.contains(f) && !released.contains(f)) {
        released.add(f);
        if (!f.rows().isEmpty() || f.size() != 0) {
          throw new AssertionError("seed " + seed + ": a released facade of live query " + OWNER.get(f)
              + " still holds " + f.rows() + " after " + w.log);
        }
      }
    }
    seen.addAll(now);
  }

  /** A root-level collection facade's own change-tree sink and what its batches folded to. */
  private record FacadeFold(ChangeTreeSink sink, List<CaughtNode> nodes, QueryIR.Select child) {}

  /**
   * Follows the tree face of every collection facade the roots hold (from when it is first seen):
   * its folded batches equal its rows after every transaction, also once it is released.
   */
  private static void foldFacades(long seed, IncludeWorld w, Map<String, LiveQuery> live,
      Map<LiveCollection, FacadeFold> folds) {
    for (LiveQuery q : live.values()) {
      QueryIR.Select s = (QueryIR.Select) q.query().raw();
      for (Row r : q.rows()) {
        for (int i = 0; i < s.select().size(); i++) {
          if (r.get(i) instanceof LiveCollection f && !folds.containsKey(f)) {
            ChangeTreeSink sink = f.changeTreeSink(8);
            List<CaughtNode> nodes = new ArrayList<>();
            QueryIR.Select child = (QueryIR.Select) ((Expr.Include) s.select().get(i).expr()).query();
            sink.hydrate().changes().forEach(c -> IncludeTrees.apply(nodes, c, child));
            folds.put(f, new FacadeFold(sink, nodes, child));
          }
        }
      }
    }
    for (Map.Entry<LiveCollection, FacadeFold> e : folds.entrySet()) {
      FacadeFold f = e.getValue();
      for (TreeBatch b : f.sink().take()) {
        b.changes().forEach(c -> IncludeTrees.apply(f.nodes(), c, f.child()));
      }
      // A facade's own tree face leaves its rows' collection slots empty (it has no buckets of its own).
      List<CaughtNode> fresh = IncludeTrees.withoutCollections(
          IncludeTrees.nodes(IncludeTrees.of(e.getKey().rows(), f.child()), f.child()), f.child());
      check(seed, w, "change tree of a facade", true, IncludeTrees.unordered(fresh),
          IncludeTrees.unordered(IncludeTrees.withoutCollections(f.nodes(), f.child())));
    }
  }

  @SuppressWarnings("unchecked")
  private static List<List<Object>> asRows(Object nested) {
    return (List<List<Object>>) nested;
  }

  private static boolean ordered(QueryIR ir) {
    return !((QueryIR.Select) ir).orderBy().isEmpty();
  }

  /** Whether a tree row holds a nested value with at least one row or some text. */
  private static boolean hasNestedRows(List<Object> row) {
    for (Object v : row) {
      if (v instanceof List<?> l && !l.isEmpty() || v instanceof String s && s.contains("b")) {
        return true;
      }
    }
    return false;
  }

  /** Contents computed once per checked state (the sources do not change while it is checked). */
  private static NaiveQuery.Contents cached(NaiveQuery.Contents c) {
    Map<Source, List<NaiveQuery.KRow>> memo = new java.util.HashMap<>();
    return src -> memo.computeIfAbsent(src, c::of);
  }

  private static <T> void check(long seed, IncludeWorld w, String what, boolean ordered, List<T> want, List<T> got) {
    List<T> a = want;
    List<T> b = got;
    if (!ordered) {
      a = new ArrayList<>(want);
      b = new ArrayList<>(got);
      a.sort(Comparator.comparing(String::valueOf));
      b.sort(Comparator.comparing(String::valueOf));
    }
    if (a.equals(b)) {
      return;
    }
    StringBuilder sb = new StringBuilder();
    sb.append(what).append(" differs at seed ").append(seed).append(" (replay: RIVULET_SEED=").append(seed)
        .append(") after ").append(w.log.size()).append(" steps\n");
    for (int i = Math.max(0, w.log.size() - 8); i < w.log.size(); i++) {
      sb.append("  step ").append(i + 1).append(": ").append(w.log.get(i)).append('\n');
    }
    int n = Math.max(a.size(), b.size());
    for (int i = 0; i < n; i++) {
      Object x = i < a.size() ? a.get(i) : "(none)";
      Object y = i < b.size() ? b.get(i) : "(none)";
      if (!x.equals(y)) {
        sb.append("  first difference at row ").append(i).append("\n    expected: ").append(x)
            .append("\n    actual:   ").append(y).append('\n');
        break;
      }
    }
    sb.append("  expected all: ").append(a).append("\n  actual all:   ").append(b);
    throw new AssertionError(sb.toString());
  }
}
