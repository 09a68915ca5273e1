package dev.rivulet.query;

import dev.rivulet.engine.Row;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A committed transaction of the sync source that spans several collections (a database commit
 * that touched several tables): its writes are collected per collection and {@link #commit} applies
 * them all as one transaction, with one id, one run of each affected live query and one
 * publication, so no reader sees one table changed and the other not.
 *
 * <p>Each call is checked when made, as {@link SourceCollection.SyncBatch}'s are, and when
 * refused records nothing; a collection that is null or belongs to another database throws a
 * {@link QueryException}.
 *
 * <p>Not thread-safe: build and commit it on one thread.
 */
public final class SyncTransaction {
  private final Rivulet db;
  // Most transactions write one collection: its batch waits in fields; the map starts with a second.
  private SourceCollection first;
  private SourceCollection.SyncBatch firstBatch;
  private Map<SourceCollection, SourceCollection.SyncBatch> batches; // null while one collection is written
  private Map<LazyCollection, List<SourceChange>> sourceChanges = Map.of(); // made at the first sourceChanged
  private boolean done;

  SyncTransaction(Rivulet db) {
    this.db = db;
  }

  /** Inserts or replaces the row of {@code c} with {@code row}'s key. */
  public SyncTransaction write(SourceCollection c, Row row) {
    batch(c).write(row);
    return this;
  }

  /** Deletes the row of {@code c} with {@code key} (no-op when absent). */
  public SyncTransaction delete(SourceCollection c, Row key) {
    batch(c).delete(key);
    return this;
  }

  /** Removes every synced row of {@code c} first (and this transaction's earlier writes to it). */
  public SyncTransaction truncate(SourceCollection c) {
    batch(c).truncate();
    return this;
  }

  /** Marks {@code c} ready when this transaction commits. */
  public SyncTransaction markReady(SourceCollection c) {
    batch(c).markReady();
    return this;
  }

  /**
   * Adds {@code changes} that the source of lazy collection {@code c} made (what its {@link
   * LazySource#onChange} listener would be handed), applied within this transaction: the rows that
   * held requests cover change together with the other collections' writes, in one publication.
   */
  public SyncTransaction sourceChanged(LazyCollection c, List<SourceChange> changes) {
    check(c, "lazy collection");
    if (sourceChanges.isEmpty()) {
      sourceChanges = new LinkedHashMap<>();
    }
    sourceChanges.computeIfAbsent(c, k -> new ArrayList<>()).addAll(changes);
    return this;
  }

  /**
   * Applies every collection's writes as one transaction.
   *
   * @throws IllegalStateException, applying nothing, when a collection was closed since its write,
   *     or when called from a listener (then the transaction stays open)
   */
  public void commit() {
    open();
    synchronized (db) {
      if (batches != null) {
        for (SourceCollection c : batches.keySet()) {
          db.checkSyncCommit(c);
        }
      } else {
        db.checkSyncCommit(first);
      }
      done = true; // the checks passed: the commit goes through
      commitChecked();
    }
    if (batches != null) {
      for (SourceCollection.SyncBatch b : batches.values()) {
        Warmup.loadCommitted(b.readyRows()); // no lambda: a first commit would link it
      }
    } else if (firstBatch != null) {
      Warmup.loadCommitted(firstBatch.readyRows());
    }
  }

  private void commitChecked() {
    if (batches != null) {
      batches.values().forEach(SourceCollection.SyncBatch::seal);
      db.commitSync(batches, sourceChanges);
    } else if (first != null) {
      firstBatch.seal();
      if (sourceChanges.isEmpty()) {
        db.commitSync(first, firstBatch);
      } else {
        db.commitSync(Map.of(first, firstBatch), sourceChanges);
      }
    } else {
      db.commitSync(Map.of(), sourceChanges);
    }
  }

  /** Refuses, once committed, a null collection or one of another database. */
  private void check(BaseCollection c, String what) {
    open();
    if (c == null) {
      throw new QueryException("sync transaction: the " + what + " is null");
    }
    if (c.db != db) {
      throw new QueryException("sync transaction: " + what + " '" + c.name() + "' belongs to another database");
    }
  }

  private SourceCollection.SyncBatch batch(SourceCollection c) {
    check(c, "collection");
    if (c == first) {
      return firstBatch;
    }
    if (first == null) {
      first = c;
      firstBatch = c.beginSync();
      return firstBatch;
    }
    if (batches == null) {
      batches = new LinkedHashMap<>();
      batches.put(first, firstBatch);
    }
    return batches.computeIfAbsent(c, SourceCollection::beginSync);
  }

  private void open() {
    if (done) {
      throw new IllegalStateException("sync transaction is already committed");
    }
  }
}
