package dev.rivulet.query;

import dev.rivulet.engine.RivuletException;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.SchemaException;
import dev.rivulet.query.demand.BucketWindow;
import dev.rivulet.query.demand.DemandLedger;
import dev.rivulet.query.demand.DemandRequest;
import dev.rivulet.query.demand.SortKeys;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The demand adapter of a database: turns demand rows of compiled demand plans into requests to
 * lazy sources, and what they load back into their {@link LazyCollection}s. Coverage (coalescing,
 * shared requests, generations, readiness) is its {@link DemandLedger}'s; this class does the
 * effects: it starts loads, takes their results from any thread, installs rows and sets
 * statuses.
 *
 * <p>Wiring (for the compiler and {@link LiveQuery}):
 *
 * <ul>
 *   <li>When a query is built, {@link #register} a plan per include whose child reads a {@link
 *       LazyCollection}: its columns are the child's correlated columns; the child's order and limit
 *       may go into the plan only when nothing else filters or joins that relation inside the child
 *       (otherwise a source's first rows per value could all be filtered out: register the plan
 *       unordered and unlimited). A root read of a lazy collection is a plan with no columns,
 *       demanded once with the empty row. {@link #unregister} the plans when the query closes.
 *   <li>The demand rows of an include (any mode) are its active-bucket relation (the distinct
 *       non-NULL correlation values the include compiler builds): expose it as a graph output, as
 *       a collection include's {@code FacadeEdge.activeOutput} is for {@link IncludeFacades}, and
 *       read its delta the way {@code IncludeFacades.apply} does. <b>After each
 *       run, for each active-bucket output delta of a plan, call {@link #change} (the row, its
 *       weight), then {@link #flush()}</b>, before the query settles its status, so that it sees
 *       the lazy collections' new statuses.
 * </ul>
 *
 * The loads start when the transaction (or the live query's creation) ends ({@link
 * Rivulet#runDemand}); each result is applied in a transaction of its own: the rows of a current
 * request are installed (live queries see them as changes) and statuses follow readiness; the
 * result of an obsolete request is dropped. The exception: a refill that a demand transaction's
 * own work queued starts inside it, and a result its source gives at once is applied in it too.
 *
 * <p>Concurrency: all its state is guarded by the database's monitor; a load completing on
 * another thread takes that monitor to queue its result, then runs the queued work.
 */
final class DemandAdapter {
  private sealed interface Work permits Settled, Released, Changed {}

  private record Changed(LazyCollection target, List<SourceChange> changes) implements Work {}

  private record Settled(long generation, List<Row> rows, Throwable error) implements Work {}

  private record Released(LazyCollection target, long generation) implements Work {}

  private final Rivulet db;
  private final DemandLedger<LazyCollection> ledger = new DemandLedger<>();
  private final List<DemandRequest<LazyCollection>> toStart = new ArrayList<>();
  private final ArrayDeque<Work> inbox = new ArrayDeque<>();
  // per pending request: keys its source changed meanwhile, with their last pushed row (null:
  // removed); the pushed change beats the request's baseline
  private final Map<Long, Map<Row, Row>> changedWhilePending = new java.util.HashMap<>();
  private boolean statusChanged; // by a flush outside a demand transaction: queries settle again
  private final List<BucketWindow<LazyCollection>> shrunk = new ArrayList<>(); // per applyChanges: windows that lost a row
  // per retried collection: the requests its retry withdrew, released once the new ones settled
  private final Map<LazyCollection, List<DemandRequest<LazyCollection>>> reloading = new java.util.LinkedHashMap<>();

  DemandAdapter(Rivulet db) {
    this.db = db;
  }

  /**
   * Registers plan {@code planId}: demand for the rows of {@code target} whose {@code columns}
   * hold demanded values, each value's rows in {@code order} up to {@code limit}.
   *
   * @throws QueryException when the target belongs to another database or a column is unknown
   */
  void register(String planId, LazyCollection target, List<String> columns, List<SubsetRequest.Order> order,
      int limit) {
    register(planId, target, columns, order, limit, null);
  }

  /**
   * {@link #register(String, LazyCollection, List, List, int)} for a read that keeps only the rows
   * passing {@code filter} (null: all): a limited plan's window counts only those toward its
   * limit, so a row the filter drops (or a page whose rows it drops) is refilled. A filtered
   * plan shares its requests with no other plan.
   */
  void register(String planId, LazyCollection target, List<String> columns, List<SubsetRequest.Order> order,
      int limit, java.util.function.Predicate<Row> filter) {
    if (target.db != db) {
      throw new QueryException("demand plan '" + planId + "': lazy collection '" + target.name()
          + "' belongs to another database");
    }
    SortKeys sortKeys;
    int[] columnPositions;
    try {
      columnPositions = target.schema.indexesOf(columns);
      int[] orderColumns = new int[order.size()];
      boolean[] descending = new boolean[order.size()];
      boolean[] nullsFirst = new boolean[order.size()];
      for (int i = 0; i < orderColumns.length; i++) {
        orderColumns[i] = target.schema.indexOf(order.get(i).column());
        descending[i] = order.get(i).descending();
        nullsFirst[i] = order.get(i).nullsFirst();
      }
      sortKeys = new SortKeys(orderColumns, descending, nullsFirst, target.schema.indexesOf(target.keyColumns()));
    } catch (SchemaException e) {
      throw new QueryException("demand plan '" + planId + "' on lazy collection '" + target.name() + "': "
          + e.getMessage());
    }
    ledger.register(planId, target, columns, columnPositions, order, limit, sortKeys, filter);
  }

  /**
   * Withdraws all demand of plan {@code planId} at the next flush, which forgets the plan (its id
   * is free again after that flush; a rebuilt graph may also register its plans under new ids).
   */
  void unregister(String planId) {
    ledger.unregister(planId);
  }

  /**
   * Adds {@code weight} to the demand of plan {@code planId} for {@code params} (the active
   * bucket's correlation values): +1 when the bucket becomes active, -1 when it stops.
   */
  void change(String planId, Row params, long weight) {
    ledger.change(planId, params, weight);
  }

  /**
   * Turns the demand changed since the last flush into leases and requests (started when the
   * transaction ends), queues the release of rows whose last covering request went, and sets
   * the statuses of the lazy collections concerned.
   */
  void flush() {
    DemandLedger.Flush<LazyCollection> f = ledger.flush();
    toStart.addAll(f.started());
    for (DemandRequest<LazyCollection> r : f.released()) {
      inbox.add(new Released(r.target(), r.generation()));
    }
    statusChanged |= refresh(f.touched());
  }

  /**
   * Retries {@code c} if it is in error (see {@link LazyCollection#retry}): its current demand
   * goes to new requests (started when the caller runs the demand work), its status becomes
   * {@code LOADING} (or {@code READY} with no demand), and the rows it holds stay until the new
   * requests have all settled: then those no new request loaded go. Returns whether it was in error.
   */
  boolean retry(LazyCollection c) {
    if (c.statusNow() != Status.ERROR) {
      return false;
    }
    List<DemandRequest<LazyCollection>> withdrawn = ledger.restart(c);
    for (DemandRequest<LazyCollection> r : withdrawn) {
      changedWhilePending.remove(r.generation());
    }
    reloading.computeIfAbsent(c, k -> new ArrayList<>()).addAll(withdrawn);
    c.recover();
    flush();
    statusChanged = true; // its live queries settle: they recover from its error
    return true;
  }

  /** Whether all current demand is covered by settled current requests. */
  boolean settled() {
    return ledger.settled();
  }

  DemandLedger<LazyCollection> ledger() {
    return ledger;
  }

  /** Whether loads wait to start or results wait to be applied. */
  boolean hasWork() {
    return !toStart.isEmpty() || !inbox.isEmpty() || statusChanged || reloaded();
  }

  /**
   * Starts the queued loads (under the monitor: outside a transaction, or inside a demand
   * transaction for the refills its work queued).
   */
  void startLoads() {
    List<DemandRequest<LazyCollection>> start = new ArrayList<>(toStart);
    toStart.clear();
    for (DemandRequest<LazyCollection> r : start) {
      if (ledger.pending(r.generation()) == null) {
        continue; // released before it started
      }
      CompletableFuture<List<Row>> f;
      try {
        f = r.target().source().load(r.request(), r.cancellation());
        if (f == null) {
          throw new QueryException("lazy collection '" + r.target().name() + "': the source returned no future");
        }
      } catch (RuntimeException e) {
        f = CompletableFuture.failedFuture(e);
      }
      long generation = r.generation();
      f.whenComplete((rows, error) -> completed(generation, rows, error));
    }
  }

  /**
   * A load completed (any thread): queues its result and runs the database's demand work, unless
   * this thread holds the database's monitor (a load completing inside {@link #startLoads}, or a
   * cancellation inside {@link #flush}): the holder runs that work when it is done.
   */
  private void completed(long generation, List<Row> rows, Throwable error) {
    if (Thread.holdsLock(db)) {
      inbox.add(new Settled(generation, rows, error));
      return;
    }
    synchronized (db) {
      inbox.add(new Settled(generation, rows, error));
    }
    db.runDemand();
  }

  /**
   * Applies the queued results, inside a transaction: installs the rows of current requests,
   * drops those of obsolete ones, removes released rows, and sets statuses.
   */
  void apply() {
    statusChanged = false;
    do {
      while (!inbox.isEmpty()) {
        Work w = inbox.poll();
        if (w instanceof Released r) {
          changedWhilePending.remove(r.generation());
          if (r.target().statusNow() != Status.CLOSED) {
            r.target().release(r.generation());
          }
        } else if (w instanceof Settled s) {
          settle(s);
        } else if (w instanceof Changed c) {
          applyChanges(c);
        }
      }
      // The refills this work queued start now: what a source answers at once is settled in this
      // transaction, so its live queries never show the window short.
      if (!toStart.isEmpty()) {
        startLoads();
      }
      releaseReloaded();
    } while (!inbox.isEmpty());
    refresh(ledger.takeTouched());
  }

  /** Whether a retried collection's withdrawn requests are done with: its new ones all settled, or it closed. */
  private boolean reloaded() {
    for (LazyCollection c : reloading.keySet()) {
      if (reloaded(c)) {
        return true;
      }
    }
    return false;
  }

  private boolean reloaded(LazyCollection c) {
    Status st = c.statusNow();
    return st == Status.CLOSED || st != Status.ERROR && ledger.settled(c);
  }

  /**
   * Queues the release of the requests a retry withdrew, for each retried collection whose new
   * requests have all settled (a closed one's are dropped; one in error again keeps them until
   * its next retry settles).
   */
  private void releaseReloaded() {
    var it = reloading.entrySet().iterator();
    while (it.hasNext()) {
      var e = it.next();
      LazyCollection c = e.getKey();
      if (reloaded(c)) {
        if (c.statusNow() != Status.CLOSED) {
          e.getValue().forEach(r -> inbox.add(new Released(c, r.generation())));
        }
        it.remove();
      }
    }
  }

  /** Queues changes its source made after loading, applied with the next queued work (see {@link #apply}). */
  void changed(LazyCollection target, List<SourceChange> changes) {
    inbox.add(new Changed(target, List.copyOf(changes)));
  }

  /**
   * Applies a source's changes to the rows its current requests cover: a removed row goes (and
   * leaves the windows that held it), an added row comes where a request covers its value (for a
   * limited one: where its value's window accepts it, so a row past the window's boundary stays
   * out). Then each window left short is refilled.
   */
  private void applyChanges(Changed c) {
    LazyCollection t = c.target();
    if (t.statusNow() == Status.CLOSED || t.statusNow() == Status.ERROR) {
      return;
    }
    shrunk.clear();
    List<DemandRequest<LazyCollection>> pendings = ledger.pendingOn(t);
    for (SourceChange change : c.changes()) {
      Row before = change instanceof SourceChange.Remove r ? r.row()
          : change instanceof SourceChange.Edit e ? e.old() : null;
      Row after = change instanceof SourceChange.Add a ? a.row()
          : change instanceof SourceChange.Edit e ? e.row() : null;
      before = before == null ? null : before.canonical();
      after = after == null ? null : after.canonical();
      Row beforeKey = before == null ? null : t.keyOf(before);
      Row afterKey = after == null ? null : t.keyOf(after);
      for (DemandRequest<LazyCollection> pending : pendings) {
        Map<Row, Row> keys = changedWhilePending.computeIfAbsent(pending.generation(), g -> new java.util.HashMap<>());
        if (before != null) {
          keys.put(beforeKey, null);
        }
        if (after != null) {
          keys.put(afterKey, after);
        }
      }
      if (before != null) {
        removed(t, before, beforeKey);
      }
      if (after != null) {
        added(t, after, afterKey);
      }
    }
    shrunk.forEach(this::refillIfShort);
    shrunk.clear();
  }

  /** The source removed {@code row} (canonical, of {@code key}): it goes, and leaves the windows that held it. */
  private void removed(LazyCollection t, Row row, Row key) {
    t.sourceRemoved(row);
    ledger.forEachHolder(t, row, (r, value) -> {
      BucketWindow<LazyCollection> w = r.window(value);
      if (w != null && w.remove(key) && !shrunk.contains(w)) {
        shrunk.add(w);
      }
    });
  }

  /**
   * The source added {@code row} (canonical, of {@code key}): it comes, owned by each request that
   * covers it, if any does (a limited one: where its value's window accepts the row).
   */
  private void added(LazyCollection t, Row row, Row key) {
    List<Long> owners = new ArrayList<>(1);
    ledger.forEachHolder(t, row, (r, value) -> {
      if (!r.limited()) {
        owners.add(r.generation());
        return;
      }
      BucketWindow<LazyCollection> w = r.window(value);
      if (w != null && w.accepts(row)) {
        w.add(key, row);
        owners.add(r.generation());
      }
    });
    if (!owners.isEmpty()) {
      t.sourceAdded(owners, row);
    }
  }

  /** Starts a refill of {@code w} when it holds fewer rows than its limit and the source may have more. */
  private void refillIfShort(BucketWindow<LazyCollection> w) {
    int missing = w.missing();
    if (missing > 0) {
      toStart.add(ledger.refill(w, missing));
    }
  }

  /**
   * Settles a request. A key its source changed while it was pending keeps the pushed state, not
   * the baseline's: the baseline may be a snapshot older than the change (it is never newer than
   * a change already pushed, or it would include it).
   */
  private void settle(Settled s) {
    Map<Row, Row> changed = changedWhilePending.remove(s.generation());
    DemandRequest<LazyCollection> r = ledger.pending(s.generation());
    if (r == null) {
      ledger.settle(s.generation()); // counts it as stale; installs nothing
      return;
    }
    LazyCollection target = r.target();
    if (s.error() != null) {
      ledger.fail(s.generation(), new RivuletException("lazy collection '" + target.name() + "': " + r + " failed: "
          + s.error().getMessage(), s.error()));
      return;
    }
    Map<Row, Row> rows;
    try {
      rows = target.check(r.request(), s.rows());
    } catch (QueryException e) {
      ledger.fail(s.generation(), e);
      return;
    }
    ledger.settle(s.generation());
    Status st = target.statusNow();
    boolean live = st != Status.CLOSED && st != Status.ERROR;
    if (r.limited()) {
      settleWindows(r, rows, changed, live);
      return;
    }
    if (changed != null) {
      rows.keySet().removeAll(changed.keySet());
    }
    if (live) {
      target.load(s.generation(), rows);
    }
  }

  /**
   * Settles a page of a limited request (a base request's first rows per value, or a refill's
   * next rows of one value): each value's window takes the page's rows (but a key its source
   * changed meanwhile takes the pushed state, where the window accepts it) and moves its
   * boundary to the page's last row, or is complete when the page is short. The rows are owned
   * by the base request. A window still short is refilled.
   */
  private void settleWindows(DemandRequest<LazyCollection> r, Map<Row, Row> rows, Map<Row, Row> changed,
      boolean live) {
    LazyCollection t = r.target();
    DemandRequest<LazyCollection> base = r.base() == null ? r : r.base();
    int[] columns = r.columnPositions();
    SortKeys order = r.sortKeys();
    Map<Row, List<Row>> pages = new java.util.HashMap<>();
    for (Row row : rows.values()) {
      pages.computeIfAbsent(row.project(columns), v -> new ArrayList<>()).add(row);
    }
    Map<Row, Row> install = new java.util.LinkedHashMap<>();
    List<BucketWindow<LazyCollection>> windows = new ArrayList<>();
    for (Row v : r.request().values()) {
      BucketWindow<LazyCollection> w = base.window(v);
      List<Row> page = pages.getOrDefault(v, List.of());
      Row last = null;
      for (Row row : page) {
        if (last == null || order.compareRows(row, last) > 0) {
          last = row;
        }
        Row key = t.keyOf(row);
        if (changed == null || !changed.containsKey(key)) {
          w.add(key, row);
          install.put(key, row);
        }
      }
      w.page(page.size(), r.request().limit(), last);
      windows.add(w);
    }
    if (changed != null) {
      for (Map.Entry<Row, Row> e : changed.entrySet()) {
        Row row = e.getValue();
        BucketWindow<LazyCollection> w = row == null ? null : base.window(row.project(columns));
        if (w != null && windows.contains(w) && w.accepts(row)) {
          w.add(e.getKey(), row);
          install.put(e.getKey(), row);
        }
      }
    }
    if (live) {
      t.load(base.generation(), install);
      windows.forEach(this::refillIfShort);
    }
  }

  /** Sets each target's status from its readiness; whether one changed. */
  private boolean refresh(Set<LazyCollection> targets) {
    boolean changed = false;
    for (LazyCollection c : targets) {
      Status before = c.statusNow();
      if (before == Status.CLOSED || before == Status.ERROR) {
        continue; // closed, or failed until retried
      }
      Throwable failure = ledger.failure(c);
      if (failure != null) {
        c.fail(failure);
      } else {
        c.setStatus(ledger.settled(c) ? Status.READY : Status.LOADING);
      }
      changed |= c.statusNow() != before;
    }
    return changed;
  }
}
