package dev.rivulet.replica;

import dev.rivulet.query.LazyCollection;
import dev.rivulet.query.LiveQuery;
import dev.rivulet.query.Query;
import dev.rivulet.query.Rivulet;
import dev.rivulet.query.SourceCollection;
import dev.rivulet.query.SyncTransaction;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Live queries over an embedded SQL database, SQLite ({@link #open}) or H2 ({@link H2Replica#open}),
 * that stay current with the application's own SQL writes (seed 004's replica runtime). The
 * replica owns the write connection: statements run through {@link #execute} (autocommit) or
 * {@link #transaction}; triggers hand every changed row's old and new values to the replica (SQLite:
 * per-connection TEMP triggers calling a capture function; H2: a row trigger per table that keeps
 * only this connection's changes), a statement that fails part-way drops what it captured (inside a
 * transaction SQLite runs each statement under a savepoint; H2 undoes a failed statement itself;
 * outside one, SQLite commits what a statement under FAIL conflict resolution changed before it
 * failed, and the replica publishes that, read back from the table: {@link FailedStatement}),
 * and after each commit the transaction's changes enter the mirror collections as one Rivulet
 * transaction, so that every live query and subscriber sees exactly that committed transaction,
 * once, and never a rolled-back one.
 *
 * <p>Only writes made through the replica are seen: writes to the database from other connections
 * are not captured (their rows stay as they were in the mirrors until the replica is reopened).
 *
 * <p>Tables with a primary key are mirrored ({@link #table}); their rows are loaded when the
 * replica opens, except those {@link ReplicaOptions#lazy} names, loaded as queries demand them
 * ({@link #lazyTable}). Callbacks run on the writing thread after the commit; a callback must not write
 * through the replica (refused with an {@link IllegalStateException}).
 *
 * <p>Schema changes: a statement whose first keyword is CREATE, ALTER, DROP, RENAME or TRUNCATE
 * runs through {@link #execute} on its own (inside {@link #transaction} it is refused: H2 commits
 * the transaction at DDL). What it captured is published first (a DROP TABLE's cascades), then
 * the tables are read again and compared with the mirrored ones:
 *
 * <ul>
 *   <li>a new table with a primary key is mirrored (loaded, captured);
 *   <li>a dropped table's mirror is closed: the live queries reading it fail ({@code ERROR}, the
 *       error naming the table) and {@link #table} says it does not exist;
 *   <li>an altered table (its columns, their types or its key changed; a renamed table counts as
 *       dropped and created) gets a new mirror loaded with the new columns, and its capture is
 *       re-installed. Each live query created through {@link #liveQuery} that read the old mirror
 *       is compiled again over the new one and hydrated; {@link #current} returns it, or throws
 *       the compile error (naming the missing column) when it no longer compiles. The old live
 *       query stays failed (its source is closed): no query shows rows of the old schema as
 *       current;
 *   <li>a TRUNCATE (which fires no triggers in H2) re-reads every mirror's rows;
 *   <li>a lazy table ({@link ReplicaOptions#lazy}) that is altered or dropped stops being lazy:
 *       its lazy collection is closed (its live queries fail, naming it) and an altered one is
 *       mirrored eagerly from then on; other schema changes keep capturing it.
 * </ul>
 *
 * {@link #onSchemaChange} listeners hear of each change. Live queries made directly on {@link
 * #rivulet()} are not re-created: they just fail with the closed mirror. Schema changes made by
 * other connections are not seen (as their writes are not): reopen the replica after them.
 *
 * <p>SQLite connections are opened with foreign keys and recursive triggers on (the latter so that
 * rows REPLACE conflict resolution deletes fire delete triggers, and so reach the mirrors; an
 * application trigger that relied on not recursing should say so with a WHEN clause).
 *
 * <p>Other connections: SQLite files are opened in WAL mode ({@code synchronous=NORMAL}), so a
 * reader on its own connection sees the last committed transaction, the state subscribers were
 * handed, without blocking the writer.
 *
 * <p>Close and recovery: {@link #close} removes the capture it installed; inside a transaction it
 * rolls the transaction back. Reopening a file hydrates from it; H2 capture triggers left in the
 * file by a replica that was never closed (a crash) are dropped when a replica opens.
 *
 * <p>Concurrency: one owner, this object's monitor, serialises writers (and schema changes, {@link
 * #close}, {@link #liveQuery} and {@link #current}): transactions from several threads never
 * interleave and are published in commit order. Reads of live queries are safe from any thread
 * (the Rivulet database's own monitor).
 */
public final class SqliteReplica implements AutoCloseable {
  /** How many distinct statements {@link #execute} keeps prepared. */
  static final int STATEMENT_CACHE = 64;

  private final Connection conn;
  private final Rivulet db = Rivulet.create();
  private final Mirrors mirrors = new Mirrors();
  private final Backend backend;
  private final CaptureBuffer capture = new CaptureBuffer();
  private final ReplicaQueries queries = new ReplicaQueries();
  private final SchemaSync schema;
  private final LazyTables lazy;
  private final StatementRunner runner;
  private final FailedStatement failed;
  private boolean inTransaction;
  private boolean publishing;
  private boolean loneWrites = true; // publish a commit of one write without a sync transaction
  private long loneWritesPublished; // how many were, for tests
  private boolean closed;

  private SqliteReplica(Connection conn, Backend backend, ReplicaOptions options) throws SQLException {
    this.conn = conn;
    this.backend = backend;
    this.runner = new StatementRunner(conn, backend, capture, STATEMENT_CACHE);
    List<TableInfo> mirrored = new ArrayList<>();
    mirrors.tables(backend.discover(conn));
    for (TableInfo t : mirrors.tables().values()) {
      if (!t.keys().isEmpty()) {
        mirrored.add(t); // the others are not mirrored: table() says why
      }
    }
    this.lazy = new LazyTables(db, backend, conn, this, () -> inTransaction, mirrors.tables(), options);
    this.failed = new FailedStatement(conn, backend, mirrors, lazy);
    SyncTransaction load = db.beginSync();
    for (TableInfo t : mirrored) {
      if (!lazy.has(t.name())) { // a lazy one is loaded on demand
        mirrors.put(t, MirrorLoader.load(db, conn, backend, t, load));
      }
    }
    backend.install(conn, mirrored, capture);
    load.commit();
    this.schema = new SchemaSync(conn, backend, db, capture, mirrors, queries, lazy);
  }

  /**
   * Opens the SQLite database at {@code jdbcUrl} (e.g. {@code jdbc:sqlite:app.db} or {@code
   * jdbc:sqlite::memory:}) with its schema already created.
   */
  public static SqliteReplica open(String jdbcUrl) throws SQLException {
    return open(jdbcUrl, ReplicaOptions.eager());
  }

  /** Like {@link #open(String)}, with the tables {@code options} names loaded on demand ({@link #lazyTable}). */
  public static SqliteReplica open(String jdbcUrl, ReplicaOptions options) throws SQLException {
    return open(SqliteBackend.connect(jdbcUrl), new SqliteBackend(), options);
  }

  /** The replica over {@code conn} (which it owns from now on), closing it when opening fails. */
  static SqliteReplica open(Connection conn, Backend backend, ReplicaOptions options) throws SQLException {
    try {
      return new SqliteReplica(conn, backend, options);
    } catch (SQLException | RuntimeException e) {
      try {
        backend.uninstall(conn);
        conn.close();
      } catch (SQLException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  /** The Rivulet database holding the mirrors and the live queries. */
  public Rivulet rivulet() {
    return db;
  }

  /**
   * The live mirror of table {@code name} (read it, query it; do not write it: write SQL).
   *
   * @throws IllegalArgumentException naming the table when it does not exist or has no primary key
   */
  public SourceCollection table(String name) {
    SourceCollection c = mirrors.get(name);
    if (c == null) {
      throw new IllegalArgumentException(lazy.has(name) ? "table '" + name + "' is lazy: read it through lazyTable()"
          : mirrors.table(name) != null
          ? "table '" + name + "' has no primary key: it cannot be mirrored"
          : "no table '" + name + "' in the database; tables: " + mirrors.tables().keySet());
    }
    return c;
  }

  /**
   * The lazy collection of table {@code name}, opened with {@link ReplicaOptions#lazy}: live
   * queries load the rows they demand with SQL on the table (a query reading it whole loads it
   * whole; an include loads its parents' buckets, ordered and limited per bucket when the request
   * says so, with a keyset cursor), and the replica's captured changes reach the rows loaded. A
   * committed transaction's changes of lazy tables are published in the same transaction as those
   * of its other tables. Loads run at once on a thread that holds the replica (a live query
   * created through {@link #liveQuery}, a commit's publication), otherwise on a loader thread.
   *
   * @throws IllegalArgumentException naming the table when it is not lazy
   */
  public LazyCollection lazyTable(String name) {
    LazyCollection c = lazy.collection(name);
    if (c == null) {
      throw new IllegalArgumentException("table '" + name + "' is not lazy: open the replica with"
          + " ReplicaOptions.lazy(\"" + name + "\") to load it on demand");
    }
    return c;
  }

  /** The lazy source of table {@code name} (null when it is not lazy): its statements and rows read. */
  SqlLazySource lazySource(String name) {
    return lazy.source(name);
  }

  /**
   * A live query over the mirrors (see {@link Rivulet#liveQuery}), which the replica re-creates
   * when a schema change alters a table it reads (see the class doc, and {@link #current}).
   */
  public synchronized LiveQuery liveQuery(String name, Query query) {
    LiveQuery q = db.liveQuery(name, query);
    queries.register(name, query, q);
    return q;
  }

  /**
   * The live query that stands for {@code q} now: {@code q} itself unless schema changes
   * re-created it over new mirrors (then the newest one). Live queries not created through
   * {@link #liveQuery} are their own current.
   *
   * @throws dev.rivulet.query.QueryException when a schema change left the query failed: it no
   *     longer compiles (the message names the missing column) or a table it read was dropped
   */
  public synchronized LiveQuery current(LiveQuery q) {
    return queries.current(q);
  }

  /**
   * Adds a listener told, on the writing thread after each schema-changing statement that created,
   * altered or dropped a table, what changed and which live queries were re-created or failed. It
   * must not write through the replica (refused).
   */
  public void onSchemaChange(Consumer<SchemaChange> listener) {
    schema.listen(Objects.requireNonNull(listener, "schema change listener"));
  }

  /**
   * Runs one SQL statement with {@code params}: in its own transaction (published when it
   * commits), or inside the running {@link #transaction}. A statement that fails changes nothing
   * and publishes nothing, except outside a transaction on SQLite under FAIL conflict resolution
   * ({@code OR FAIL}, {@code ON CONFLICT FAIL}, {@code RAISE(FAIL)}): what it changed before failing
   * stays committed in the database and is published before the exception is thrown. Transaction
   * control goes through {@link #transaction} and {@link #savepoint}, not SQL.
   *
   * @return the number of rows the statement changed
   * @throws IllegalArgumentException for a transaction-control statement (BEGIN, COMMIT, ROLLBACK,
   *     SAVEPOINT, RELEASE...)
   */
  public synchronized int execute(String sql, Object... params) throws SQLException {
    checkWritable();
    // a kept statement passed the checks below: it is neither transaction control nor DDL (never kept)
    StatementCache.Prepared kept = runner.kept(sql);
    if (kept == null) {
      if (SchemaStatements.controlsTransaction(sql)) {
        throw new IllegalArgumentException("transaction control through execute is not captured: use transaction()"
            + " or savepoint() instead of: " + sql);
      }
      if (SchemaStatements.changesSchema(sql)) {
        return changeSchema(sql, params);
      }
    }
    int changed;
    try {
      changed = runner.run(sql, kept, params, inTransaction);
    } catch (SQLException e) {
      if (!inTransaction && capture.size() > 0) {
        publishFailed(e); // SQLite: what it changed before failing may be committed
      }
      throw e;
    }
    if (!inTransaction) {
      publish();
    }
    return changed;
  }

  /**
   * Publishes what the statement that threw {@code e} outside a transaction, having captured
   * changes, left committed ({@link FailedStatement}); when that cannot be read, the captured
   * changes are dropped and the reason is added to {@code e}.
   */
  private void publishFailed(SQLException e) {
    try {
      failed.reconcile(capture);
      publish();
    } catch (SQLException | RuntimeException again) {
      capture.clear();
      e.addSuppressed(again);
    }
  }

  /** Runs a schema-changing statement in its own transaction, then brings the mirrors in step. */
  private int changeSchema(String sql, Object[] params) throws SQLException {
    if (inTransaction) {
      throw new IllegalStateException("a schema change must run on its own through execute(), not inside a"
          + " transaction (H2 commits the transaction at DDL): " + sql);
    }
    schema.before(sql);
    int changed;
    try {
      changed = runner.runOnce(sql, params);
    } catch (SQLException | RuntimeException e) {
      try {
        schema.after(sql); // capture back as it was
      } catch (SQLException | RuntimeException again) {
        e.addSuppressed(again);
      }
      throw e;
    }
    SchemaChange change;
    try {
      publish(); // what it captured (e.g. foreign-key cascades of a DROP TABLE), before the new schema
    } finally {
      change = schema.after(sql);
    }
    publishing = true; // a listener must not write
    try {
      schema.tell(change);
    } finally {
      publishing = false;
    }
    return changed;
  }

  /** Work inside a transaction. */
  @FunctionalInterface
  public interface Work {
    void run(SqliteReplica tx) throws SQLException;
  }

  /**
   * Runs {@code work} in one transaction: committed and published as one Rivulet transaction when
   * it returns, rolled back (nothing published) when it throws.
   */
  public synchronized void transaction(Work work) throws SQLException {
    checkWritable();
    if (inTransaction) {
      throw new IllegalStateException("a transaction is already running on this replica");
    }
    runner.begin();
    inTransaction = true;
    try {
      work.run(this);
      if (closed) {
        throw new IllegalStateException("the replica was closed inside the transaction: it was rolled back");
      }
      runner.commit();
    } catch (SQLException | RuntimeException e) {
      if (!closed) {
        try {
          runner.rollback();
        } catch (SQLException again) {
          e.addSuppressed(again); // e.g. the database already rolled it back
        }
      }
      capture.clear();
      throw e;
    } finally {
      inTransaction = false;
      if (!closed) {
        runner.end();
      }
    }
    publish();
  }

  /**
   * Runs {@code work} under a savepoint of the running transaction: when it throws, what it did is
   * rolled back (and will not be published) and the exception is rethrown; the transaction goes on.
   *
   * @throws IllegalStateException when no transaction is running
   */
  public synchronized void savepoint(Work work) throws SQLException {
    checkWritable();
    if (!inTransaction) {
      throw new IllegalStateException("a savepoint needs a running transaction (call it inside transaction())");
    }
    int mark = capture.mark();
    Savepoint sp = conn.setSavepoint();
    try {
      work.run(this);
    } catch (SQLException | RuntimeException e) {
      conn.rollback(sp);
      capture.truncate(mark);
      throw e;
    }
    conn.releaseSavepoint(sp);
  }

  /** Hands the committed transaction's captured changes to the mirrors, as one transaction. */
  private void publish() {
    if (capture.size() == 0) {
      return;
    }
    publishing = true; // nothing is captured while it publishes: a callback cannot write
    try {
      if (capture.size() == 1 && loneWrites && mirrors.writeAlone(capture)) {
        loneWritesPublished++; // the usual single-row write: no sync transaction
        return;
      }
      SyncTransaction tx = db.beginSync();
      lazy.publish(capture, tx);
      mirrors.apply(capture, tx);
      tx.commit();
    } finally {
      capture.clear();
      publishing = false;
    }
  }

  /**
   * Whether a commit whose only change is a write of an eagerly mirrored table is published
   * without a sync transaction ({@link Mirrors#writeAlone}); on unless a test turns it off to
   * compare with the general path.
   */
  synchronized void loneWrites(boolean on) {
    loneWrites = on;
  }

  /** How many commits were published by {@link Mirrors#writeAlone}, for tests. */
  synchronized long loneWritesPublished() {
    return loneWritesPublished;
  }

  /** How many statements {@link #execute} has prepared (the others reused a kept one), for tests. */
  synchronized long statementsPrepared() {
    return runner.preparedCount();
  }

  private void checkWritable() {
    if (closed) {
      throw new IllegalStateException("the replica is closed");
    }
    if (publishing) {
      throw new IllegalStateException("cannot write through the replica from a callback of the commit it publishes");
    }
  }

  /**
   * Removes capture from the database and closes the connection; the mirrors and live queries stay
   * readable as they are. Inside a {@link #transaction} (from its work) the transaction is rolled
   * back first and {@code transaction} then throws. Another thread's close waits for the running
   * transaction. Closing twice does nothing.
   *
   * @throws IllegalStateException from a callback of a commit being published
   */
  @Override
  public synchronized void close() throws SQLException {
    if (closed) {
      return;
    }
    if (publishing) {
      throw new IllegalStateException("cannot close the replica from a callback of the commit it publishes");
    }
    closed = true;
    capture.clear();
    try {
      if (inTransaction) {
        runner.rollback();
        runner.end();
      }
      lazy.close();
      try {
        runner.close();
      } finally {
        backend.uninstall(conn);
      }
    } finally {
      conn.close();
    }
  }

  /** The write connection, for tests that simulate a crash by closing it without {@link #close}. */
  Connection connection() {
    return conn;
  }
}
