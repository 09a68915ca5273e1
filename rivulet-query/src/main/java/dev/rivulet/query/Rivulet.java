package dev.rivulet.query;

import dev.rivulet.engine.RivuletException;
import dev.rivulet.engine.Schema;
import java.util.ArrayList;
import java.util.List;

/**
 * The facade of the query layer: owns source collections and live queries and runs every change
 * as one transaction through them.
 *
 * <p>A transaction (a sync batch, or an optimistic transaction applied, confirmed or rolled back)
 * updates the visible rows of its source collections, then runs each affected live query once, in
 * creation order (a live query can only read collections created before it, so this order is
 * topological), feeding it the changes of its sources, including upstream live queries' changes
 * from the same transaction. Only when all have installed their new state are listeners called,
 * so no reader or listener ever sees a state that mixes two transactions.
 *
 * <p>Concurrency: the database's monitor is the single owner of all state; every write and read
 * takes it, so writers are serialized and a reader sees one published transaction.
 */
public final class Rivulet {
  private final List<BaseCollection> collections = new ArrayList<>();
  private final List<LiveQuery> queries = new ArrayList<>();
  private boolean propagating;

  private Rivulet() {}

  public static Rivulet create() {
    return new Rivulet();
  }

  /** A new source collection keyed by {@code keyColumns}. */
  public synchronized SourceCollection collection(String name, Schema schema, List<String> keyColumns) {
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
   * result with two rows for one key is then a duplicate-key error.
   */
  public synchronized LiveQuery liveQuery(String name, Query query, List<String> keyColumns) {
    LiveQuery q = LiveQuery.create(this, name, query, keyColumns);
    q.hydrate();
    q.run(); // nothing reads a query being created yet
    q.discardStaged();
    q.observeSources();
    queries.add(q);
    collections.add(q);
    q.updateReadiness();
    return q;
  }

  /** A new optimistic transaction. */
  public Transaction transaction() {
    return new Transaction(this);
  }

  synchronized void commitSync(SourceCollection c, SourceCollection.SyncBatch batch) {
    c.checkOpen();
    begin();
    try {
      c.applySync(batch);
      if (batch.marksReady()) {
        c.setStatus(Status.READY);
      } else if (c.statusNow() == Status.IDLE) {
        c.setStatus(Status.LOADING);
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
      if (q.statusNow() == Status.ERROR || q.statusNow() == Status.CLOSED) {
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
      c.publish();
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
