package dev.rivulet.query;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * The facade of the query layer: owns source collections and live queries and runs every change
 * as one transaction through them.
 *
 * <p>A transaction (a sync batch, or an optimistic transaction applied, confirmed or rolled back)
 * updates the visible rows of its source collections, then runs each affected live query once, in
 * creation order (a live query can only read collections created before it, so this order is
 * topological), feeding it the changes of its sources, including upstream live queries' changes
 * from the same transaction. Only when all have installed their new state are listeners called,
 * so no reader or listener ever sees a state that mixes two transactions. Every transaction gets
 * an id, strictly increasing, that every delivery names ({@link #lastTxId}).
 *
 * <p>The outcome of a write is explicit: once a sync commit, or a transaction's apply, confirm or
 * rollback, passes its checks (which throw, changing nothing), it is applied and published and the
 * call returns normally. A live query that fails during it (a duplicate key, a failed source, see
 * {@link LiveQuery}) is put in {@link Status#ERROR} with the cause in {@link
 * LiveCollection#error()}, and the failure goes to the error handler ({@link #onError}); the
 * write stands, and every other collection and live query shows it.
 *
 * <p>A subscriber's failure (a callback that throws, a subscriber that falls behind) goes to the
 * error handler too (by default it is logged) and changes nothing that other subscribers,
 * readers or later transactions see; it never fails the writer's commit.
 *
 * <p>Callbacks run within the transaction they observe: from a callback, writing, creating a
 * collection or a live query and re-anchoring a window are refused with an {@link
 * IllegalStateException} (the database keeps working); reading, subscribing and closing are
 * allowed.
 *
 * <p>Concurrency: the database's monitor is the single owner of all state; every write and read
 * takes it, so writers are serialized and a reader sees one published transaction.
 */
public final class Rivulet {
  private final List<BaseCollection> collections = new ArrayList<>();
  private final List<LiveQuery> queries = new ArrayList<>();
  private final Object poolingCue = new Object(); // see cuePooling
  private long poolingCues; // guarded by poolingCue
  private final List<BaseCollection> dropped = new ArrayList<>(); // closed while publishing: forgotten at its end
  // made with the first lazy collection: a database without one loads none of the demand plane
  private DemandAdapter demand;
  private boolean propagating;
  // ready signals to settle when the transaction ends: a collection and its failure (null: ready)
  private final List<BaseCollection> settling = new ArrayList<>();
  private final List<Throwable> settlingFailures = new ArrayList<>();
  private boolean demanding; // runDemand's loop is running
  private long lastTxId;
  // the warm-up's own: its live queries do not stop the warm-up, its failures are not reported
  private boolean internal;
  private volatile BiConsumer<LiveCollection, Throwable> errorHandler; // null: log (no lambda to link at creation)

  private Rivulet() {}

  /**
   * A new, empty database. The first one of a process also starts the engine's warm-up (see
   * README; {@code -Drivulet.warmup=false} switches it off).
   */
  public static Rivulet create() {
    Rivulet db = new Rivulet();
    Warmup.databaseCreated();
    return db;
  }

  /** A database of the query layer's own (the warm-up's): starts no warm-up, stops none, reports no failure. */
  static Rivulet createPrivate() {
    Rivulet db = new Rivulet();
    db.internal = true;
    return db;
  }

  /** A new source collection keyed by {@code keyColumns}. */
  public synchronized SourceCollection collection(String name, Schema schema, List<String> keyColumns) {
    checkNotPublishing("create a collection");
    if (keyColumns.isEmpty()) {
      throw new QueryException("collection '" + name + "': needs at least one key column");
    }
    SourceCollection c = new SourceCollection(this, name, schema, keyColumns);
    collections.add(c);
    return c;
  }

  /**
   * A new lazy collection keyed by {@code keyColumns}, whose rows {@code source} loads as live
   * queries demand them (see {@link LazyCollection}).
   */
  public synchronized LazyCollection lazyCollection(String name, Schema schema, List<String> keyColumns,
      LazySource source) {
    checkNotPublishing("create a collection");
    if (keyColumns.isEmpty()) {
      throw new QueryException("lazy collection '" + name + "': needs at least one key column");
    }
    Objects.requireNonNull(source, "lazy source");
    LazyCollection c = new LazyCollection(this, name, schema, keyColumns, source);
    collections.add(c);
    return c;
  }

  /** The demand adapter (guarded by this monitor). */
  DemandAdapter demand() {
    if (demand == null) {
      demand = new DemandAdapter(this);
    }
    return demand;
  }

  /**
   * Runs the demand plane's queued work until none is left: starts the loads flushed demand
   * asked for, then applies what came back (settled loads, released rows, statuses) as a
   * transaction of its own, in which live queries run as usual. Does nothing while a transaction
   * runs (its end calls this) or when called from inside this loop.
   */
  synchronized void runDemand() {
    if (propagating || demanding || demand == null) {
      return;
    }
    demanding = true;
    try {
      while (demand.hasWork()) {
        demand.startLoads(); // a load completing at once only queues its result
        if (!demand.hasWork()) {
          break;
        }
        begin();
        try {
          demand.apply();
          runQueries();
        } finally {
          end();
        }
      }
    } finally {
      demanding = false;
    }
  }

  /** The cues given so far to the loads' pooling passes ({@link LoadPooling}, {@link #awaitPoolingCue}). */
  long poolingCues() {
    synchronized (poolingCue) {
      return poolingCues;
    }
  }

  /**
   * Waits until a cue has been given since {@link #poolingCues} returned {@code since}, or {@code
   * millis} have passed. Takes no lock a writer or a query holds.
   */
  void awaitPoolingCue(long since, long millis) throws InterruptedException {
    long end = System.nanoTime() + millis * 1_000_000;
    synchronized (poolingCue) {
      for (long left; poolingCues == since && (left = end - System.nanoTime()) > 0; ) {
        poolingCue.wait(Math.max(1, left / 1_000_000));
      }
    }
  }

  /** Cues the waiting pooling passes: a live query's creation ended. */
  private void cuePooling() {
    synchronized (poolingCue) {
      poolingCues++;
      poolingCue.notifyAll();
    }
  }

  /**
   * Compiles {@code query} and keeps it live, keyed by its derived key (see {@link LiveQuery});
   * it is ready when all its sources are ready. Over a live query in {@link Status#ERROR} it
   * starts in {@code ERROR} and recovers with it.
   *
   * @throws QueryException when the query is malformed, or a source is closed or belongs to
   *     another database
   * @throws IllegalStateException when called from a callback
   */
  public LiveQuery liveQuery(String name, Query query) {
    return liveQuery(name, query, null);
  }

  /**
   * Like {@link #liveQuery(String, Query)}, keyed by the visible columns {@code keyColumns}; a
   * result with two rows for one key is then a duplicate-key error (the query is in {@link
   * Status#ERROR} until the key is unique again, see {@link LiveQuery}).
   */
  public synchronized LiveQuery liveQuery(String name, Query query, List<String> keyColumns) {
    checkNotPublishing("create a live query");
    if (!internal) {
      Warmup.userQueryStarting();
    }
    LiveQuery q = LiveQuery.create(this, name, query, keyColumns);
    try {
      q.hydrate();
      q.checkSources(); // over a source in error, it starts failed and recovers with it
      try {
        q.run(); // nothing reads a query being created yet
      } catch (RuntimeException e) {
        if (!q.isDuplicate(e)) {
          throw e;
        }
        q.runFailed(e); // a duplicate key: the query starts failed and recovers when the key is unique
      }
    } catch (RuntimeException e) {
      q.abandon(); // its demand of lazy collections goes with it
      throw e;
    }
    q.settle();
    q.discardStaged();
    q.observeSources();
    queries.add(q);
    collections.add(q);
    runDemand(); // the loads its creation demanded
    cuePooling();
    return q;
  }

  /** Fails when called from a callback of a transaction that is still publishing. */
  void checkNotPublishing(String what) {
    if (propagating) {
      throw new IllegalStateException("cannot " + what + " from a callback: the transaction it observes is still"
          + " publishing");
    }
  }

  /**
   * {@code c} was closed: it is forgotten (a closed collection takes no part in transactions), and
   * the live queries that read it (directly or not) fail now, naming it, and are reported; from a
   * callback, at the end of the transaction publishing (forgotten) and at the next one (failed):
   * the one publishing is left whole.
   */
  synchronized void closed(BaseCollection c) {
    if (propagating) {
      dropped.add(c);
      return;
    }
    forget(c);
    for (LiveQuery q : queries) {
      if (!q.runnable() || !q.readsFailedSource()) {
        continue; // (settling any other query changes nothing: every transaction ends settled)
      }
      Throwable before = q.errorNow();
      q.settle();
      if (q.statusNow() == Status.ERROR && q.errorNow() != before) {
        report(q, q.errorNow());
      }
    }
  }

  private void forget(BaseCollection c) {
    collections.remove(c);
    if (c instanceof LiveQuery q) {
      queries.remove(q);
    }
  }

  /** How many collections and live queries take part in transactions (the open ones), for tests. */
  synchronized int collectionCount() {
    return collections.size();
  }

  /** A new optimistic transaction. */
  public Transaction transaction() {
    return new Transaction(this);
  }

  /**
   * A new sync transaction over any of this database's source collections: its batches commit
   * together, as one transaction with one id and one publication.
   */
  public SyncTransaction beginSync() {
    return new SyncTransaction(this);
  }

  /** The id of the last published transaction (0 before the first). */
  public synchronized long lastTxId() {
    return lastTxId;
  }

  /**
   * Sets what receives failures that no call throws: a subscriber's (the collection subscribed
   * to, and what was thrown or a {@link SubscriptionOverflowException}) and a live query's that
   * failed during a write (the query, and its {@link LiveCollection#error()}), after the write is
   * published. The default logs them. The handler runs on the thread that found the failure,
   * within the transaction (it must not write), and must not throw (what it throws is logged).
   */
  public void onError(BiConsumer<LiveCollection, Throwable> handler) {
    errorHandler = Objects.requireNonNull(handler, "error handler");
  }

  /**
   * Hands a failure to the error handler. A handler that throws (an exception or an error, such as
   * a test's failed assertion) is logged: it runs inside a mailbox's drain and a publication, which
   * it must not cut short for the other subscribers and collections.
   */
  void report(LiveCollection source, Throwable error) {
    if (internal) {
      return; // the warm-up's database: nothing of it reaches the user, not even the log
    }
    try {
      BiConsumer<LiveCollection, Throwable> handler = errorHandler;
      if (handler == null) {
        log(source, error);
      } else {
        handler.accept(source, error);
      }
    } catch (Throwable e) {
      log(source, e);
    }
  }

  private static void log(LiveCollection source, Throwable error) {
    System.getLogger(Rivulet.class.getName()).log(System.Logger.Level.WARNING,
        (source instanceof LiveQuery && error == source.error() ? "live query '" : "subscriber of '")
            + source.name() + "' failed", error);
  }

  /**
   * Commits sync batches and changes of lazy collections' sources (queued to the demand plane and
   * applied in the same run) as one transaction.
   */
  synchronized void commitSync(Map<SourceCollection, SourceCollection.SyncBatch> batches,
      Map<LazyCollection, List<SourceChange>> sourceChanges) {
    for (SourceCollection c : batches.keySet()) {
      checkSyncTarget(c);
    }
    begin();
    try {
      for (Map.Entry<SourceCollection, SourceCollection.SyncBatch> e : batches.entrySet()) {
        applySync(e.getKey(), e.getValue());
      }
      if (!sourceChanges.isEmpty()) {
        sourceChanges.forEach((c, changes) -> demand().changed(c, changes));
        demand.apply();
      }
      runQueries();
    } finally {
      end();
    }
  }

  /**
   * Commits the sync batch of one collection as one transaction: {@link #commitSync(Map, Map)}
   * for the most common write, without a map.
   */
  synchronized void commitSync(SourceCollection c, SourceCollection.SyncBatch batch) {
    checkSyncTarget(c);
    begin();
    try {
      applySync(c, batch);
      runQueries();
    } finally {
      end();
    }
  }

  /** Commits one checked sync write of {@code row} to {@code c} as one transaction ({@link SourceCollection#syncWrite}). */
  synchronized void commitSyncEntry(SourceCollection c, Row row) {
    checkSyncTarget(c);
    begin();
    try {
      c.applyEntry(null, row);
      synced(c, false);
      runQueries();
    } finally {
      end();
    }
  }

  /**
   * Throws, as the commit itself would before changing anything, when a sync commit to {@code c}
   * (null: to no source collection) is refused: from a listener, or to a collection that is closed
   * or of another database. Its caller marks the batch committed only after this passes, holding
   * the monitor, so a refused batch can be committed later.
   */
  synchronized void checkSyncCommit(SourceCollection c) {
    checkNotInTransaction();
    if (c != null) {
      checkSyncTarget(c);
    }
  }

  private void checkSyncTarget(SourceCollection c) {
    if (c.db != this) {
      throw new QueryException("sync transaction: collection '" + c.name() + "' belongs to another database");
    }
    c.checkOpen();
  }

  private static void applySync(SourceCollection c, SourceCollection.SyncBatch batch) {
    c.applySync(batch);
    synced(c, batch.marksReady());
  }

  /** After a sync change to {@code c}: READY when it marks the collection ready, else LOADING if it was IDLE. */
  private static void synced(SourceCollection c, boolean marksReady) {
    if (marksReady) {
      c.setStatus(Status.READY);
    } else if (c.statusNow() == Status.IDLE) {
      c.setStatus(Status.LOADING);
    }
  }

  synchronized void applyOptimistic(Transaction tx) {
    begin();
    try {
      tx.state = Transaction.State.PENDING;
      for (SourceCollection c : tx.writes().keySet()) {
        c.overlay(tx);
      }
      runQueries();
    } finally {
      end();
    }
  }

  synchronized void settle(Transaction tx, boolean confirmed) {
    begin();
    try {
      tx.state = confirmed ? Transaction.State.CONFIRMED : Transaction.State.ROLLED_BACK;
      for (SourceCollection c : tx.writes().keySet()) {
        if (c.statusNow() != Status.CLOSED) { // a closed collection takes no further changes
          c.settle(tx, confirmed);
        }
      }
      runQueries();
    } finally {
      end();
    }
  }

  /**
   * Starts a transaction: the source collections then record their changes, the live queries run
   * and everything is published ({@link #runQueries}). A write from inside a listener (which runs
   * within the transaction it observes) is refused.
   */
  private void begin() {
    checkNotInTransaction();
    propagating = true;
    lastTxId++;
  }

  private void checkNotInTransaction() {
    if (propagating) {
      throw new IllegalStateException("a listener must not write: the transaction it observes is still publishing");
    }
  }

  /** Ends a transaction, published or failed: every collection's change buffer is emptied. */
  private void end() {
    // Indexed loops: nothing adds to these lists while a transaction runs (a close is deferred).
    for (int i = 0, n = collections.size(); i < n; i++) {
      collections.get(i).change.clear();
    }
    if (!dropped.isEmpty()) {
      for (BaseCollection c : dropped) {
        forget(c);
      }
      dropped.clear();
    }
    propagating = false;
    runAfterTransaction();
    runDemand(); // what the transaction demanded
  }

  /**
   * Settles {@code c}'s ready signal with {@code failure} (null: ready) once the running
   * transaction has ended, or now when none runs (caller holds the monitor), so that what it
   * completes sees the whole transaction published and may write. (A pair of lists, not a list of
   * actions: a lambda per call would cost a fresh JVM its linkage on the way to the first load.)
   */
  void settleAfterTransaction(BaseCollection c, Throwable failure) {
    if (propagating) {
      settling.add(c);
      settlingFailures.add(failure);
    } else {
      c.settleReady(failure);
    }
  }

  private void runAfterTransaction() {
    while (!settling.isEmpty()) {
      // taken out first: a completed future's dependents may write, and that transaction's end
      // settles what it queued itself
      BaseCollection[] cs = settling.toArray(new BaseCollection[0]);
      Throwable[] failures = settlingFailures.toArray(new Throwable[0]);
      settling.clear();
      settlingFailures.clear();
      for (int i = 0; i < cs.length; i++) {
        cs[i].settleReady(failures[i]); // completes a future: what depends on it cannot throw out of here
      }
    }
  }

  /**
   * Runs the affected live queries in creation order, then publishes every change, then reports
   * each live query that failed in this transaction (or failed anew, for another cause) to the
   * error handler.
   */
  private void runQueries() {
    List<LiveQuery> failed = null;
    for (int i = 0, n = queries.size(); i < n; i++) {
      LiveQuery q = queries.get(i);
      if (!q.runnable()) {
        continue;
      }
      Throwable before = q.errorNow();
      q.checkSources();
      try {
        if (q.sendChanges()) {
          q.run();
        }
      } catch (RuntimeException e) {
        q.runFailed(e);
      }
      q.settle();
      if (q.statusNow() == Status.ERROR && q.errorNow() != before) { // failed, or failed anew
        if (failed == null) {
          failed = new ArrayList<>(1);
        }
        failed.add(q);
      }
    }
    for (int i = 0, n = collections.size(); i < n; i++) {
      collections.get(i).publish(lastTxId);
    }
    if (failed != null) {
      for (LiveQuery q : failed) {
        report(q, q.errorNow());
      }
    }
  }
}
