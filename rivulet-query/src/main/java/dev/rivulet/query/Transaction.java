package dev.rivulet.query;

import dev.rivulet.engine.Row;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A local, optimistic transaction over one or more source collections of one database. Writes
 * are collected, then {@link #apply} makes them visible at once in every collection and dependent
 * live query, as one transaction. Later {@link #confirm} turns them into synced rows, or {@link
 * #rollback} removes them, returning every dependent live query exactly to the state without
 * them. Several transactions may be pending; a later one's write to a key wins over an earlier
 * one's.
 *
 * <p>Writes are checked when made, against the visible rows plus this transaction's own earlier
 * writes: an insert needs an absent key, an update or delete a present one. A failed check throws
 * and records nothing:
 *
 * <ul>
 *   <li>a collection that is null or belongs to another database: {@link QueryException};
 *   <li>a row that is null or does not fit the schema, a key that does not fit the key columns:
 *       {@link dev.rivulet.engine.SchemaException} naming the collection, the column and the value;
 *   <li>an insert of a present key, an update or delete of an absent one: {@link QueryException};
 *   <li>a write to a closed collection, or to a transaction no longer open: {@link
 *       IllegalStateException}.
 * </ul>
 *
 * <p>A collection closed while the transaction is pending takes no further changes: {@link
 * #confirm} and {@link #rollback} settle the transaction in the other collections and leave a
 * closed one's rows as they were when it was closed. ({@link #apply} refuses a transaction that
 * writes a closed collection.)
 *
 * <p>When a live query fails during {@link #apply}, {@link #confirm} or {@link #rollback} (see
 * {@link Rivulet}), the transaction's step is still done and published, and the call returns
 * normally: the failure shows on the query (its status and error) and goes to the database's
 * error handler.
 *
 * <p>Guarded by the owning {@link Rivulet}'s monitor.
 */
public final class Transaction {
  /** Lifecycle of a transaction. */
  public enum State { OPEN, PENDING, CONFIRMED, ROLLED_BACK }

  private final Rivulet db;
  private final Map<SourceCollection, Map<Row, Row>> writes = new LinkedHashMap<>();
  State state = State.OPEN;

  Transaction(Rivulet db) {
    this.db = db;
  }

  public State state() {
    synchronized (db) {
      return state;
    }
  }

  /** The writes to {@code c} (key to row, null for a delete), or null. */
  Map<Row, Row> writesTo(SourceCollection c) {
    return writes.get(c);
  }

  Map<SourceCollection, Map<Row, Row>> writes() {
    return writes;
  }

  /** Inserts {@code row}, whose key must be absent. */
  public Transaction insert(SourceCollection c, Row row) {
    synchronized (db) {
      Row key = c.keyOf(writable(c, "insert into").check(row));
      if (current(c, key) != null) {
        throw new QueryException("insert into '" + c.name() + "': key " + key + " already exists");
      }
      return put(c, key, row);
    }
  }

  /** Replaces the row with {@code row}'s key, which must be present. */
  public Transaction update(SourceCollection c, Row row) {
    synchronized (db) {
      Row key = c.keyOf(writable(c, "update of").check(row));
      if (current(c, key) == null) {
        throw new QueryException("update of '" + c.name() + "': no row with key " + key);
      }
      return put(c, key, row);
    }
  }

  /** Deletes the row with {@code key}, which must be present. */
  public Transaction delete(SourceCollection c, Row deleted) {
    synchronized (db) {
      Row key = writable(c, "delete from").checkKey(deleted, "delete from");
      if (current(c, key) == null) {
        throw new QueryException("delete from '" + c.name() + "': no row with key " + key);
      }
      return put(c, key, null);
    }
  }

  /** Checks that this transaction and {@code c} take writes (before the row is looked at). */
  private SourceCollection writable(SourceCollection c, String what) {
    if (c == null) {
      throw new QueryException(what + " a transaction: the collection is null");
    }
    if (c.db != db) {
      throw new QueryException(what + " '" + c.name() + "': the collection belongs to another database than this"
          + " transaction");
    }
    expect(State.OPEN, "write to");
    c.checkOpen();
    return c;
  }

  private Row current(SourceCollection c, Row key) {
    Map<Row, Row> mine = writes.get(c);
    if (mine != null && mine.containsKey(key)) {
      return mine.get(key);
    }
    return c.visible(key);
  }

  private Transaction put(SourceCollection c, Row key, Row row) {
    writes.computeIfAbsent(c, k -> new LinkedHashMap<>()).put(key.canonical(), row == null ? null : row.canonical());
    return this;
  }

  /**
   * Makes the writes visible (optimistic state), as one published transaction.
   *
   * @throws IllegalStateException, changing nothing, when the transaction is not open or writes a
   *     collection closed since
   */
  public void apply() {
    synchronized (db) {
      expect(State.OPEN, "apply");
      for (SourceCollection c : writes.keySet()) {
        c.checkOpen();
      }
      db.applyOptimistic(this);
    }
  }

  /**
   * The writes are persisted: they become synced rows (of the collections still open).
   *
   * @throws IllegalStateException, changing nothing, when the transaction is not pending
   */
  public void confirm() {
    synchronized (db) {
      expect(State.PENDING, "confirm");
      db.settle(this, true);
    }
  }

  /**
   * The writes failed: every collection still open and every live query returns to the state
   * without them.
   *
   * @throws IllegalStateException, changing nothing, when the transaction is not pending
   */
  public void rollback() {
    synchronized (db) {
      expect(State.PENDING, "roll back");
      db.settle(this, false);
    }
  }

  private void expect(State s, String what) {
    if (state != s) {
      throw new IllegalStateException("cannot " + what + " a transaction that is " + state);
    }
  }
}
