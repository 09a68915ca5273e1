package dev.rivulet.replica;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * What differs between the embedded databases a replica runs over: how tables are discovered, how
 * a table is named in SQL, and how changed rows reach the replica's {@link CaptureBuffer}.
 * Implementations are used only by the replica that owns them, under its monitor.
 */
interface Backend {
  /** The user tables of the database, in name order. */
  List<TableInfo> discover(Connection conn) throws SQLException;

  /** Table {@code name} as an SQL table reference (schema-qualified, quoted). */
  String qualified(String name);

  /**
   * Starts capturing: from now on, every row change that a statement on {@code conn} makes to one
   * of {@code mirrored} is appended to {@code buffer} when it happens.
   */
  void install(Connection conn, List<TableInfo> mirrored, CaptureBuffer buffer) throws SQLException;

  /**
   * True when the database undoes a failed statement by itself inside a transaction (H2); false
   * when the replica wraps each statement in a savepoint (SQLite, whose ON CONFLICT modes may keep a
   * failed statement's earlier rows).
   */
  boolean atomicStatements();

  /**
   * True when {@link #install} left the driver believing the connection is never in autocommit mode
   * while the database still commits each statement run outside a transaction by itself (SQLite:
   * sqlite-jdbc would otherwise follow every such statement with an empty BEGIN and COMMIT); the
   * replica then begins and ends its transactions with SQL statements, not through JDBC.
   */
  boolean sqlTransactionControl();

  /** Stops capturing and removes what {@link #install} left in the database (before {@code conn} closes). */
  void uninstall(Connection conn) throws SQLException;
}
