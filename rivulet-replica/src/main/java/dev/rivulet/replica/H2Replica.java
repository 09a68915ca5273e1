package dev.rivulet.replica;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/**
 * Opens a replica over an embedded H2 database. The replica is the same runtime as over SQLite
 * ({@link SqliteReplica}, same contract); only capture differs: a row trigger per mirrored table
 * (named {@code RIVULET_<id>_<n>}, dropped on {@link SqliteReplica#close}) that keeps the changes of
 * the replica's own session and ignores other connections' writes.
 */
public final class H2Replica {
  private H2Replica() {}

  /**
   * Opens the embedded H2 database at {@code jdbcUrl} (e.g. {@code jdbc:h2:./app} or {@code
   * jdbc:h2:mem:app;DB_CLOSE_DELAY=-1}) with its schema already created. Tables and columns are
   * mirrored under the names H2 stores (upper case for unquoted names unless the URL says {@code
   * DATABASE_TO_LOWER=TRUE}).
   *
   * @throws IllegalArgumentException when the URL names an H2 server rather than an embedded database
   */
  public static SqliteReplica open(String jdbcUrl) throws SQLException {
    return open(jdbcUrl, ReplicaOptions.eager());
  }

  /** Like {@link #open(String)}, with the tables {@code options} names loaded on demand ({@link SqliteReplica#lazyTable}). */
  public static SqliteReplica open(String jdbcUrl, ReplicaOptions options) throws SQLException {
    Connection conn = DriverManager.getConnection(jdbcUrl);
    return SqliteReplica.open(conn, new H2Backend(), options);
  }
}
