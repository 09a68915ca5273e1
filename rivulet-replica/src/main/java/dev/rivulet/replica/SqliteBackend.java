package dev.rivulet.replica;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
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
    Function.create(conn, Capture.NAME, new Capture(mirrored, buffer));
    for (int i = 0; i < mirrored.size(); i++) {
      createTriggers(conn, mirrored.get(i), i);
    }
  }

  /** The three capture triggers of {@code t}, the {@code index}-th mirrored table (see {@link Capture}). */
  private void createTriggers(Connection conn, TableInfo t, int index) throws SQLException {
    StringBuilder news = new StringBuilder();
    StringBuilder oldKey = new StringBuilder();
    for (String c : t.columns()) {
      news.append(", NEW.").append(TableInfo.quote(c));
    }
    for (String k : t.keys()) {
      oldKey.append(", OLD.").append(TableInfo.quote(k));
    }
    String name = t.name().replaceAll("[^A-Za-z0-9_]", "_");
    String table = qualified(t.name());
    try (Statement st = conn.createStatement()) {
      st.execute("CREATE TEMP TRIGGER rivulet_ins_" + name + " AFTER INSERT ON " + table + " BEGIN SELECT "
          + call(index, Capture.INSERT) + news + "); END");
      st.execute("CREATE TEMP TRIGGER rivulet_upd_" + name + " AFTER UPDATE ON " + table + " BEGIN SELECT "
          + call(index, Capture.UPDATE) + news + oldKey + "); END");
      st.execute("CREATE TEMP TRIGGER rivulet_del_" + name + " AFTER DELETE ON " + table + " BEGIN SELECT "
          + call(index, Capture.DELETE) + oldKey + "); END");
    }
  }

  private static String call(int table, int op) {
    return Capture.NAME + "(" + Capture.code(table, op);
  }

  @Override
  public boolean atomicStatements() {
    return false;
  }

  @Override
  public void uninstall(Connection conn) {
    // TEMP triggers and the function end with the connection
  }
}
