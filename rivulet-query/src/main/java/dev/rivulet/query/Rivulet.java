package dev.rivulet.query;

import dev.rivulet.engine.RivuletException;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.engine.ZSet;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

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
  /** The running transaction's change per collection; reused, so never re-entered. */
  private final Map<BaseCollection, ZSet> changes = new IdentityHashMap<>();
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
    q.run(null); // nothing reads a query being created
    q.discardStaged();
    queries.add(q);
    collections.add(q);
    q.updateReadiness();
    return q;
  }

  /** A new optimistic transaction. */
  public Transaction transaction() {
    return new Transaction(this);
  }

  synchronized void commitSync(SourceCollection c, List<Row> keys, List<Row> rows, boolean truncate,
      boolean markReady) {
    c.checkOpen();
    transact(() -> {
      changes.put(c, c.applySync(keys, rows, truncate, hasReaders(c)));
      if (markReady) {
        c.setStatus(Status.READY);
      } else if (c.statusNow() == Status.IDLE) {
        c.setStatus(Status.LOADING);
      }
    });
  }

  synchronized void applyOptimistic(Transaction tx) {
    transact(() -> {
      tx.state = Transaction.State.PENDING;
      for (SourceCollection c : tx.writes().keySet()) {
        changes.put(c, c.overlay(tx));
      }
    });
  }

  synchronized void settle(Transaction tx, boolean confirmed) {
    transact(() -> {
      tx.state = confirmed ? Transaction.State.CONFIRMED : Transaction.State.ROLLED_BACK;
      for (SourceCollection c : tx.writes().keySet()) {
        changes.put(c, c.settle(tx, confirmed));
      }
    });
  }

  /**
   * Runs one transaction: {@code apply} records the source collections' changes, then the live
   * queries run and everything is published. A write from inside a listener (which runs within
   * the transaction it observes) is refused.
   */
  private void transact(Runnable apply) {
    if (propagating) {
      throw new IllegalStateException("a listener must not write: the transaction it observes is still publishing");
    }
    propagating = true;
    try {
      apply.run();
      runQueries();
    } finally {
      changes.clear();
      propagating = false;
    }
  }

  /** Whether any live query reads {@code c} (else its changes need no Z-set). */
  private boolean hasReaders(BaseCollection c) {
    for (LiveQuery q : queries) {
      if (q.reads(c)) {
        return true;
      }
    }
    return false;
  }

  /** Runs the affected live queries in creation order, then publishes every change. */
  private void runQueries() {
    List<RuntimeException> failures = null;
    for (LiveQuery q : queries) {
      if (q.statusNow() == Status.ERROR || q.statusNow() == Status.CLOSED) {
        continue;
      }
      boolean affected = false;
      for (BaseCollection src : q.sources()) {
        ZSet d = changes.get(src);
        if (d != null && !d.isEmpty()) {
          q.send(src, d);
          affected = true;
        }
      }
      if (affected) {
        ZSet.Builder out = hasReaders(q) ? ZSet.builder() : null;
        try {
          q.run(out);
          if (out != null) {
            changes.put(q, out.build());
          }
        } catch (RuntimeException e) {
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
