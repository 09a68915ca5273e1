package dev.rivulet.replica;

import dev.rivulet.engine.Column;
import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.Schema;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import org.h2.engine.Session;
import org.h2.engine.SessionLocal;
import org.h2.jdbc.JdbcConnection;

/**
 * H2 (embedded: {@code jdbc:h2:mem:} or {@code jdbc:h2:file:}): tables, columns and primary keys
 * of the connection's current schema from INFORMATION_SCHEMA, capture by one {@link H2Capture} row
 * trigger per mirrored table that keeps only the replica's own session's changes, no savepoints
 * (H2 undoes a failed statement by itself). The triggers are schema objects: {@link #uninstall}
 * drops them.
 */
final class H2Backend implements Backend {
  private final String id = Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 1);
  private final List<String> triggers = new ArrayList<>();
  private String schema;

  @Override
  public List<TableInfo> discover(Connection conn) throws SQLException {
    schema = conn.getSchema();
    List<String> names = new ArrayList<>();
    try (PreparedStatement ps = conn.prepareStatement("SELECT TABLE_NAME FROM INFORMATION_SCHEMA.TABLES"
        + " WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE' ORDER BY TABLE_NAME")) {
      ps.setString(1, schema);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          names.add(rs.getString(1));
        }
      }
    }
    List<TableInfo> out = new ArrayList<>();
    for (String n : names) {
      out.add(table(conn, n));
    }
    return out;
  }

  private TableInfo table(Connection conn, String table) throws SQLException {
    List<String> keys = new ArrayList<>();
    try (PreparedStatement ps = conn.prepareStatement("SELECT k.COLUMN_NAME FROM INFORMATION_SCHEMA.TABLE_CONSTRAINTS c"
        + " JOIN INFORMATION_SCHEMA.KEY_COLUMN_USAGE k ON k.CONSTRAINT_SCHEMA = c.CONSTRAINT_SCHEMA"
        + " AND k.CONSTRAINT_NAME = c.CONSTRAINT_NAME WHERE c.CONSTRAINT_TYPE = 'PRIMARY KEY'"
        + " AND c.TABLE_SCHEMA = ? AND c.TABLE_NAME = ? ORDER BY k.ORDINAL_POSITION")) {
      ps.setString(1, schema);
      ps.setString(2, table);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          keys.add(rs.getString(1));
        }
      }
    }
    List<Column> cols = new ArrayList<>();
    List<String> names = new ArrayList<>();
    try (PreparedStatement ps = conn.prepareStatement("SELECT COLUMN_NAME, DATA_TYPE, IS_NULLABLE"
        + " FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION")) {
      ps.setString(1, schema);
      ps.setString(2, table);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          String name = rs.getString(1);
          ColumnType type = type(rs.getString(2));
          boolean notNull = "NO".equals(rs.getString(3)) || keys.contains(name);
          cols.add(notNull ? Column.notNull(name, type) : Column.of(name, type));
          names.add(name);
        }
      }
    }
    return new TableInfo(table, Schema.of(cols), List.copyOf(names), List.copyOf(keys));
  }

  /** The column type of an H2 data type name (ANY for the types Rivulet has no column type for). */
  static ColumnType type(String dataType) {
    String t = dataType.toUpperCase(Locale.ROOT);
    return switch (t) {
      case "TINYINT", "SMALLINT", "INTEGER", "BIGINT" -> ColumnType.INT;
      case "REAL", "DOUBLE PRECISION", "FLOAT" -> ColumnType.DOUBLE;
      case "NUMERIC", "DECIMAL", "DECFLOAT" -> ColumnType.DECIMAL;
      case "CHARACTER", "CHARACTER VARYING", "VARCHAR_IGNORECASE", "CHARACTER LARGE OBJECT" -> ColumnType.STRING;
      case "BOOLEAN" -> ColumnType.BOOL;
      case "BINARY", "BINARY VARYING", "BINARY LARGE OBJECT" -> ColumnType.BYTES;
      case "DATE" -> ColumnType.DATE;
      case "TIMESTAMP", "TIMESTAMP WITH TIME ZONE" -> ColumnType.TIMESTAMP;
      default -> ColumnType.ANY;
    };
  }

  @Override
  public String qualified(String name) {
    return TableInfo.quote(schema) + "." + TableInfo.quote(name);
  }

  @Override
  public void install(Connection conn, List<TableInfo> mirrored, CaptureBuffer buffer) throws SQLException {
    Session session = conn.unwrap(JdbcConnection.class).getSession();
    if (!(session instanceof SessionLocal)) {
      throw new IllegalArgumentException("an H2 replica needs an embedded database (jdbc:h2:mem: or jdbc:h2:file:),"
          + " not a server connection: its triggers run in the process that holds the database");
    }
    dropStale(conn);
    for (TableInfo t : mirrored) {
      String trigger = "RIVULET_" + id + "_" + triggers.size();
      H2Capture.register(trigger, new H2Capture.Target(session, buffer, t.name(), t.schema().indexesOf(t.keys())));
      triggers.add(trigger);
      try (Statement st = conn.createStatement()) {
        st.execute("CREATE TRIGGER " + TableInfo.quote(schema) + "." + TableInfo.quote(trigger)
            + " AFTER INSERT, UPDATE, DELETE ON " + qualified(t.name()) + " FOR EACH ROW CALL '"
            + H2Capture.class.getName() + "'");
      }
    }
  }

  /**
   * Drops the capture triggers that no live replica of this process serves: left in a file database
   * by a replica that was not closed (a crash, or a connection closed under it). They would do
   * nothing but cost a call per row.
   */
  private void dropStale(Connection conn) throws SQLException {
    List<String> stale = new ArrayList<>();
    try (PreparedStatement ps = conn.prepareStatement("SELECT DISTINCT TRIGGER_NAME FROM INFORMATION_SCHEMA.TRIGGERS"
        + " WHERE TRIGGER_SCHEMA = ? AND JAVA_CLASS = ?")) {
      ps.setString(1, schema);
      ps.setString(2, H2Capture.class.getName());
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          if (!H2Capture.isLive(rs.getString(1))) {
            stale.add(rs.getString(1));
          }
        }
      }
    }
    try (Statement st = conn.createStatement()) {
      for (String trigger : stale) {
        st.execute("DROP TRIGGER IF EXISTS " + TableInfo.quote(schema) + "." + TableInfo.quote(trigger));
      }
    }
  }

  @Override
  public boolean atomicStatements() {
    return true;
  }

  @Override
  public boolean sqlTransactionControl() {
    return false;
  }

  @Override
  public void uninstall(Connection conn) throws SQLException {
    try (Statement st = conn.createStatement()) {
      for (String trigger : triggers) {
        st.execute("DROP TRIGGER IF EXISTS " + TableInfo.quote(schema) + "." + TableInfo.quote(trigger));
      }
    } finally {
      triggers.forEach(H2Capture::unregister);
      triggers.clear();
    }
  }
}
