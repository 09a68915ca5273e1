package dev.rivulet.query;

import dev.rivulet.engine.Column;
import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.engine.SchemaException;
import dev.rivulet.engine.Values;
import dev.rivulet.query.state.DenseKeySet;
import dev.rivulet.query.state.RowTable;
import dev.rivulet.query.state.ValuePool;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A collection fed by a sync source and by local optimistic writes.
 *
 * <p>Its visible rows are the synced rows overlaid by the writes of pending {@link Transaction}s
 * in the order they were applied (the last pending write to a key wins). A sync write to a key
 * that has a pending optimistic write updates the synced row underneath; the optimistic value
 * stays visible until its transaction is confirmed (its writes then become synced rows, replacing
 * what sync wrote before) or rolled back (the synced row shows again).
 *
 * <p>State: the visible rows (held by the base class), and, for each key that a pending
 * transaction writes, its synced row underneath ({@code underlay}; null for absent). A key
 * nobody overlays has its synced row visible, so it is stored once.
 *
 * <p>All state is guarded by the owning {@link Rivulet}'s monitor, except the {@link ValuePool}
 * that {@link SyncBatch#write} uses, which is safe without it.
 */
public final class SourceCollection extends BaseCollection {
  private final Map<Row, Row> underlay = new HashMap<>();
  private final List<Transaction> pending = new ArrayList<>();
  private final ValuePool pool;
  private final LoadPooling loadPooling;
  /** A sync batch's entries per chunk (a power of two). */
  static final int CHUNK = 4096;
  private static final int CHUNK_BITS = 12;
  /** The writes from which on a batch notes their keys ({@link SyncBatch#write}): none for an update's batch of one. */
  private static final int KEY_BLOCK = 64;
  private final int intKey; // the key column when the key is one INT column, else -1
  /** Sync batches applied by the bulk path of {@link #applySync} (for tests). */
  int bulkApplies;
  /** Queries that pooled the pending loads before reading them ({@link #poolLoads}; for tests). */
  int queryDrains;


  SourceCollection(Rivulet db, String name, Schema schema, List<String> keyColumns) {
    super(db, name, schema, keyColumns, null);
    pool = new ValuePool(schema.width());
    loadPooling = new LoadPooling(pool, db);
    intKey = keyIndexes.length == 1 && schema.column(keyIndexes[0]).type() == ColumnType.INT ? keyIndexes[0] : -1;
  }

  /**
   * Shares the repeated values of the rows loaded so far now, on this thread (or waits while the
   * background pass does), and builds the key table a large first load left for the first keyed
   * call: a large load's commit leaves both for later (see {@link SyncBatch#write} and {@link
   * RowTable#putLoad}). For a measure of memory, or before a pause the application chooses; the
   * rows and what readers see of them do not change.
   */
  public void compact() {
    loadPooling.drain();
    synchronized (db) {
      rows.index();
    }
  }

  @Override
  void poolLoads() {
    if (loadPooling.pending()) {
      loadPooling.learn();
      if (pool.replacing()) {
        queryDrains++;
        loadPooling.drain();
      }
    }
  }

  /** The visible row of {@code key}, or null. */
  Row visible(Row key) {
    for (int i = pending.size() - 1; i >= 0; i--) {
      Map<Row, Row> writes = pending.get(i).writesTo(this);
      if (writes != null && writes.containsKey(key)) {
        return writes.get(key);
      }
    }
    return synced(key);
  }

  private Row synced(Row key) {
    return underlay.containsKey(key) ? underlay.get(key) : rows.get(key);
  }

  private boolean overlaid(Row key) {
    for (Transaction t : pending) {
      Map<Row, Row> writes = t.writesTo(this);
      if (writes != null && writes.containsKey(key)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Checks {@code row} against the schema, naming this collection; returns it canonical (a typed
   * row read from a collection may be written back).
   *
   * @throws SchemaException when the row is null or does not fit
   */
  Row check(Row row) {
    if (row == null) {
      throw new SchemaException("collection '" + name() + "': the row is null");
    }
    try {
      return schema.checked(row);
    } catch (SchemaException e) {
      throw named(e);
    }
  }

  /** {@code e}'s problem, named as this collection's. */
  private SchemaException named(SchemaException e) {
    return new SchemaException("collection '" + name() + "': " + e.getMessage());
  }

  /**
   * Checks that {@code key} is a key of this collection: one value per key column, each fitting
   * its column's type and nullability; returns it canonical (a typed key may be written back).
   *
   * @param what the call, for the message (e.g. {@code "delete from"})
   * @throws SchemaException naming the collection, the key column and the value
   */
  Row checkKey(Row key, String what) {
    String at = what + " '" + name() + "': ";
    if (key == null) {
      throw new SchemaException(at + "the key is null");
    }
    if (key.width() != keyIndexes.length) {
      throw new SchemaException(at + "key " + key + " has " + key.width() + " values but the key columns "
          + keyColumns() + " are " + keyIndexes.length);
    }
    Row canonical = key.canonical(); // a typed key shows an INT beyond 64 bits as a BigInteger, which no type accepts
    for (int i = 0; i < keyIndexes.length; i++) {
      Column c = schema.column(keyIndexes[i]);
      Object v = canonical.get(i);
      if (v == null ? !c.nullable() : !c.type().accepts(v)) {
        throw new SchemaException(at + "key column '" + c.name() + "' is " + c + " but key " + key + " has "
            + (v == null ? "NULL" : Values.render(v) + " (" + ColumnType.of(v) + ")"));
      }
    }
    return canonical;
  }


  /**
   * Applies {@code changes} as one sync transaction, in order: an {@link SourceChange.Add} of a
   * key that is present, a {@link SourceChange.Remove} or {@link SourceChange.Edit} whose old row
   * is not the current row of its key, or an {@link SourceChange.Edit} that changes the key, is
   * refused whole (nothing applied), naming the change. The current row of a key is its synced
   * row as the earlier changes of the list leave it (a pending optimistic write laid over it does
   * not count, as for {@link #beginSync}).
   *
   * @throws SchemaException, applying nothing, when a row is null or does not fit the schema
   * @throws IllegalArgumentException, applying nothing, for a change that does not fit the rows
   * @throws IllegalStateException, applying nothing, when the collection is closed
   */
  public void apply(List<SourceChange> changes) {
    if (changes == null) {
      throw new IllegalArgumentException("apply to '" + name() + "': the list of changes is null");
    }
    checkOpen();
    synchronized (db) {
      SyncBatch batch = beginSync();
      Map<Row, Row> now = new HashMap<>(); // the rows the earlier changes leave (null: absent)
      for (int i = 0; i < changes.size(); i++) {
        SourceChange c = changes.get(i);
        String at = "apply to '" + name() + "': change " + i + " (" + c + ")";
        if (c == null) {
          throw new IllegalArgumentException(at + " is null");
        }
        Row row = checkIn(at, c instanceof SourceChange.Add a ? a.row() : c instanceof SourceChange.Remove r ? r.row()
            : ((SourceChange.Edit) c).old());
        Row key = row.project(keyIndexes);
        Row current = now.containsKey(key) ? now.get(key) : synced(key);
        if (c instanceof SourceChange.Add) {
          if (current != null) {
            throw new IllegalArgumentException(at + ": key " + key + " is present (row " + current + ")");
          }
          batch.write(row);
          now.put(key, row);
          continue;
        }
        if (!row.equals(current)) {
          throw new IllegalArgumentException(at + ": the current row of key " + key + " is "
              + (current == null ? "absent" : current.toString()));
        }
        if (c instanceof SourceChange.Edit e) {
          Row next = checkIn(at, e.row());
          if (!next.project(keyIndexes).equals(key)) {
            throw new IllegalArgumentException(at + ": an edit must keep the key " + key + ", not change it to "
                + next.project(keyIndexes));
          }
          batch.write(next);
          now.put(key, next);
        } else {
          batch.delete(key);
          now.put(key, null);
        }
      }
      batch.commit();
    }
  }

  /** {@link #check} of a row of change {@code at} (e.g. "apply to 'c': change 3 (...)"), naming it when refused. */
  private Row checkIn(String at, Row row) {
    try {
      return check(row);
    } catch (SchemaException e) {
      throw new SchemaException(at + ": " + e.getMessage());
    }
  }

  /** Starts a batch of committed changes from the sync source. */
  public SyncBatch beginSync() {
    return new SyncBatch();
  }

  /**
   * Inserts or replaces the row with {@code row}'s key as a sync transaction of its own: what
   * {@code beginSync().write(row).commit()} does, without making a batch, so the usual
   * single-row update of a sync source allocates nothing on its way in. Checked as {@link
   * SyncBatch#write} checks; a refused row changes nothing.
   *
   * @throws SchemaException when the row is null or does not fit the schema
   * @throws IllegalStateException when the collection is closed, or from a listener of a
   *     transaction still publishing
   */
  public void syncWrite(Row row) {
    checkOpen();
    db.commitSyncEntry(this, check(row));
  }

  /**
   * One sync transaction: writes are collected and applied together by {@link #commit}, as one
   * transaction for every dependent live query. Not thread-safe; use from one thread.
   *
   * <p>Each call is checked when made and, when refused, records nothing: a row that is null or
   * does not fit the schema, or a key that does not fit the key columns, throws a {@link
   * SchemaException} naming the collection, the column and the value; any call on a closed
   * collection, or on a batch already committed, throws an {@link IllegalStateException}.
   */
  public final class SyncBatch {
    // Most batches write one row: it waits in fields. From the second write on, entries go into
    // chunks of CHUNK (the first grows to it by doubling), so a load of n rows holds about n
    // references and copies none of them. Keys are kept only once a delete comes (a write's row
    // holds its key).
    private Row firstKey;
    private Row firstRow;
    private int count;
    private Row[][] keys; // null while every entry in the chunks is a write
    private Row[][] rows; // the entries' rows, null for a delete
    private Row[] tail; // the chunk the next entry goes to while every entry is a write, else null
    private Object[][] block; // the pool's scratch space, made when a batch of two or more is first pooled
    private int pooled; // the entries [0, pooled) have been through the pool
    private boolean truncate;
    private boolean markReady;
    private boolean done;
    private DenseKeySet keySet; // the keys of entries [0, keyed): distinct ids (see noteKeys), or null
    private int keyed;

    /**
     * Inserts or replaces the row with {@code row}'s key. In a batch of two or more writes (a
     * load), the rows' repeated values come to be held by instances shared with earlier rows'
     * ({@link ValuePool}); their values are unchanged. That happens at commit, before the batch is
     * applied; for a load of more than {@value SourceCollection#CHUNK} rows into a collection no
     * live query reads yet, after the database's next live query is created (or {@value
     * LoadPooling#WAIT_MS} ms without one), on a thread of its own, or when a query that copies
     * values out of the rows is created, before it reads them ({@link #compact} does it at once;
     * see {@link LoadPooling}).
     * A batch of one write (the usual update) keeps its row as given: the pool's lookups would add
     * their cache misses to its latency.
     */
    public SyncBatch write(Row row) {
      if (done || status == Status.CLOSED) { // open()'s test inline: a load's first writes run interpreted
        open();
      }
      if (row == null) {
        check(null); // throws, naming the collection
      }
      Row r;
      try {
        // The schema's check itself, not check(): a load's rows pass one method fewer, and the JIT
        // compiles the path once, in this method, not again as check() of its own.
        r = schema.checked(row);
      } catch (SchemaException e) {
        throw named(e);
      }
      Row[] t = tail;
      int at = count & CHUNK - 1;
      if (t == null || at == 0 || at == t.length) {
        add(null, r);
      } else {
        // The usual write of a load: into the chunk it fills, without add's bookkeeping, and no
        // call to the pool (inlined here, the pool's loops made this method's optimised compile
        // take a core for 20-60 ms while a fresh JVM loads its rows and runs its first query).
        t[at] = r;
        count++;
      }
      // The key goes into the key set while the row is in the cache, as long as every write's key
      // so far was a new id: a large load of such rows then goes into the collection's table
      // without its slot table (RowTable.putLoad), which would read every row's key again later.
      if (keySet != null && keyed == count - 1) {
        if (keySet.add(r.get(intKey))) {
          keyed = count;
        }
      } else if (count == KEY_BLOCK) {
        noteKeys();
      }
      return this;
    }

    /**
     * Starts {@link #keySet} with the keys of the first {@value SourceCollection#KEY_BLOCK} writes,
     * when all entries so far are writes and the key is one INT column (see {@link DenseKeySet}).
     */
    private void noteKeys() {
      if (tail == null || intKey < 0) {
        return; // a delete came (no tail), or the key is not one INT column
      }
      keySet = new DenseKeySet();
      if (keySet.addAll(tail, 0, KEY_BLOCK, intKey) == KEY_BLOCK) {
        keyed = KEY_BLOCK;
      }
    }

    /** The keys of every entry, all writes of distinct ids ({@link #write}), or null. */
    DenseKeySet distinctKeys() {
      return keySet != null && keyed == count && keys == null ? keySet : null;
    }

    private void add(Row key, Row row) {
      if (count == 0) {
        firstKey = key;
        firstRow = row;
        count = 1;
        return;
      }
      if (rows == null) {
        rows = new Row[4][];
        rows[0] = new Row[8];
        rows[0][0] = firstRow;
        if (firstKey != null) {
          keys = new Row[4][];
          keys[0] = new Row[8];
          keys[0][0] = firstKey;
        }
      }
      int c = count >>> CHUNK_BITS;
      int at = count & CHUNK - 1;
      if (c == rows.length) {
        rows = Arrays.copyOf(rows, 2 * c);
        keys = keys == null ? null : Arrays.copyOf(keys, rows.length);
      }
      if (rows[c] == null) {
        rows[c] = new Row[CHUNK];
      } else if (at == rows[c].length) {
        rows[c] = Arrays.copyOf(rows[c], 2 * at); // the first chunk, growing to CHUNK
      }
      if (key != null && keys == null) {
        keys = new Row[rows.length][]; // the writes so far have none
      }
      if (keys != null) {
        if (keys[c] == null || keys[c].length < rows[c].length) {
          keys[c] = keys[c] == null ? new Row[rows[c].length] : Arrays.copyOf(keys[c], rows[c].length);
        }
        keys[c][at] = key;
      }
      rows[c][at] = row;
      tail = keys == null ? rows[c] : null;
      count++;
    }

    /**
     * Writes {@code given} (canonical rows that fit the schema, made by Rivulet itself: the
     * warm-up's) as {@link #write} does, but neither checked nor pooled. The warm-up's rows must
     * not run the application's load path: their values (NULLs, booleans) took branches of the
     * schema check that the application's rows had not, while the application's load ran it
     * compiled, and each such branch made the JVM drop that compiled code mid-load.
     */
    SyncBatch writeUnchecked(Row... given) {
      open();
      for (Row r : given) {
        add(null, r);
      }
      pooled = count;
      return this;
    }

    /** Deletes the row with {@code key} (no-op when absent). */
    public SyncBatch delete(Row key) {
      open();
      add(checkKey(key, "delete from"), null);
      return this;
    }

    /** Removes every synced row first (and the writes before this call). */
    public SyncBatch truncate() {
      open();
      truncate = true;
      count = 0;
      pooled = 0;
      keySet = null;
      keyed = 0;
      keys = null;
      rows = null;
      tail = null;
      return this;
    }

    /** Marks the collection ready when this batch commits. */
    public SyncBatch markReady() {
      open();
      markReady = true;
      return this;
    }

    /**
     * Applies the batch to the synced rows and runs every dependent live query once, as one
     * published transaction. Returns normally once it is published, even when a live query fails
     * on it (the failure is the query's, see {@link Rivulet}).
     *
     * @throws IllegalStateException, applying nothing, when the batch is already committed or the
     *     collection was closed since, or when called from a listener (the batch stays open)
     */
    public void commit() {
      open();
      // A large load that no live query reads yet is pooled after the next one is created (the
      // read of observers is racy: a query made meanwhile on another thread may copy some values
      // unshared: memory, not meaning).
      boolean later = rows != null && count > CHUNK && observers == 0;
      if (!later) {
        pool(count);
      }
      synchronized (db) {
        db.checkSyncCommit(SourceCollection.this); // a refused commit (from a listener) leaves the batch open
        done = true;
        db.commitSync(SourceCollection.this, this);
      }
      if (later) {
        loadPooling.add(rows, count);
      }
      Warmup.loadCommitted(readyRows());
    }

    /** Marks this batch committed by the sync transaction that holds it. */
    void seal() {
      if (done) {
        throw new IllegalStateException("sync batch of '" + name() + "' is already committed");
      }
      pool(count);
      done = true;
    }

    /**
     * Pools the rows of the entries from {@link #pooled} to {@code upTo}, a chunk at a time, in a
     * batch of two or more entries (a batch of one keeps its row in {@link #firstRow}).
     */
    private void pool(int upTo) {
      if (rows == null) {
        return;
      }
      while (pooled < upTo) {
        int c = pooled >>> CHUNK_BITS;
        int from = pooled & CHUNK - 1;
        int to = Math.min(CHUNK, upTo - (c << CHUNK_BITS));
        pool.share(rows[c], from, to, block());
        pooled += to - from;
      }
    }

    private Object[][] block() {
      if (block == null) {
        block = new Object[ValuePool.BLOCK][];
      }
      return block;
    }

    int size() {
      return count;
    }

    /** The key of write {@code i}: given for a delete, null for a write (its row holds it). */
    Row keyAt(int i) {
      if (rows == null) {
        return firstKey;
      }
      Row[] chunk = keys == null ? null : keys[i >>> CHUNK_BITS];
      return chunk == null ? null : chunk[i & CHUNK - 1];
    }

    /** The row of write {@code i}, null for a delete. */
    Row rowAt(int i) {
      return rows != null ? rows[i >>> CHUNK_BITS][i & CHUNK - 1] : firstRow;
    }

    /**
     * The rows of a batch of two or more writes and no delete, in chunks of {@link #CHUNK} (the
     * first may be shorter while the batch is), in order; null for any other batch.
     */
    Row[][] writtenRows() {
      return rows != null && keys == null ? rows : null;
    }

    boolean truncates() {
      return truncate;
    }

    boolean marksReady() {
      return markReady;
    }

    /** The entries of a batch that marks its collection ready, else 0. */
    int readyRows() {
      return markReady ? count : 0;
    }

    private void open() {
      if (done) {
        throw new IllegalStateException("sync batch of '" + name() + "' is already committed");
      }
      checkOpen();
    }
  }

  /**
   * Applies a committed sync batch in order (a later write to a key wins); a key under a pending
   * write keeps showing that write. The visible change goes to {@link #change}.
   */
  void applySync(SyncBatch batch) {
    int n = batch.size();
    if (batch.truncates()) {
      for (Row key : rows.keys()) {
        if (!underlay.containsKey(key)) {
          install(key, null);
        }
      }
      underlay.replaceAll((k, v) -> null);
    }
    Row[][] written = batch.writtenRows();
    if (written != null && underlay.isEmpty() && !recordsChanges()) {
      // Nobody reads the change (a load before any live query or listener): the rows go into
      // the table chunk by chunk, without the per-row change bookkeeping of install (and a large
      // first load without its key table until a keyed call needs it: see RowTable.putLoad).
      rows.putLoad(written, CHUNK, n, batch.distinctKeys());
      bulkApplies++;
      return;
    }
    if (rows.isEmpty()) {
      rows.reserve(n); // a first load sizes the table once
    }
    for (int i = 0; i < n; i++) {
      applyEntry(batch.keyAt(i), batch.rowAt(i));
    }
  }

  /**
   * Applies one committed sync entry: {@code row} (null for a delete of {@code key}; {@code key}
   * null for a write, whose row holds it); under a pending write the key keeps showing that write.
   */
  void applyEntry(Row key, Row row) {
    if (!underlay.isEmpty()) {
      key = key != null ? key : keyOf(row);
      if (underlay.containsKey(key)) {
        underlay.put(key, row);
        return;
      }
    }
    install(key, row);
  }

  /** Lays {@code tx}'s writes over the synced rows; the visible change goes to {@link #change}. */
  void overlay(Transaction tx) {
    Map<Row, Row> writes = tx.writesTo(this);
    for (Row key : writes.keySet()) {
      if (!underlay.containsKey(key)) {
        underlay.put(key, rows.get(key));
      }
    }
    pending.add(tx);
    for (Row key : writes.keySet()) {
      install(key, visible(key));
    }
  }

  /**
   * Removes {@code tx}'s overlay; when confirmed, its writes first become the synced rows. The
   * visible change goes to {@link #change}.
   */
  void settle(Transaction tx, boolean confirmed) {
    Map<Row, Row> writes = tx.writesTo(this);
    pending.remove(tx);
    for (Map.Entry<Row, Row> w : writes.entrySet()) {
      Row key = w.getKey();
      if (confirmed) {
        underlay.put(key, w.getValue());
      }
      if (overlaid(key)) {
        install(key, visible(key));
      } else {
        install(key, underlay.remove(key));
      }
    }
  }
}
