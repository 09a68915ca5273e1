package dev.rivulet.replica;

import dev.rivulet.engine.Column;
import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.Schema;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One table of the database as the replica mirrors it: its columns (typed from their declared
 * SQLite types by SQLite's affinity rules) and its primary key. Immutable.
 */
record TableInfo(String name, Schema schema, List<String> columns, List<String> keys) {
  /** The user tables of {@code conn}'s main database, in name order. */
  static List<TableInfo> discover(Connection conn) throws SQLException {
    List<String> names = new ArrayList<>();
    try (Statement st = conn.createStatement();
        ResultSet rs = st.executeQuery("SELECT name FROM main.sqlite_master WHERE type = 'table'"
            + " AND name NOT LIKE 'sqlite_%' ORDER BY name")) {
      while (rs.next()) {
        names.add(rs.getString(1));
      }
    }
    List<TableInfo> out = new ArrayList<>();
    for (String n : names) {
      out.add(of(conn, n));
    }
    return out;
  }

  private static TableInfo of(Connection conn, String table) throws SQLException {
    List<Column> cols = new ArrayList<>();
    List<String> names = new ArrayList<>();
    List<String> keys = new ArrayList<>();
    List<Integer> keyOrder = new ArrayList<>();
    try (Statement st = conn.createStatement();
        ResultSet rs = st.executeQuery("PRAGMA main.table_info(" + quote(table) + ")")) {
      while (rs.next()) {
        String name = rs.getString("name");
        int pk = rs.getInt("pk");
        boolean notNull = rs.getInt("notnull") != 0 || pk > 0;
        ColumnType type = affinity(rs.getString("type"));
        cols.add(notNull ? Column.notNull(name, type) : Column.of(name, type));
        names.add(name);
        if (pk > 0) {
          int at = 0;
          while (at < keyOrder.size() && keyOrder.get(at) < pk) {
            at++;
          }
          keyOrder.add(at, pk);
          keys.add(at, name);
        }
      }
    }
    return new TableInfo(table, Schema.of(cols), List.copyOf(names), List.copyOf(keys));
  }

  /** The column type of a declared SQLite type, by SQLite's affinity rules (ANY where values may be of any kind). */
  static ColumnType affinity(String declared) {
    String t = declared == null ? "" : declared.toUpperCase(Locale.ROOT);
    if (t.contains("INT")) {
      return ColumnType.INT;
    }
    if (t.contains("CHAR") || t.contains("CLOB") || t.contains("TEXT")) {
      return ColumnType.STRING;
    }
    if (t.contains("REAL") || t.contains("FLOA") || t.contains("DOUB")) {
      return ColumnType.DOUBLE;
    }
    return ColumnType.ANY; // BLOB, untyped and NUMERIC columns hold values of any kind
  }

  /** {@code name} as an SQL identifier. */
  static String quote(String name) {
    return "\"" + name.replace("\"", "\"\"") + "\"";
  }
}
