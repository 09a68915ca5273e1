package dev.rivulet.query;

import dev.rivulet.engine.Column;
import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.Graph;
import dev.rivulet.engine.GraphBuilder;
import dev.rivulet.engine.Input;
import dev.rivulet.engine.Output;
import dev.rivulet.engine.RivuletException;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.query.compile.Compiled;
import dev.rivulet.query.compile.QueryPlans;
import dev.rivulet.query.state.ChangeBuffer;
import dev.rivulet.query.state.ResultConflicts;
import dev.rivulet.query.state.RetractedRows;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
 * published, only after every live query of the transaction has run. Two rows for one key are a
 * duplicate-key error that puts this query in {@link Status#ERROR}; its last published rows stay
 * readable, and its graph keeps running on later transactions with the full result kept aside
 * ({@link ResultConflicts}). When no key has two rows any more (say the duplicate was deleted) it
 * recovers: its rows become the current result, subscribers receive the difference from the rows
 * they last saw (a window subscriber a reset), and its status is that of its sources again. Any
 * other failure (an error inside the graph, a retraction that matches no row) is final.
 *
 * <p>An ordered query's order is total: its sort keys, then its result key. Its window face
 * ({@link #subscribeWindow}) carries each row's position and {@link Cursor}.
 *
 * <p>Guarded by the owning {@link Rivulet}'s monitor.
 */
public final class LiveQuery extends BaseCollection {
  private final Graph graph;
  private final Output output;
  private final BaseCollection[] sources; // the collections read, each with its graph input
  private final Input[] inputs;
  private final int visibleWidth;
  private final int[] resultKeys;
  private final int[] visibleIndexes;
  private final ResultOrder ordered; // null when the query does not order
  private final boolean sourceForm; // a result row is visible columns then the key: its source row
  private final Query query;
  private final List<String> customKey;
  private final RetractedRows retracted = new RetractedRows(); // scratch of run()
  private ResultConflicts conflicts; // the full result while failed on a duplicate key

  private LiveQuery(Rivulet db, String name, Schema schema, List<String> keys, Graph graph, QueryPlans.Plan plan,
      int[] resultKeys, Query query, List<String> customKey) {
    super(db, name, schema, keys, resultKeys);
    this.query = query;
    this.customKey = customKey;
    this.graph = graph;
    this.output = graph.output("result");
    Compiled c = plan.result();
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
    this.sources = new BaseCollection[plan.inputs().size()];
    this.inputs = new Input[sources.length];
    int i = 0;
    for (Map.Entry<Source, String> e : plan.inputs().entrySet()) {
      sources[i] = (BaseCollection) e.getKey();
      inputs[i++] = graph.input(e.getValue());
    }
  }

  /**
   * Compiles {@code query}; its sources must be collections of {@code db}. With {@code
   * keyColumns}, the result is keyed by those visible columns instead of the derived key.
   */
  static LiveQuery create(Rivulet db, String name, Query query, List<String> keyColumns) {
    // Planning runs every check Query.ir() would, so the raw IR is compiled once.
    GraphBuilder b = Graph.builder();
    QueryPlans.Plan plan = QueryPlans.plan(query.raw(), b);
    for (Source s : plan.inputs().keySet()) {
      if (!(s instanceof BaseCollection bc) || bc.db != db) {
        throw new QueryException("live query '" + name + "': source " + s.name() + " is not a collection of this database");
      }
    }
    Compiled c = plan.result();
    b.output("result", c.stream());
    int[] resultKeys = c.keys();
    if (keyColumns != null) {
      try {
        resultKeys = c.visible().indexesOf(keyColumns);
      } catch (RuntimeException e) {
        throw new QueryException("live query '" + name + "' key: " + e.getMessage());
      }
    }
    List<Column> cols = new ArrayList<>(c.visible().columns());
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < resultKeys.length; i++) {
      cols.add(Column.of("__key" + i, ColumnType.ANY));
      keys.add("__key" + i);
    }
    return new LiveQuery(db, name, Schema.of(cols), keys, b.build(), plan, resultKeys, query, keyColumns);
  }

  /** Marks the sources as read (from now on they keep their changes for this query). */
  void observeSources() {
    for (BaseCollection s : sources) {
      s.observed = true;
    }
  }

  /** Sends the transaction's changes of the sources to the graph; whether there were any. */
  boolean sendChanges() {
    boolean any = false;
    for (int i = 0; i < sources.length; i++) {
      ChangeBuffer c = sources[i].change;
      for (int j = 0; j < c.size(); j++) {
        inputs[i].send(c.row(j), c.weight(j), sources[i].schema);
      }
      any |= !c.isEmpty();
    }
    return any;
  }

  /** Sends every source's current rows: the first run hydrates. */
  void hydrate() {
    for (int i = 0; i < sources.length; i++) {
      Input input = inputs[i];
      Schema checked = sources[i].schema;
      sources[i].forEachSourceRow(row -> input.send(row, 1, checked));
    }
  }

  /** Whether a transaction runs this query: it is open and not failed for good. */
  /** Whether this query failed on a duplicate key (and so recovers when the key is unique). */
  boolean failedOnDuplicate() {
    return conflicts != null;
  }

  boolean runnable() {
    Status st = statusNow();
    return st != Status.CLOSED && (st != Status.ERROR || conflicts != null);
  }

  /**
   * Runs the graph and installs the result change (which, if live queries read this one, goes to
   * {@link #change} as source rows). While failed on a duplicate key, folds the change aside and
   * recovers when the result is valid again.
   *
   * @throws RivuletException for a retraction that does not match the stored row, or two rows
   *     with one key (the caller fails this query)
   */
  void run() {
    graph.run();
    if (output.deltaSize() == 0) {
      return; // the change did not reach the result (e.g. filtered out)
    }
    if (conflicts != null) {
      foldWhileFailed();
      return;
    }
    install();
    if (ordered != null) {
      ordered.apply(output, db.lastTxId());
    }
  }

  private void install() {
    int n = output.deltaSize();
    // Retractions are checked first and applied last: a key that gets a new row in this run has
    // its row replaced in place, and only keys left without a row are removed.
    retracted.clear();
    for (int i = 0; i < n; i++) {
      long w = output.deltaWeight(i);
      if (w < 0) {
        Row full = output.deltaRow(i);
        Row stored = rows.getRow(full);
        if (w != -1 || !full.equals(stored)) {
          throw new RivuletException("live query '" + name() + "': retraction of " + visible(full) + " x" + (-w)
              + " does not match its row for key " + keyOf(full));
        }
        retracted.add(stored);
      }
    }
    if (retracted.isEmpty()) {
      rows.reserve(rows.size() + n);
    }
    for (int i = 0; i < n; i++) {
      long w = output.deltaWeight(i);
      if (w > 0) {
        Row full = output.deltaRow(i);
        Row other = w == 1 ? rows.putRow(full) : full; // weight 2 or more: a duplicate by itself
        if (other != null && !retracted.remove(other)) {
          failOnDuplicate(i, other);
        }
        changed(null, other, full);
      }
    }
    for (Row gone : retracted) {
      rows.removeRow(gone);
      changed(null, gone, null);
    }
  }

  /**
   * Insertion {@code failed} of this run's change clashed with {@code other}: undoes the
   * insertions before it, so that the stored rows are the last published ones again, keeps the
   * full result aside to recover from, and throws the duplicate-key error.
   */
  private void failOnDuplicate(int failed, Row other) {
    Row full = output.deltaRow(failed);
    Map<Row, Row> retractedByKey = new java.util.HashMap<>();
    for (int i = 0; i < output.deltaSize(); i++) {
      if (output.deltaWeight(i) < 0) {
        retractedByKey.put(keyOf(output.deltaRow(i)), output.deltaRow(i));
      }
    }
    if (output.deltaWeight(failed) == 1) {
      rows.putRow(other); // putRow replaced it
    }
    for (int i = 0; i < failed; i++) {
      if (output.deltaWeight(i) > 0) {
        Row back = retractedByKey.get(keyOf(output.deltaRow(i)));
        if (back != null) {
          rows.putRow(back);
        } else {
          rows.removeRow(output.deltaRow(i));
        }
      }
    }
    conflicts = new ResultConflicts(this::keyOf);
    rows.forEachRow(r -> conflicts.add(r, 1));
    for (int i = 0; i < output.deltaSize(); i++) {
      conflicts.add(output.deltaRow(i), output.deltaWeight(i));
    }
    if (ordered != null) {
      ordered.failed(output);
    }
    throw new RivuletException("live query '" + name() + "': duplicate key " + keyOf(full) + ": rows "
        + visible(full) + " and " + visible(other) + " both have it; give the query a key that identifies"
        + " its rows (it recovers when the key is unique again)");
  }

  /** In error: folds the run's change aside; recovers once every key has one row. */
  private void foldWhileFailed() {
    for (int i = 0; i < output.deltaSize(); i++) {
      conflicts.add(output.deltaRow(i), output.deltaWeight(i));
    }
    if (ordered != null) {
      ordered.applyWhileFailed(output);
    }
    if (!conflicts.valid()) {
      return;
    }
    Map<Row, Row> now = conflicts.rows();
    conflicts = null;
    for (Row key : rows.keys()) {
      if (!now.containsKey(key)) {
        install(key, null);
      }
    }
    now.forEach(this::install);
    if (ordered != null) {
      ordered.recovered(db.lastTxId());
    }
    recover();
  }

  @Override
  List<WindowDelta> takeWindowSteps() {
    return ordered == null ? null : ordered.takeSteps();
  }

  @Override
  void fail(Throwable cause) {
    if (ordered != null) {
      ordered.discardSteps();
    }
    super.fail(cause);
  }

  /** The visible part of a result row: the row itself when it has no hidden columns. */
  private Row visible(Row full) {
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
    return schema.present(visible(stored)); // the hidden key columns are ANY: only visible ones are typed
  }

  @Override
  Row sourceRow(Row stored) {
    return sourceForm ? stored : visible(stored).concat(keyOf(stored));
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

  /** Operator counters of this query's graph. */
  public List<dev.rivulet.engine.OperatorStats> stats() {
    synchronized (db) {
      return graph.stats();
    }
  }
}
