package dev.rivulet.replica;

import dev.rivulet.engine.Row;
import dev.rivulet.query.LiveQuery;
import dev.rivulet.query.Query;
import dev.rivulet.query.Rivulet;
import dev.rivulet.query.SourceCollection;
import dev.rivulet.query.SyncTransaction;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Live queries over an embedded SQL database, SQLite ({@link #open}) or H2 ({@link H2Replica#open}),
 * that stay current with the application's own SQL writes (seed 004's replica runtime). The
 * replica owns the write connection: statements run through {@link #execute} (autocommit) or
 * {@link #transaction}; triggers hand every changed row's old and new values to the replica (SQLite:
 * per-connection TEMP triggers calling a capture function; H2: a row trigger per table that keeps
 * only this connection's changes), a statement that fails part-way drops what it captured (inside a
 * transaction SQLite runs each statement under a savepoint; H2 undoes a failed statement itself),
 * and after each commit the transaction's changes enter the mirror collections as one Rivulet
 * transaction, so that every live query and subscriber sees exactly that committed transaction,
 * once, and never a rolled-back one.
 *
 * <p>Only writes made through the replica are seen: writes to the database from other connections
 * are not captured (their rows stay as they were in the mirrors until the replica is reopened).
 *
 * <p>Tables with a primary key are mirrored ({@link #table}); their rows are loaded when the
 * replica opens. Callbacks run on the writing thread after the commit; a callback must not write
 * through the replica (refused with an {@link IllegalStateException}).
 *
 * <p>Concurrency: one owner, this object's monitor, serialises writers; reads of live queries are
 * safe from any thread (the Rivulet database's own monitor).
 */
public final class SqliteReplica implements AutoCloseable {
  private static final Pattern TRANSACTION_CONTROL = Pattern.compile(
      "\\s*(BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE|START\\s+TRANSACTION|SET\\s+AUTOCOMMIT)\\b",
      Pattern.CASE_INSENSITIVE);

  /** How many distinct statements {@link #execute} keeps prepared. */
  static final int STATEMENT_CACHE = 64;

  private final Connection conn;
  private final Rivulet db = Rivulet.create();
  private final Map<String, TableInfo> tables = new LinkedHashMap<>();
  private final Map<String, SourceCollection> mirrors = new HashMap<>();
  private final Map<String, int[]> keyIndexes = new HashMap<>();
  private final Backend backend;
  private final CaptureBuffer capture = new CaptureBuffer();
  private final StatementCache statements; // execute()'s, each checked once not to be transaction control
  private final StatementCache control; // the replica's own savepoint statements
  private boolean inTransaction;
  private boolean publishing;

  private SqliteReplica(Connection conn, Backend backend) throws SQLException {
    this.conn = conn;
    this.backend = backend;
    this.statements = new StatementCache(conn, STATEMENT_CACHE);
    this.control = new StatementCache(conn, 3);
    List<TableInfo> mirrored = new ArrayList<>();
    for (TableInfo t : backend.discover(conn)) {
      tables.put(t.name(), t);
      if (!t.keys().isEmpty()) {
        mirrored.add(t); // the others are not mirrored: table() says why
      }
    }
    SyncTransaction load = db.beginSync();
    for (TableInfo t : mirrored) {
      SourceCollection c = db.collection(t.name(), t.schema(), t.keys());
      mirrors.put(t.name(), c);
      keyIndexes.put(t.name(), t.schema().indexesOf(t.keys()));
      try (Statement st = conn.createStatement();
          ResultSet rs = st.executeQuery("SELECT * FROM " + backend.qualified(t.name()))) {
        int n = t.columns().size();
        while (rs.next()) {
          Object[] values = new Object[n];
          for (int i = 0; i < n; i++) {
            values[i] = CaptureBuffer.plain(rs.getObject(i + 1));
          }
          load.write(c, Row.of(values));
        }
      }
      load.markReady(c);
    }
    backend.install(conn, mirrored, capture);
    load.commit();
  }

  /**
   * Opens the SQLite database at {@code jdbcUrl} (e.g. {@code jdbc:sqlite:app.db} or {@code
   * jdbc:sqlite::memory:}) with its schema already created.
   */
  public static SqliteReplica open(String jdbcUrl) throws SQLException {
    Connection conn = DriverManager.getConnection(jdbcUrl);
    try (Statement st = conn.createStatement()) {
      st.execute("PRAGMA foreign_keys = ON");
    }
    return open(conn, new SqliteBackend());
  }

  /** The replica over {@code conn} (which it owns from now on), closing it when opening fails. */
  static SqliteReplica open(Connection conn, Backend backend) throws SQLException {
    try {
      return new SqliteReplica(conn, backend);
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
      throw new IllegalArgumentException(tables.containsKey(name)
          ? "table '" + name + "' has no primary key: it cannot be mirrored"
          : "no table '" + name + "' in the database; tables: " + tables.keySet());
    }
    return c;
  }

  /** A live query over the mirrors (see {@link Rivulet#liveQuery}). */
  public LiveQuery liveQuery(String name, Query query) {
    return db.liveQuery(name, query);
  }

  /**
   * Runs one SQL statement with {@code params}: in its own transaction (published when it
   * commits), or inside the running {@link #transaction}. A statement that fails changes nothing
   * and publishes nothing. Transaction control goes through {@link #transaction} and {@link
   * #savepoint}, not SQL.
   *
   * @return the number of rows the statement changed
   * @throws IllegalArgumentException for a transaction-control statement (BEGIN, COMMIT, ROLLBACK,
   *     SAVEPOINT, RELEASE...)
   */
  public synchronized int execute(String sql, Object... params) throws SQLException {
    checkNotPublishing();
    StatementCache.Prepared prepared = statements.cached(sql); // a cached statement passed the check below
    if (prepared == null && TRANSACTION_CONTROL.matcher(sql).lookingAt()) {
      throw new IllegalArgumentException("transaction control through execute is not captured: use transaction()"
          + " or savepoint() instead of: " + sql);
    }
    int mark = capture.mark();
    boolean savepoint = inTransaction && !backend.atomicStatements();
    if (savepoint) {
      exec("SAVEPOINT rivulet_statement");
    }
    int changed;
    try {
      if (prepared == null) {
        prepared = statements.prepare(sql);
      }
      PreparedStatement ps = prepared.statement();
      if (params.length < prepared.parameters()) {
        ps.clearParameters(); // the parameters not given are unset, not the last run's
      }
      for (int i = 0; i < params.length; i++) {
        ps.setObject(i + 1, params[i]);
      }
      changed = ps.executeUpdate();
    } catch (SQLException e) {
      if (savepoint) {
        exec("ROLLBACK TO rivulet_statement");
        exec("RELEASE rivulet_statement");
      }
      capture.truncate(mark); // the database undid the statement; so are its captured rows
      throw e;
    }
    if (savepoint) {
      exec("RELEASE rivulet_statement");
    }
    if (!inTransaction) {
      publish();
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
    checkNotPublishing();
    if (inTransaction) {
      throw new IllegalStateException("a transaction is already running on this replica");
    }
    conn.setAutoCommit(false);
    inTransaction = true;
    try {
      work.run(this);
      conn.commit();
    } catch (SQLException | RuntimeException e) {
      conn.rollback();
      capture.take();
      throw e;
    } finally {
      inTransaction = false;
      conn.setAutoCommit(true);
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
    checkNotPublishing();
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
    List<CaptureBuffer.Changed> changes = capture.take();
    if (changes.isEmpty()) {
      return;
    }
    publishing = true;
    try {
      SyncTransaction tx = db.beginSync();
      for (CaptureBuffer.Changed c : changes) {
        SourceCollection m = mirrors.get(c.table());
        if (m == null) {
          continue;
        }
        int[] keys = keyIndexes.get(c.table());
        if (c.oldKey() != null && (c.after() == null || !c.oldKey().equals(c.after().project(keys)))) {
          tx.delete(m, c.oldKey()); // the key changed (or the row went): its old key goes
        }
        if (c.after() != null) {
          tx.write(m, c.after());
        }
      }
      tx.commit();
    } finally {
      publishing = false;
    }
  }

  /** How many statements {@link #execute} has prepared (the others reused a kept one), for tests. */
  synchronized long statementsPrepared() {
    return statements.preparedCount();
  }

  private void checkNotPublishing() {
    if (publishing) {
      throw new IllegalStateException("cannot write through the replica from a callback of the commit it publishes");
    }
  }

  private void exec(String sql) throws SQLException {
    control.get(sql).executeUpdate();
  }

  @Override
  public synchronized void close() throws SQLException {
    try {
      try {
        statements.close();
        control.close();
      } finally {
        backend.uninstall(conn);
      }
    } finally {
      conn.close();
    }
  }
}
