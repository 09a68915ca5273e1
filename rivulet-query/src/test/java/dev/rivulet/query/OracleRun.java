package dev.rivulet.query;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs one {@link OracleScenario} against a fresh {@link Rivulet} and checks, after the live
 * queries are created and after every later transaction:
 *
 * <ol>
 *   <li>each collection's rows equal the model's visible rows;
 *   <li>each live query's {@code rows()} equal the {@link NaiveQuery} result over the visible rows
 *       (a query reading a live query reads that query's published rows), order included where
 *       the query orders ({@link ResultMatch}); its {@code resultSchema()} has the names and types
 *       {@link Shapes} derives; it is READY;
 *   <li>the same query run as SQL by SQLite and by H2 on tables holding the same rows gives the
 *       naive result too (when the query is expressible there, see {@link QuerySqlRenderer});
 *   <li>reconstruction: folding every published {@link ChangeEvent} into the rows at creation
 *       gives {@code rows()} and {@code get(key)}, for live queries and collections; each listener
 *       runs at most once per transaction, names a key at most once (events are the net change),
 *       and each event's previous row is the folded one;
 *   <li>Java types: every value handed out (rows, events, change batches, window steps) has the
 *       Java class of its column's type as the reference types it ({@link JavaTypes} over {@link
 *       Shapes}), not as the system's own schema says;
 *   <li>coherence: inside any listener, every collection and live query already reads the state
 *       after the whole transaction (layered queries included);
 *   <li>metamorphic twins: a query declared the twin of another has the same rows after every
 *       transaction (see {@link OracleScenario.Spec#twin}).
 * </ol>
 *
 * <p>The first failed check is returned as a {@link Divergence}; nothing is thrown for a divergence.
 */
final class OracleRun {
  /** What to check. */
  record Options(boolean sqlite, boolean h2) {
    static final Options ALL = new Options(true, true);
    static final Options ENGINE_ONLY = new Options(false, false);
  }

  /**
   * The first failed check.
   *
   * @param step the index of the step after which it failed, or of the step before which the live
   *     queries were created, minus one, when it failed at creation
   * @param at the same, in words, with the step
   * @param query the live query's name, or null for a collection or an event check
   * @param kind what disagreed, e.g. "engine vs naive", "sqlite vs naive", "h2 error", "events",
   *     "reconstruction", "coherence", "twin", "exception"
   */
  record Divergence(int step, String at, String query, String kind, String expected, String actual, String detail) {
    String describe() {
      return kind + (query == null ? "" : " for live query " + query) + " " + at + "\n  expected: " + expected
          + "\n  actual:   " + actual + "\n  detail:   " + detail;
    }
  }

  private static final class Failed extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final transient Divergence divergence;

    Failed(Divergence d) {
      super(d.describe(), null, false, false);
      this.divergence = d;
    }
  }

  private final OracleScenario sc;
  private final Rivulet db = Rivulet.create();
  private final List<SourceCollection> collections = new ArrayList<>();
  private final OracleHistory.Model model;
  private final List<LiveQuery> live = new ArrayList<>();
  private final Map<String, LiveQuery> byName = new HashMap<>();
  /** The types each collection's and live query's values must have: declared by the test, or by {@link Shapes}. */
  private final Map<BaseCollection, Schema> reference = new java.util.IdentityHashMap<>();
  private final Map<Integer, Transaction> txs = new HashMap<>();
  private final EventLedger events;
  private final SqlOracle sql;
  private final Stats stats;
  private int step = -1;
  private String at = "";

  private OracleRun(OracleScenario sc, Options options, Stats stats) {
    this.sc = sc;
    this.stats = stats;
    this.model = new OracleHistory.Model(sc.world().tables.size());
    this.events = new EventLedger(db, this::everything, reference::get);
    this.sql = new SqlOracle(sc, options, stats);
    if (options.sqlite() && !options.h2() && sc.world().unicode) {
      stats.h2Skipped++;
    }
  }

  private List<BaseCollection> everything() {
    List<BaseCollection> all = new ArrayList<>(collections);
    all.addAll(live);
    return all;
  }

  /** Counters over runs, for the suite's summary. */
  static final class Stats {
    /** Individual comparisons made. */
    long checks;
    /** Live query results compared with the naive evaluator, and how many were not empty. */
    long results;
    long nonEmpty;
    /** Results compared with SQLite and with H2, and queries H2 could not run (FULL JOIN). */
    long sqlite;
    long h2;
    long h2Unsupported;
    /** Scenarios whose text H2 cannot order or measure as we do (beyond U+FFFF): SQLite only. */
    long h2Skipped;
    /** Checked states (collections after a transaction) holding each rare kind of value. */
    final dev.rivulet.testkit.RareKinds.Tally rare = new dev.rivulet.testkit.RareKinds.Tally();

    @Override
    public String toString() {
      return checks + " checks; " + results + " live results compared with the naive evaluator (" + nonEmpty
          + " not empty), " + sqlite + " with SQLite, " + h2 + " with H2 (" + h2Unsupported
          + " queries not expressible in H2, " + h2Skipped + " scenarios with text beyond U+FFFF not sent to H2); "
          + rare;
    }
  }

  /** Runs {@code sc}; null when every check passed. */
  static Divergence run(OracleScenario sc, Options options) {
    return run(sc, options, new Stats());
  }

  /** As {@link #run}, adding to {@code stats}. */
  static Divergence run(OracleScenario sc, Options options, Stats stats) {
    return run(sc, options, stats, new HashMap<>());
  }

  /** As {@link #run}; puts each live query's final {@code rows()} in {@code finalRows} by name. */
  static Divergence run(OracleScenario sc, Options options, Stats stats, Map<String, List<Row>> finalRows) {
    OracleRun run = new OracleRun(sc, options, stats);
    try {
      run.execute();
      for (LiveQuery q : run.live) {
        finalRows.put(q.name(), q.rows());
      }
      return null;
    } catch (Failed f) {
      return f.divergence;
    } catch (NaiveQuery.Ambiguous e) {
      throw new IllegalStateException("generator contract broken: " + e.getMessage() + "\n" + sc.describe(), e);
    } finally {
      run.sql.close();
    }
  }

  private void execute() {
    for (OracleWorld.Table t : sc.world().tables) {
      SourceCollection c = db.collection(t.name(), t.schema(), t.keyColumns());
      c.beginSync().markReady().commit();
      collections.add(c);
      reference.put(c, t.schema());
      events.watch(c);
    }
    List<OracleHistory.Step> steps = sc.steps();
    for (int i = 0; i <= steps.size(); i++) {
      if (i == sc.createAt()) {
        step = i - 1;
        at = "when the live queries were created (before step " + i + ")";
        createQueries();
        check();
      }
      if (i == steps.size()) {
        break;
      }
      step = i;
      at = "after step " + i + " (" + steps.get(i) + ")";
      deliver(steps.get(i));
      if (i >= sc.createAt()) {
        check();
      }
    }
  }

  private void createQueries() {
    for (OracleScenario.Spec spec : sc.queries()) {
      LiveQuery q;
      try {
        q = db.liveQuery(spec.name(), QueryIrs.toQuery(spec.ir(), this::bind));
      } catch (RuntimeException e) {
        throw fail(spec.name(), "create", "a live query", e.toString(), "");
      }
      live.add(q);
      byName.put(spec.name(), q);
      Schema want = Shapes.of(spec.ir());
      reference.put(q, want);
      events.watch(q);
      if (!Shapes.sameNamesAndTypes(want, q.resultSchema())) {
        throw fail(spec.name(), "result schema", want.toString(), q.resultSchema().toString(), "");
      }
    }
  }

  private Source bind(Source s) {
    if (s instanceof OracleWorld.Table t) {
      return collections.get(sc.world().tables.indexOf(t));
    }
    LiveQuery q = byName.get(s.name());
    if (q == null) {
      throw new IllegalStateException("unbound source " + s.name());
    }
    return q;
  }

  private void deliver(OracleHistory.Step s) {
    events.startTransaction();
    try {
      if (s instanceof OracleHistory.Sync y && y.spansTables()) {
        SyncTransaction b = db.beginSync();
        if (y.truncate()) {
          b.truncate(collections.get(y.table()));
        }
        for (OracleHistory.Write w : y.writes()) {
          SourceCollection c = collections.get(w.table());
          if (w.row() == null) {
            b.delete(c, Row.of(w.id()));
          } else {
            b.write(c, w.row());
          }
        }
        b.commit();
      } else if (s instanceof OracleHistory.Sync y) {
        SourceCollection c = collections.get(y.table());
        SourceCollection.SyncBatch b = c.beginSync();
        if (y.truncate()) {
          b.truncate();
        }
        for (OracleHistory.Write w : y.writes()) {
          if (w.row() == null) {
            b.delete(Row.of(w.id()));
          } else {
            b.write(w.row());
          }
        }
        b.commit();
      } else if (s instanceof OracleHistory.Apply a) {
        Transaction tx = db.transaction();
        Map<String, Row> own = new HashMap<>();
        for (OracleHistory.Write w : model.effective(a.writes())) {
          SourceCollection c = collections.get(w.table());
          String k = w.table() + ":" + w.id();
          Row current = own.containsKey(k) ? own.get(k) : model.visible(w.table()).get(w.id());
          if (w.row() == null) {
            tx.delete(c, Row.of(w.id()));
          } else if (current == null) {
            tx.insert(c, w.row());
          } else {
            tx.update(c, w.row());
          }
          own.put(k, w.row());
        }
        tx.apply();
        txs.put(a.tx(), tx);
      } else {
        OracleHistory.Settle t = (OracleHistory.Settle) s;
        if (model.pending(t.tx())) {
          if (t.confirm()) {
            txs.get(t.tx()).confirm();
          } else {
            txs.get(t.tx()).rollback();
          }
        }
      }
    } catch (RuntimeException e) {
      String who = null;
      for (LiveQuery q : live) {
        if (q.status() == Status.ERROR) {
          who = q.name();
          break;
        }
      }
      throw fail(who, "exception", "the transaction to run", e.toString(), stackTop(e));
    }
    model.apply(s);
  }

  private void check() {
    String eventError = events.firstError();
    if (eventError != null) {
      throw fail(null, "events", "consistent change events", eventError, "");
    }
    for (int t = 0; t < collections.size(); t++) {
      List<Row> want = new ArrayList<>(model.visible(t).values());
      String d = ResultMatch.multisetDiff(want, collections.get(t).rows());
      stats.checks++;
      if (d != null) {
        throw fail(null, "collection " + sc.world().tables.get(t).name() + " vs model", want.toString(),
            collections.get(t).rows().toString(), d);
      }
    }
    List<Row> state = new ArrayList<>();
    for (int t = 0; t < collections.size(); t++) {
      state.addAll(model.visible(t).values());
    }
    stats.rare.add(state);
    NaiveQuery naive = new NaiveQuery(this::contents);
    List<NaiveQuery.Result> expected = new ArrayList<>();
    for (int i = 0; i < live.size(); i++) {
      OracleScenario.Spec spec = sc.queries().get(i);
      LiveQuery q = live.get(i);
      NaiveQuery.Result want = naive.eval(spec.ir());
      expected.add(want);
      List<Row> got = q.rows();
      stats.checks++;
      if (q.status() != Status.READY) {
        throw fail(spec.name(), "status", "READY", q.status() + "", String.valueOf(q.error()));
      }
      stats.results++;
      stats.nonEmpty += want.window().isEmpty() ? 0 : 1;
      String d = ResultMatch.mismatch(want, got);
      if (d != null) {
        throw fail(spec.name(), "engine vs naive", want.window().toString(), got.toString(), d);
      }
      if (q.size() != got.size()) {
        throw fail(spec.name(), "size", got.size() + "", q.size() + "", "size() disagrees with rows()");
      }
      Map<Row, Row> f = events.folded(q);
      String fd = ResultMatch.multisetDiff(got, new ArrayList<>(f.values()));
      if (fd != null) {
        throw fail(spec.name(), "reconstruction", got.toString(), f.values().toString(), "folded events: " + fd);
      }
      for (Map.Entry<Row, Row> e : f.entrySet()) {
        if (!q.get(e.getKey()).equals(java.util.Optional.of(e.getValue()))) {
          throw fail(spec.name(), "get(key)", e.getValue().toString(), q.get(e.getKey()).toString(),
              "key " + e.getKey());
        }
      }
    }
    for (SourceCollection c : collections) {
      String fd = ResultMatch.multisetDiff(c.rows(), new ArrayList<>(events.folded(c).values()));
      if (fd != null) {
        throw fail(null, "reconstruction of " + c.name(), c.rows().toString(), events.folded(c).values().toString(),
            fd);
      }
    }
    for (BaseCollection c : everything()) {
      for (Row r : c.rows()) {
        String tm = JavaTypes.mismatch(reference.get(c), r);
        if (tm != null) {
          throw fail(c instanceof LiveQuery ? c.name() : null, "java types", "each value in its column's Java class",
              tm, "rows()");
        }
      }
      String fm = events.facesMismatch(c, c.rows());
      stats.checks++;
      if (fm != null) {
        throw fail(c instanceof LiveQuery ? c.name() : null, "faces", "change batches and windows fold into rows()",
            fm, "");
      }
    }
    String tm = events.txMismatch(db.lastTxId());
    if (tm != null) {
      throw fail(null, "transaction ids", "every delivery names the transaction just run", tm, "");
    }
    checkTwins();
    long[] checks = new long[1];
    String incoherent = events.coherenceMismatch(c -> c instanceof LiveQuery q && isOrdered(q), checks);
    stats.checks += checks[0];
    if (incoherent != null) {
      throw fail(null, "coherence", "every listener reads the whole transaction", incoherent, "");
    }
    for (int t = 0; t < collections.size(); t++) {
      sql.load(sc.world().tables.get(t).name(), new ArrayList<>(model.visible(t).values()));
    }
    for (OracleScenario.Spec spec : sc.queries()) {
      for (int read : spec.reads()) {
        sql.load(sc.queries().get(read).name(), live.get(read).rows());
      }
    }
    for (int i = 0; i < live.size(); i++) {
      SqlOracle.Problem p = sql.check(i, expected.get(i));
      if (p != null) {
        throw fail(sc.queries().get(i).name(), p.kind(), p.expected(), p.actual(), p.detail());
      }
    }
  }

  /** Queries that must equal an earlier one (metamorphic relations) do, after every transaction. */
  private void checkTwins() {
    for (int i = 0; i < live.size(); i++) {
      int twin = sc.queries().get(i).twin();
      if (twin < 0) {
        continue;
      }
      List<Row> mine = live.get(i).rows();
      List<Row> theirs = live.get(twin).rows();
      boolean lists = isOrdered(live.get(i)) && isOrdered(live.get(twin));
      String d = lists ? (mine.equals(theirs) ? null : "not the same list") : ResultMatch.multisetDiff(theirs, mine);
      stats.checks++;
      if (d != null) {
        throw fail(sc.queries().get(i).name(), "twin", sc.queries().get(twin).name() + ": " + theirs, mine.toString(), d);
      }
    }
  }

  private boolean isOrdered(LiveQuery q) {
    int i = live.indexOf(q);
    QueryIR ir = sc.queries().get(i).ir();
    return ir instanceof QueryIR.Select s && (!s.orderBy().isEmpty() || s.findOne());
  }

  private List<NaiveQuery.KRow> contents(Source src) {
    List<NaiveQuery.KRow> out = new ArrayList<>();
    if (src instanceof OracleWorld.Table t) {
      for (Map.Entry<Long, Row> e : model.visible(sc.world().tables.indexOf(t)).entrySet()) {
        out.add(new NaiveQuery.KRow(e.getValue(), Row.of(e.getKey())));
      }
      return out;
    }
    LiveQuery q = byName.get(src.name());
    Map<Row, Row> rows;
    synchronized (db) {
      rows = q.snapshot();
    }
    rows.forEach((k, v) -> out.add(new NaiveQuery.KRow(v, k)));
    return out;
  }

  private Failed fail(String query, String kind, String expected, String actual, String detail) {
    return new Failed(new Divergence(step, at, query, kind, expected, actual, detail));
  }

  private static String stackTop(Throwable e) {
    StringBuilder sb = new StringBuilder();
    StackTraceElement[] st = e.getStackTrace();
    for (int i = 0; i < Math.min(8, st.length); i++) {
      sb.append("\n      at ").append(st[i]);
    }
    if (e.getCause() != null) {
      sb.append("\n    caused by ").append(e.getCause());
    }
    return sb.toString();
  }
}
