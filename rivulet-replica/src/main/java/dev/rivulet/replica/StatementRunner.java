package dev.rivulet.replica;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * Runs a replica's statements on its write connection: the kept prepared statements of {@link
 * SqliteReplica#execute} ({@link StatementCache}), each statement inside a transaction under a
 * savepoint of its own when the database does not undo a failed statement itself (SQLite), and a
 * failed statement's captured rows dropped from the {@link CaptureBuffer}; and the transactions of
 * {@link SqliteReplica#transaction}, begun and ended as the backend says ({@link
 * Backend#sqlTransactionControl}).
 *
 * <p>Owned by its replica: used only under the replica's monitor.
 */
final class StatementRunner implements AutoCloseable {
  private final Connection conn;
  private final CaptureBuffer capture;
  private final boolean savepoints;
  private final boolean sqlTransactions; // begin and end transactions with SQL, not through JDBC
  private final StatementCache statements; // execute()'s, each checked once not to be transaction control
  private final StatementCache control; // the savepoint statements

  StatementRunner(Connection conn, Backend backend, CaptureBuffer capture, int cacheSize) {
    this.conn = conn;
    this.capture = capture;
    this.savepoints = !backend.atomicStatements();
    this.sqlTransactions = backend.sqlTransactionControl();
    this.statements = new StatementCache(conn, cacheSize);
    this.control = new StatementCache(conn, 6);
  }

  /** The kept statement of {@code sql} when it was run before, else null. */
  StatementCache.Prepared kept(String sql) {
    return statements.cached(sql);
  }

  /**
   * Runs {@code sql} with {@code params} (its kept statement {@code prepared}, or prepared and kept
   * when that is null), under a savepoint when {@code inTransaction} and the database needs one;
   * when it fails, its captured rows are dropped, except outside a transaction on a database that
   * may have committed part of it (SQLite under FAIL conflict resolution): they are left for the
   * caller ({@link FailedStatement}).
   *
   * @return the number of rows it changed
   */
  int run(String sql, StatementCache.Prepared prepared, Object[] params, boolean inTransaction)
      throws SQLException {
    int mark = capture.mark();
    boolean savepoint = inTransaction && savepoints;
    if (savepoint) {
      exec("SAVEPOINT rivulet_statement");
    }
    int changed;
    try {
      StatementCache.Prepared p = prepared != null ? prepared : statements.prepare(sql);
      PreparedStatement ps = p.statement();
      if (params.length < p.parameters()) {
        ps.clearParameters(); // the parameters not given are unset, not the last run's
      }
      bind(ps, params);
      changed = ps.executeUpdate();
    } catch (SQLException e) {
      if (savepoint) {
        exec("ROLLBACK TO rivulet_statement");
        exec("RELEASE rivulet_statement");
      }
      if (inTransaction || !savepoints) {
        capture.truncate(mark); // the database undid the statement; so are its captured rows
      }
      throw e;
    }
    if (savepoint) {
      exec("RELEASE rivulet_statement");
    }
    return changed;
  }

  /** Starts a transaction on the connection. */
  void begin() throws SQLException {
    if (sqlTransactions) {
      exec("BEGIN");
    } else {
      conn.setAutoCommit(false);
    }
  }

  /** Commits the transaction {@link #begin} started (it stays open when this throws). */
  void commit() throws SQLException {
    if (sqlTransactions) {
      exec("COMMIT");
    } else {
      conn.commit();
    }
  }

  /** Rolls back the transaction {@link #begin} started. */
  void rollback() throws SQLException {
    if (sqlTransactions) {
      exec("ROLLBACK");
    } else {
      conn.rollback();
    }
  }

  /** After a transaction's commit or rollback: statements commit on their own again. */
  void end() throws SQLException {
    if (!sqlTransactions) {
      conn.setAutoCommit(true);
    }
  }

  /**
   * Runs {@code sql} once, not kept (a schema change); when it fails, its captured rows are
   * dropped.
   */
  int runOnce(String sql, Object[] params) throws SQLException {
    int mark = capture.mark();
    try (PreparedStatement ps = conn.prepareStatement(sql)) {
      bind(ps, params);
      return ps.executeUpdate();
    } catch (SQLException | RuntimeException e) {
      capture.truncate(mark);
      throw e;
    }
  }

  private static void bind(PreparedStatement ps, Object[] params) throws SQLException {
    for (int i = 0; i < params.length; i++) {
      ps.setObject(i + 1, params[i]);
    }
  }

  private void exec(String sql) throws SQLException {
    control.get(sql).executeUpdate();
  }

  /** How many statements {@link #run} has prepared (the others reused a kept one). */
  long preparedCount() {
    return statements.preparedCount();
  }

  /** Closes the kept statements (before the connection closes). */
  @Override
  public void close() throws SQLException {
    try {
      statements.close();
    } finally {
      control.close();
    }
  }
}
