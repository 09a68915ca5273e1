package dev.rivulet.query;

import dev.rivulet.engine.Row;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A local, optimistic transaction over one or more source collections. Writes are collected,
 * then {@link #apply} makes them visible at once in every collection and dependent live query, as
 * one transaction. Later {@link #confirm} turns them into synced rows, or {@link #rollback} removes
 * them, returning every dependent live query exactly to the state without them. Several
 * transactions may be pending; a later one's write to a key wins over an earlier one's.
 *
 * <p>Writes are checked when made, against the visible rows plus this transaction's own earlier
 * writes: an insert needs an absent key, an update or delete a present one; rows must fit the
 * schema. A failed check throws and records nothing. Guarded by the owning {@link Rivulet}'s
 * monitor.
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

  public Transaction insert(SourceCollection c, Row row) {
    synchronized (db) {
      Row key = c.keyOf(c.check(row));
      if (current(c, key) != null) {
        throw new QueryException("insert into '" + c.name() + "': key " + key + " already exists");
      }
      return put(c, key, row);
    }
  }

  /** Replaces the row with {@code row}'s key. */
  public Transaction update(SourceCollection c, Row row) {
    synchronized (db) {
      Row key = c.keyOf(c.check(row));
      if (current(c, key) == null) {
        throw new QueryException("update of '" + c.name() + "': no row with key " + key);
      }
      return put(c, key, row);
    }
  }

  public Transaction delete(SourceCollection c, Row key) {
    synchronized (db) {
      if (current(c, key) == null) {
        throw new QueryException("delete from '" + c.name() + "': no row with key " + key);
      }
      return put(c, key, null);
    }
  }

  private Row current(SourceCollection c, Row key) {
    Map<Row, Row> mine = writes.get(c);
    if (mine != null && mine.containsKey(key)) {
      return mine.get(key);
    }
    return c.visible(key);
  }

  private Transaction put(SourceCollection c, Row key, Row row) {
    expect(State.OPEN, "write to");
    c.checkOpen();
    writes.computeIfAbsent(c, k -> new LinkedHashMap<>()).put(key.canonical(), row == null ? null : row.canonical());
    return this;
  }

  /** Makes the writes visible (optimistic state). */
  public void apply() {
    synchronized (db) {
      expect(State.OPEN, "apply");
      for (SourceCollection c : writes.keySet()) {
        c.checkOpen();
      }
      db.applyOptimistic(this);
    }
  }

  /** The writes are persisted: they become synced rows. */
  public void confirm() {
    synchronized (db) {
      expect(State.PENDING, "confirm");
      db.settle(this, true);
    }
  }

  /** The writes failed: every collection and live query returns to the state without them. */
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
