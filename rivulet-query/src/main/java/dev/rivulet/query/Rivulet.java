package dev.rivulet.query;

import dev.rivulet.engine.RivuletException;
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
 * <p>A subscriber's failure (a callback that throws, a subscriber that falls behind) goes to the
 * error handler ({@link #onError}; by default it is logged) and changes nothing that other
 * subscribers, readers or later transactions see; it never fails the writer's commit.
 *
 * <p>Concurrency: the database's monitor is the single owner of all state; every write and read
 * takes it, so writers are serialized and a reader sees one published transaction.
 */
public final class Rivulet {
  private final List<BaseCollection> collections = new ArrayList<>();
  private final List<LiveQuery> queries = new ArrayList<>();
  private boolean propagating;
  private long lastTxId;
  private volatile BiConsumer<LiveCollection, Throwable> errorHandler = Rivulet::log;

  private Rivulet() {}

  public static Rivulet create() {
    return new Rivulet();
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
   * Compiles {@code query} and keeps it live, keyed by its derived key (see {@link LiveQuery});
   * it is ready when all its sources are ready.
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
    LiveQuery q = LiveQuery.create(this, name, query, keyColumns);
    q.hydrate();
    try {
      q.run(); // nothing reads a query being created yet
    } catch (RuntimeException e) {
      if (!q.failedOnDuplicate()) {
        throw e;
      }
      q.fail(e); // a duplicate key: the query starts failed and recovers when the key is unique
    }
    q.discardStaged();
    q.observeSources();
    queries.add(q);
    collections.add(q);
    q.updateReadiness();
    return q;
  }

  /** Fails when called from a callback of a transaction that is still publishing. */
  void checkNotPublishing(String what) {
    if (propagating) {
      throw new IllegalStateException("cannot " + what + " from a callback: the transaction it observes is still"
          + " publishing");
    }
  }

  /** Closes and forgets a live query nobody reads (a re-anchored window's own). */
  synchronized void drop(LiveQuery q) {
    q.close();
    queries.remove(q);
    collections.remove(q);
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
   * Sets what receives subscriber failures: the collection subscribed to and what was thrown (or
   * a {@link SubscriptionOverflowException}). The default logs them. The handler must not throw.
   */
  public void onError(BiConsumer<LiveCollection, Throwable> handler) {
    errorHandler = Objects.requireNonNull(handler, "error handler");
  }

  void report(LiveCollection source, Throwable error) {
    try {
      errorHandler.accept(source, error);
    } catch (RuntimeException e) {
      log(source, e);
    }
  }

  private static void log(LiveCollection source, Throwable error) {
    System.getLogger(Rivulet.class.getName()).log(System.Logger.Level.WARNING,
        "subscriber of '" + source.name() + "' failed", error);
  }

  /** Commits sync batches of one or more collections as one transaction. */
  synchronized void commitSync(Map<SourceCollection, SourceCollection.SyncBatch> batches) {
    for (SourceCollection c : batches.keySet()) {
      if (c.db != this) {
        throw new QueryException("sync transaction: collection '" + c.name() + "' belongs to another database");
      }
      c.checkOpen();
    }
    begin();
    try {
      for (Map.Entry<SourceCollection, SourceCollection.SyncBatch> e : batches.entrySet()) {
        SourceCollection c = e.getKey();
        c.applySync(e.getValue());
        if (e.getValue().marksReady()) {
          c.setStatus(Status.READY);
        } else if (c.statusNow() == Status.IDLE) {
          c.setStatus(Status.LOADING);
        }
      }
      runQueries();
    } finally {
      end();
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
        c.settle(tx, confirmed);
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
    if (propagating) {
      throw new IllegalStateException("a listener must not write: the transaction it observes is still publishing");
    }
    propagating = true;
    lastTxId++;
  }

  /** Ends a transaction, published or failed: every collection's change buffer is emptied. */
  private void end() {
    for (BaseCollection c : collections) {
      c.change.clear();
    }
    propagating = false;
  }

  /** Runs the affected live queries in creation order, then publishes every change. */
  private void runQueries() {
    List<RuntimeException> failures = null;
    for (LiveQuery q : queries) {
      if (!q.runnable()) {
        continue;
      }
      if (q.sendChanges()) {
        try {
          q.run();
        } catch (RuntimeException e) {
          q.change.clear(); // readers of a failed query see none of its partial change
          q.fail(e);
          if (failures == null) {
            failures = new ArrayList<>(1);
          }
          failures.add(e);
        }
      }
      q.updateReadiness();
    }
    for (BaseCollection c : collections) {
      c.publish(lastTxId);
    }
    if (failures != null) {
      RuntimeException first = failures.get(0);
      for (int i = 1; i < failures.size(); i++) {
        first.addSuppressed(failures.get(i));
      }
      throw first instanceof RivuletException r ? r
          : new RivuletException("a live query failed: " + first.getMessage(), first);
    }
  }
}
