package dev.rivulet.query;

import dev.rivulet.engine.Column;
import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.Graph;
import dev.rivulet.engine.GraphBuilder;
import dev.rivulet.engine.Input;
import dev.rivulet.engine.Output;
import dev.rivulet.engine.RivuletException;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.RowSource;
import dev.rivulet.engine.internal.EngineAccess;
import dev.rivulet.engine.Schema;
import dev.rivulet.query.compile.Compiled;
import dev.rivulet.query.compile.QueryPlans;
import dev.rivulet.query.compile.RowShape;
import dev.rivulet.query.face.NestedValues;
import dev.rivulet.query.face.ShownRows;
import dev.rivulet.query.state.ChangeBuffer;
import dev.rivulet.query.state.ResultConflicts;
import dev.rivulet.query.state.RetractedRows;
import dev.rivulet.query.state.RowTable;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A query kept live: itself a {@link LiveCollection} whose rows are the query's result, keyed by
 * the result key (a source row's key, the tuple of joined rows' keys, the group values, or the
 * whole row under distinct; a side an outer join may null-extend adds a presence column when its
 * own key cannot show that it is absent). It can be read by other live queries: as a {@link Source} its schema
 * is the visible columns followed by hidden {@code __key} columns.
 *
 * <p>It stores the graph's result rows as they come (visible columns, then hidden key and sort
 * columns), keyed by the key columns inside them, and projects the visible part only for readers
 * and listeners, so an update of the result copies no row.
 *
 * <p>Each input transaction runs its graph once; the result is installed, and its events
 * published, only after every live query of the transaction has run. A query that cannot show a
 * valid result is in {@link Status#ERROR}, with {@link #error()} saying why, while its last
 * published rows stay readable and nothing is delivered; its graph keeps running on later
 * transactions with the full result kept aside ({@link ResultConflicts}). Two causes recover:
 *
 * <ul>
 *   <li>two rows for one key (a duplicate-key error), until no key has two rows any more (say the
 *       duplicate was deleted);
 *   <li>a source live query in {@code ERROR} (the error names the source and has its error as
 *       the cause), until that source recovers.
 * </ul>
 *
 * On recovery its rows become the current result, subscribers receive the difference from the
 * rows they last saw (a window subscriber a reset), and its status is that of its sources again.
 * A closed source (closing is final) and any other failure (an error inside the graph, a
 * retraction that matches no row) fail the query for good: it stops running. A new live query
 * over a closed source is refused; one over a source in {@code ERROR} starts in {@code ERROR}.
 *
 * <p>An ordered query's order is total: its sort keys, then its result key. Its window face
 * ({@link #subscribeWindow}) carries each row's position and {@link Cursor}.
 *
 * <p>Guarded by the owning {@link Rivulet}'s monitor.
 */
public final class LiveQuery extends BaseCollection {
  private static final EngineAccess ENGINE = EngineAccess.get();
  private final Graph graph;
  private final Output output;
  final BaseCollection[] sources; // the collections read, each with its graph input
  private boolean observing; // whether the sources count this query among their readers
  private final Input[] inputs;
  private final boolean[] unhydrated; // per source: read only by indexed semi-joins (not hydrated)
  private final int visibleWidth;
  private final int[] resultKeys;
  private final int[] visibleIndexes;
  final ResultOrder ordered; // null when the query does not order
  private final boolean sourceForm; // a result row is visible columns then the key: its source row
  private final Query query;
  private final boolean keepsSourceRows; // see keepsSourceRows(QueryIR)
  private final List<String> customKey;
  private final RowShape shape; // the visible columns with their includes
  final int conflictAt; // a custom key's conflict column (see PublicKeys), or -1
  private final IncludeFacades facades; // the collection includes' facades; null when it has none
  private final List<String> demandPlans = new ArrayList<>(); // its plans in the demand adapter
  private final List<Output> demandOutputs = new ArrayList<>(); // per plan: demanded values (null: whole)
  private final RetractedRows retracted = new RetractedRows(); // scratch of run()
  private long bulkInstalled; // see bulkInstalled()
  private final QueryFailure failure; // failed and recovering
  private final ShownRows shown; // null unless ShownRows.applies to the shape
  private final java.util.function.BinaryOperator<Row> show; // publicRow for shown, made once, not per row

  private LiveQuery(Rivulet db, String name, Schema schema, List<String> keys, Graph graph, QueryPlans.Plan plan,
      int[] resultKeys, Query query, List<String> customKey) {
    super(db, name, schema, keys, resultKeys);
    this.query = query;
    this.keepsSourceRows = keepsSourceRows(query.raw());
    this.customKey = customKey;
    this.graph = graph;
    this.output = graph.output("result");
    this.failure = new QueryFailure(this, output);
    Compiled c = plan.result();
    this.shape = c.shape();
    // the nests tested here first: a flat shape does not load ShownRows
    this.shown = !shape.nests().isEmpty() && ShownRows.applies(shape) ? new ShownRows() : null;
    this.show = shown == null ? null : this::publicRow;
    this.visibleWidth = c.visible().width();
    this.resultKeys = resultKeys;
    this.visibleIndexes = new int[visibleWidth];
    for (int i = 0; i < visibleWidth; i++) {
      visibleIndexes[i] = i;
    }
    this.ordered = c.ordered() ? new ResultOrder(this, c.order()) : null;
    boolean keysFollow = output.schema().width() == visibleWidth + resultKeys.length;
    for (int i = 0; i < resultKeys.length; i++) {
      keysFollow &= resultKeys[i] == visibleWidth + i;
    }
    this.sourceForm = keysFollow;
    this.conflictAt = customKey == null ? -1 : output.schema().width() - 1;
    this.facades = plan.facades().isEmpty() ? null : new IncludeFacades(db, name, plan.facades(), graph);
    for (dev.rivulet.query.compile.DemandEdge d : plan.demands()) {
      String id = name + "@" + Integer.toHexString(System.identityHashCode(this)) + "#" + demandPlans.size();
      db.demand().register(id, (LazyCollection) d.source(), d.columns(), d.order(), d.limit(), d.filter());
      demandPlans.add(id);
      demandOutputs.add(d.output() == null ? null : graph.output(d.output()));
      if (d.output() == null) {
        db.demand().change(id, Row.of(), 1); // a whole read demands all of the source, once
      }
    }
    this.sources = new BaseCollection[plan.sources().size()];
    this.inputs = new Input[sources.length];
    this.unhydrated = new boolean[sources.length];
    for (int i = 0; i < sources.length; i++) {
      Source s = plan.sources().get(i);
      unhydrated[i] = plan.unhydrated().contains(s);
      sources[i] = (BaseCollection) s;
      inputs[i] = graph.input(plan.inputNames().get(i));
    }
  }

  /**
   * What the compiler asks of a query's sources: which are lazy (read as demands), and the rows of
   * the eager collections of {@code db} an include may read directly. One object, not two lambdas,
   * whose linkage a fresh JVM would pay on the way to the first query.
   */
  private static final class SourceKinds
      implements java.util.function.Predicate<Source>, java.util.function.Function<Source, RowSource> {
    private final Rivulet db;

    SourceKinds(Rivulet db) {
      this.db = db;
    }

    @Override
    public boolean test(Source s) {
      return s instanceof BaseCollection bc && bc.onDemand();
    }

    @Override
    public RowSource apply(Source s) {
      return s instanceof BaseCollection bc && bc.db == db && !bc.onDemand() && !bc.nested() ? new CollectionRows(bc) : null;
    }
  }

  /**
   * Compiles {@code query}; its sources must be collections of {@code db}. With {@code
   * keyColumns}, the result is keyed by those visible columns instead of the derived key.
   */
  static LiveQuery create(Rivulet db, String name, Query query, List<String> keyColumns) {
    // Planning runs every check Query.ir() would, so the raw IR is compiled once.
    GraphBuilder b = Graph.builder();
    QueryPlans.Plan plan;
    try {
      // Kinds of collection by their methods, not instanceof: a flat query loads neither class.
      SourceKinds kinds = new SourceKinds(db);
      plan = QueryPlans.plan(query.raw(), b, keyColumns, kinds, kinds);
    } catch (QueryException e) {
      throw e.getMessage().startsWith("key: ") ? new QueryException("live query '" + name + "' " + e.getMessage()) : e;
    }
    for (Source s : plan.sources()) {
      if (s instanceof BaseCollection bc && bc.nested()) {
        throw new QueryException("live query '" + name + "': source " + s.name() + " is a nested collection; query"
            + " its source instead");
      }
      if (!(s instanceof BaseCollection bc) || bc.db != db) {
        throw new QueryException("live query '" + name + "': source " + s.name() + " is not a collection of this database");
      }
      if (bc.statusNow() == Status.CLOSED) {
        throw new QueryException("live query '" + name + "': source '" + s.name() + "' is closed");
      }
    }
    Compiled c = plan.result();
    b.keyedOutput("result", c.stream()); // install() rejects two rows of one key, consolidated or not
    int[] resultKeys = c.keys();
    List<Column> cols = new ArrayList<>(c.visible().columns());
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < resultKeys.length; i++) {
      cols.add(Column.of("__key" + i, ColumnType.ANY));
      keys.add("__key" + i);
    }
    return new LiveQuery(db, name, Schema.of(cols), keys, b.build(), plan, resultKeys, query, keyColumns);
  }

  /** Marks the sources as read (from now on they keep their changes for this query, until it closes). */
  void observeSources() {
    if (!observing) {
      observing = true;
      for (BaseCollection s : sources) {
        s.observers++;
      }
    }
  }

  /** Sends the transaction's changes of the sources to the graph; whether there were any. */
  boolean sendChanges() {
    boolean any = false;
    for (int i = 0; i < sources.length; i++) {
      ChangeBuffer c = sources[i].change;
      for (int j = 0; j < c.size(); j++) {
        ENGINE.send(inputs[i], c.row(j), c.weight(j), sources[i].schema);
      }
      any |= !c.isEmpty();
    }
    return any;
  }

  /**
   * Whether every row a graph of {@code ir} keeps is a row of its source itself, not one made of
   * its values: one relation, all its columns, no grouping and no distinct (a filter, an order and
   * a limit pass rows on as they are). Such a query may read a source's rows before their values
   * are pooled ({@link BaseCollection#poolLoads}): pooling them later, in place, pools its rows.
   */
  private static boolean keepsSourceRows(QueryIR ir) {
    return ir instanceof QueryIR.Select s && s.joins().isEmpty() && s.select().isEmpty() && s.groupBy().isEmpty()
        && s.having() == null && !s.distinct() && s.from().relation() instanceof QueryIR.Table;
  }

  /** Sends every source's current rows, one array per source: the first run hydrates. */
  void hydrate() {
    if (!keepsSourceRows) {
      for (BaseCollection s : sources) {
        s.poolLoads(); // this query's rows copy values out of the sources' rows: shared ones
      }
    }
    for (int i = 0; i < sources.length; i++) {
      if (unhydrated[i]) {
        continue; // read only by includes' indexed semi-joins, which take its rows themselves
      }
      Row[] rows = sources[i].sourceRows();
      // A collection stores canonical rows (a source's are made so where they enter, a live
      // query's are its graph's output), so the engine need not read them again.
      ENGINE.sendAll(inputs[i], rows, rows.length, sources[i].schema, true);
    }
  }

  /** Whether {@code e} is the duplicate-key error this query's last run threw. */
  boolean isDuplicate(RuntimeException e) {
    return failure.isDuplicate(e);
  }

  /** Fails this query on what its run threw (see {@link QueryFailure#runFailed}). */
  void runFailed(RuntimeException e) {
    failure.runFailed(e);
  }

  /** Before a run: fails this query, naming the source, when a source is in error or closed. */
  void checkSources() {
    failure.checkSources();
  }

  /** After a run (or when the transaction did not run it): settles its status (see {@link QueryFailure#settle}). */
  void settle() {
    failure.settle();
  }

  /** Whether a source is in error or closed. */
  boolean readsFailedSource() {
    return failure.failedSource() != null;
  }

  /** Whether a transaction runs this query: it is open and not failed for good. */
  boolean runnable() {
    Status st = statusNow();
    return st != Status.CLOSED && (st != Status.ERROR || failure.recoverable());
  }

  /**
   * Runs the graph and installs the result change (which, if live queries read this one, goes to
   * {@link #change} as source rows). While failed, folds the change aside ({@link #settle}
   * recovers).
   *
   * @throws RivuletException for a retraction that does not match the stored row, or two rows
   *     with one key (the caller fails this query)
   */
  void run() {
    graph.run();
    if (facades != null) {
      facades.apply(treeSubscribed());
    }
    if (!demandPlans.isEmpty()) {
      demand();
    }
    if (ENGINE.deltaSize(output) == 0) {
      return; // the change did not reach the result (e.g. filtered out)
    }
    if (failure.recoverable()) {
      failure.foldWhileFailed();
      return;
    }
    install();
    if (ordered != null) {
      ordered.apply(output);
    }
  }

  private void install() {
    int n = ENGINE.deltaSize(output);
    int from = installNew(n);
    if (from == n) {
      return;
    }
    // Retractions are checked first and applied last: a key that gets a new row in this run has
    // its row replaced in place, and only keys left without a row are removed.
    retracted.clear();
    for (int i = from; i < n; i++) {
      long w = ENGINE.deltaWeight(output, i);
      if (w < 0) {
        Row full = ENGINE.deltaRow(output, i);
        Row stored = rows.getRow(full);
        if (w != -1 || !full.equals(stored)) {
          throw new RivuletException("live query '" + name() + "': retraction of " + visible(full) + " x" + (-w)
              + " does not match its row for key " + keyOf(full));
        }
        retracted.add(stored);
      }
    }
    if (retracted.isEmpty()) {
      rows.reserve(rows.size() + n - from);
    }
    for (int i = from; i < n; i++) {
      long w = ENGINE.deltaWeight(output, i);
      if (w > 0) {
        Row full = ENGINE.deltaRow(output, i);
        if (conflicted(full)) {
          failure.failOnDuplicate(i, null);
        }
        Row other = w == 1 ? rows.putRow(full) : full; // weight 2 or more: a duplicate by itself
        if (other != null && !retracted.remove(other)) {
          failure.failOnDuplicate(i, other);
        }
        changed(null, other, full);
      }
    }
    List<Row> few = retracted.few();
    if (few != null) {
      for (int i = 0; i < few.size(); i++) { // by index: an update's install allocates nothing
        removed(few.get(i));
      }
    } else {
      for (Row gone : retracted) {
        removed(gone);
      }
    }
  }

  private void removed(Row gone) {
    rows.removeRow(gone);
    changed(null, gone, null);
  }

  /**
   * Installs an insert-only change whose rows nobody records (a hydration's result) in one bulk
   * put ({@link RowTable#putNew}) while each key is new; returns how many entries it installed
   * (0 when the change does not qualify): the general path goes on from there, and fails on the
   * duplicate key that stopped it.
   */
  private int installNew(int n) {
    if (conflictAt >= 0 || recordsChanges()) {
      return 0;
    }
    Row[] inserts = ENGINE.deltaInserts(output);
    if (inserts == null) {
      return 0;
    }
    int done = rows.putNew(inserts, n);
    bulkInstalled += done;
    return done;
  }

  /** Result rows installed by the bulk path ({@link #installNew}) so far (for tests). */
  long bulkInstalled() {
    return bulkInstalled;
  }

  /** Whether {@code full} is a custom key's conflict row (see {@code PublicKeys}). */
  boolean conflicted(Row full) {
    return conflictAt >= 0 && full.get(conflictAt) != null;
  }

  /** Hands the run's changes of the demanded values to the demand adapter (seed 000, "Demand plane"). */
  private void demand() {
    for (int p = 0; p < demandPlans.size(); p++) {
      Output out = demandOutputs.get(p);
      for (int i = 0; out != null && i < ENGINE.deltaSize(out); i++) {
        db.demand().change(demandPlans.get(p), ENGINE.deltaRow(out, i), ENGINE.deltaWeight(out, i));
      }
    }
    db.demand().flush();
  }

  /**
   * Undoes what creating this query registered outside it, when its creation fails or it closes:
   * its sources' count of readers (a source read by nobody records no changes, and loads in bulk)
   * and its demand plans (a lazy collection would otherwise keep the rows they asked for, with
   * nobody to release them). Caller holds the monitor.
   */
  void abandon() {
    if (observing) { // its sources need not keep their changes for it any more
      observing = false;
      for (BaseCollection s : sources) {
        s.observers--;
      }
    }
    for (String id : demandPlans) {
      db.demand().unregister(id);
    }
    if (!demandPlans.isEmpty()) {
      db.demand().flush();
    }
  }

  @Override
  public void close() {
    synchronized (db) {
      if (statusNow() == Status.CLOSED) {
        return; // closed already: its demand plans are gone
      }
      abandon();
      super.close();
      if (shown != null) {
        shown.clear();
      }
    }
    if (!demandPlans.isEmpty()) {
      db.runDemand(); // the released requests' rows go now, not with the next transaction
    }
  }

  @Override
  void publish(long txId) {
    super.publish(txId);
    if (facades != null) {
      facades.publish(txId);
    }
  }

  @Override
  void discardStaged() {
    super.discardStaged();
    if (facades != null) {
      facades.discardStaged();
    }
  }

  @Override
  List<WindowDelta> takeWindowSteps() {
    return ordered == null ? null : ordered.takeSteps();
  }

  @Override
  List<WindowDelta> takeTreeSteps() {
    return ordered == null ? null : ordered.treeSteps();
  }

  @Override
  boolean positioned() {
    return ordered != null;
  }

  @Override
  void fail(Throwable cause) {
    if (ordered != null) {
      ordered.discardSteps();
    }
    super.fail(cause);
  }

  /** The visible part of a result row: the row itself when it has no hidden columns. */
  Row visible(Row full) {
    return full.width() == visibleWidth ? full : full.project(visibleIndexes);
  }

  /** Ready once every source is ready; loading while any is loading. */
  void updateReadiness() {
    if (statusNow() == Status.ERROR || statusNow() == Status.CLOSED) {
      return;
    }
    boolean allReady = true;
    boolean anyLoading = false;
    for (BaseCollection s : sources) {
      allReady &= s.statusNow() == Status.READY;
      anyLoading |= s.statusNow() == Status.LOADING || s.statusNow() == Status.READY;
    }
    setStatus(allReady ? Status.READY : anyLoading ? Status.LOADING : Status.IDLE);
  }

  @Override
  Row publicRow(Row stored) {
    return publicRow(stored, null);
  }

  /** {@link #publicRow(Row)}, taking equal nested values' shown forms from {@code earlier} (see {@link ShownRows#of}). */
  private Row publicRow(Row stored, Row earlier) {
    // The hidden key columns are ANY: only visible ones are typed; includes are shown nested.
    Row visible = visible(stored);
    NestedValues.Facades nested = facades == null ? null : facades.nested();
    return NestedValues.show(schema.present(visible), visible.canonical(), shape, nested, earlier);
  }

  @Override
  Row publishedRow(Row stored, boolean leaving) {
    return shown == null ? publicRow(stored) : shown.of(stored, leaving, show);
  }

  /** Public rows a publication handed out again instead of showing them anew (for tests). */
  long shownHits() {
    return shown == null ? 0 : shown.hits();
  }

  /** New public rows shown with the key's old public row at hand to take equal nested values from (for tests). */
  long shownFromEarlier() {
    return shown == null ? 0 : shown.templated();
  }

  @Override
  Row sourceRow(Row stored) {
    return sourceForm ? stored : visible(stored).concat(keyOf(stored));
  }

  @Override
  boolean storedIsSource() {
    return sourceForm;
  }

  @Override
  public List<Row> rows() {
    synchronized (db) {
      if (ordered == null) {
        return super.rows();
      }
      List<Row> out = new ArrayList<>(ordered.rows().size());
      for (Row full : ordered.rows()) {
        out.add(publicRow(full));
      }
      return out;
    }
  }

  @Override
  Row[] storedRows() {
    return ordered == null ? super.storedRows() : ordered.rows().toArray(new Row[0]);
  }

  /** Whether the query orders its result (and so has a window face). */
  public boolean ordered() {
    return ordered != null;
  }

  /**
   * The names of this query's relationship includes (array, one and collection; not concat), in
   * select order: relationship slot i of a {@link CaughtNode} is the i-th.
   */
  public List<String> relationships() {
    return shape.relationships().stream().map(RowShape.Nest::name).toList();
  }

  /** The layout of the result rows with their includes. */
  @Override
  RowShape shape() {
    return shape;
  }

  @Override
  dev.rivulet.query.face.TreeDiff.Buckets buckets() {
    return facades == null ? dev.rivulet.query.face.TreeDiff.Buckets.NONE : facades.buckets();
  }

  @Override
  boolean bucketsChanged() {
    return facades != null && facades.anyChanged();
  }

  /** The query this live query keeps. */
  public Query query() {
    return query;
  }

  /**
   * The window face of an ordered query: a {@link WindowBatch} that starts with a reset (the
   * current window, each row with its index and cursor), atomically with the subscription, then
   * one per later transaction that changed the window. The returned {@link LiveWindow} can be
   * re-anchored to another cursor and limit.
   *
   * @throws QueryException when the query has no order by
   */
  public LiveWindow subscribeWindow(SubscribeOptions options, Consumer<WindowBatch> listener) {
    return new LiveWindow(this, options, listener);
  }

  /**
   * The order and window face of this query.
   *
   * @throws QueryException when the query has no order by
   */
  ResultOrder order() {
    if (ordered == null) {
      throw new QueryException("live query '" + name() + "': a window needs an order by");
    }
    return ordered;
  }

  /** The key columns this query was created with (null: the derived key). */
  List<String> customKey() {
    return customKey;
  }

  /** The visible columns of the result. */
  public Schema resultSchema() {
    List<Column> cols = schema.columns().subList(0, visibleWidth);
    return Schema.of(cols);
  }

  /**
   * The rows this query's operators examined so far, summed: what {@link #stats()} adds up,
   * read without making a list (a harness reads it around every update).
   */
  public long examined() {
    synchronized (db) {
      return graph.examined();
    }
  }

  /** Operator counters of this query's graph. */
  public List<dev.rivulet.engine.OperatorStats> stats() {
    synchronized (db) {
      return graph.stats();
    }
  }
}
