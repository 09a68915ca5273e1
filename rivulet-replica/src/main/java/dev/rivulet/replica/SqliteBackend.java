package dev.rivulet.replica;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import org.sqlite.Function;
import org.sqlite.SQLiteConnection;

/**
 * SQLite: tables from {@code sqlite_master}, capture by per-connection TEMP triggers calling the
 * {@link Capture} function (so only the replica's own connection is captured; other connections'
 * writes are not seen), a savepoint per statement inside a transaction. The connection does not
 * fetch generated keys (the replica never returns them), and its driver is told that autocommit is
 * off while SQLite commits each statement outside a transaction by itself ({@link
 * #sqlTransactionControl}).
 */
final class SqliteBackend implements Backend {
  /**
   * A connection to {@code jdbcUrl} with foreign keys and recursive triggers on (the latter so that
   * REPLACE conflict resolution fires delete triggers for the rows it removes, and capture sees
   * them), in WAL mode with {@code synchronous=NORMAL} (an in-memory database keeps its memory
   * journal).
   */
  static Connection connect(String jdbcUrl) throws SQLException {
    Connection conn = DriverManager.getConnection(jdbcUrl);
    try (Statement st = conn.createStatement()) {
      st.execute("PRAGMA foreign_keys = ON");
      st.execute("PRAGMA recursive_triggers = ON");
      st.execute("PRAGMA journal_mode = WAL");
      st.execute("PRAGMA synchronous = NORMAL");
    } catch (SQLException e) {
      conn.close();
      throw e;
    }
    return conn;
  }

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
    // execute() never hands out generated keys: without this, sqlite-jdbc matches every statement
    // against a regular expression and runs an extra query after every INSERT to have them ready
    SQLiteConnection sqlite = conn.unwrap(SQLiteConnection.class);
    sqlite.getConnectionConfig().setGetGeneratedKeys(false);
    // In JDBC autocommit mode sqlite-jdbc runs an empty BEGIN and COMMIT after every statement (so
    // that one finished while a read is open commits at once); the replica keeps no read open on
    // its connection, so SQLite's own autocommit suffices: the driver is told it is off (no SQL is
    // run) and transaction() begins and ends transactions with SQL (sqlTransactionControl).
    sqlite.getConnectionConfig().setAutoCommit(false);
    Charset text = encoding(conn);
    for (int i = 0; i < mirrored.size(); i++) {
      TableInfo t = mirrored.get(i);
      boolean rowid = rowidKey(conn, t);
      for (int op : Capture.OPS) {
        Function.create(conn, Capture.name(i, op), new Capture(t, rowid, op, text, buffer, sqlite.getDatabase()));
      }
      createTriggers(conn, t, i);
    }
  }

  /**
   * Whether {@code t}'s key is its rowid (an INTEGER PRIMARY KEY of a rowid table, whose values
   * are all integers): a single key column that no primary-key index holds (every other primary
   * key has one, a WITHOUT ROWID table's too).
   */
  static boolean rowidKey(Connection conn, TableInfo t) throws SQLException {
    if (t.keys().size() != 1) {
      return false;
    }
    try (Statement st = conn.createStatement();
        ResultSet rs = st.executeQuery("PRAGMA main.index_list(" + TableInfo.quote(t.name()) + ")")) {
      while (rs.next()) {
        if ("pk".equals(rs.getString("origin"))) {
          return false;
        }
      }
    }
    return true;
  }

  /** The text encoding of {@code conn}'s database (how a text value's bytes read). */
  private static Charset encoding(Connection conn) throws SQLException {
    try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery("PRAGMA encoding")) {
      String e = rs.next() ? rs.getString(1) : "UTF-8";
      return switch (e.toUpperCase(Locale.ROOT)) {
        case "UTF-16LE" -> StandardCharsets.UTF_16LE;
        case "UTF-16BE" -> StandardCharsets.UTF_16BE;
        case "UTF-8" -> StandardCharsets.UTF_8;
        default -> throw new SQLException("unknown SQLite text encoding: " + e);
      };
    }
  }

  /**
   * The three capture triggers of {@code t}, the {@code index}-th mirrored table (see {@link
   * Capture}). The update trigger calls the function of an update that kept its key when each key
   * column's old value {@code IS} its new one, compared bytewise, so that a collation cannot call a
   * changed key ('a' to 'A' under NOCASE) kept; the general one with the old key otherwise.
   */
  private void createTriggers(Connection conn, TableInfo t, int index) throws SQLException {
    String news = columns("NEW.", t.columns());
    String oldKey = columns("OLD.", t.keys());
    StringBuilder kept = new StringBuilder();
    for (String k : t.keys()) {
      String c = TableInfo.quote(k);
      kept.append(kept.length() == 0 ? "" : " AND ").append("OLD.").append(c).append(" IS NEW.").append(c)
          .append(" COLLATE BINARY");
    }
    // the index keeps names apart that differ only in characters a trigger name cannot hold (a-b, a_b)
    String name = index + "_" + t.name().replaceAll("[^A-Za-z0-9_]", "_");
    String table = qualified(t.name());
    try (Statement st = conn.createStatement()) {
      st.execute("CREATE TEMP TRIGGER rivulet_ins_" + name + " AFTER INSERT ON " + table + " BEGIN SELECT "
          + Capture.name(index, Capture.INSERT) + "(" + news + "); END");
      st.execute("CREATE TEMP TRIGGER rivulet_upd_" + name + " AFTER UPDATE ON " + table + " BEGIN SELECT CASE WHEN "
          + kept + " THEN " + Capture.name(index, Capture.KEPT) + "(" + news + ") ELSE "
          + Capture.name(index, Capture.UPDATE) + "(" + news + ", " + oldKey + ") END; END");
      st.execute("CREATE TEMP TRIGGER rivulet_del_" + name + " AFTER DELETE ON " + table + " BEGIN SELECT "
          + Capture.name(index, Capture.DELETE) + "(" + oldKey + "); END");
    }
  }

  /** {@code names} as a comma-separated list of trigger row references, e.g. {@code NEW."id", NEW."title"}. */
  private static String columns(String row, List<String> names) {
    StringBuilder out = new StringBuilder();
    for (String n : names) {
      out.append(out.length() == 0 ? "" : ", ").append(row).append(TableInfo.quote(n));
    }
    return out.toString();
  }

  @Override
  public boolean atomicStatements() {
    return false;
  }

  @Override
  public boolean sqlTransactionControl() {
    return true;
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
