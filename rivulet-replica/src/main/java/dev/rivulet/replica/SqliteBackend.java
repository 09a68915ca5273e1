package dev.rivulet.replica;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.sqlite.Function;

/**
 * SQLite: tables from {@code sqlite_master}, capture by per-connection TEMP triggers calling the
 * {@link Capture} function (so only the replica's own connection is captured; other connections'
 * writes are not seen), a savepoint per statement inside a transaction.
 */
final class SqliteBackend implements Backend {
  @Override
  public List<TableInfo> discover(Connection conn) throws SQLException {
    return TableInfo.discover(conn);
  }

  @Override
  public String qualified(String name) {
    return "main." + TableInfo.quote(name);
  }

  @Override
  public void install(Connection conn, List<TableInfo> mirrored, CaptureBuffer buffer) throws SQLException {
    Map<String, Integer> widths = new HashMap<>();
    for (TableInfo t : mirrored) {
      widths.put(t.name(), t.columns().size());
    }
    Function.create(conn, Capture.NAME, new Capture(widths, buffer));
    for (TableInfo t : mirrored) {
      createTriggers(conn, t);
    }
  }

  private void createTriggers(Connection conn, TableInfo t) throws SQLException {
    StringBuilder olds = new StringBuilder();
    StringBuilder news = new StringBuilder();
    StringBuilder nulls = new StringBuilder();
    for (String c : t.columns()) {
      olds.append(", OLD.").append(TableInfo.quote(c));
      news.append(", NEW.").append(TableInfo.quote(c));
      nulls.append(", NULL");
    }
    String name = t.name().replaceAll("[^A-Za-z0-9_]", "_");
    String table = qualified(t.name());
    String lit = "'" + t.name().replace("'", "''") + "'";
    try (Statement st = conn.createStatement()) {
      st.execute("CREATE TEMP TRIGGER rivulet_ins_" + name + " AFTER INSERT ON " + table + " BEGIN SELECT "
          + Capture.NAME + "(" + lit + ", 'I'" + nulls + news + "); END");
      st.execute("CREATE TEMP TRIGGER rivulet_upd_" + name + " AFTER UPDATE ON " + table + " BEGIN SELECT "
          + Capture.NAME + "(" + lit + ", 'U'" + olds + news + "); END");
      st.execute("CREATE TEMP TRIGGER rivulet_del_" + name + " AFTER DELETE ON " + table + " BEGIN SELECT "
          + Capture.NAME + "(" + lit + ", 'D'" + olds + nulls + "); END");
    }
  }

  @Override
  public boolean atomicStatements() {
    return false;
  }

  /** Drops the capture triggers (around schema changes; at close they would end with the connection anyway). */
  @Override
  public void uninstall(Connection conn) throws SQLException {
    List<String> names = new ArrayList<>();
    try (Statement st = conn.createStatement();
        ResultSet rs = st.executeQuery("SELECT name FROM temp.sqlite_master WHERE type = 'trigger'"
            + " AND name LIKE 'rivulet\\_%' ESCAPE '\\'")) {
      while (rs.next()) {
        names.add(rs.getString(1));
      }
    }
    try (Statement st = conn.createStatement()) {
      for (String n : names) {
        st.execute("DROP TRIGGER IF EXISTS temp." + TableInfo.quote(n));
      }
    }
  }
}
