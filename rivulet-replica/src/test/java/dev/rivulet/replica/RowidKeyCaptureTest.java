package dev.rivulet.replica;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SQLite capture reads a rowid key (an INTEGER PRIMARY KEY of a rowid table) as an integer
 * without asking its type ({@link SqliteBackend#rowidKey} says which keys are rowids: not those that
 * only look like one, INTEGER PRIMARY KEY DESC, INT PRIMARY KEY, a WITHOUT ROWID table's), and
 * every other key by its type (an untyped key holds text and reals). The mirrors, through inserts,
 * updates that keep or move the key, and deletes, equal their tables.
 */
class RowidKeyCaptureTest {
  @TempDir
  Path dir;

  private static final Map<String, String> TABLES = new TreeMap<>(Map.of(
      "alias", "CREATE TABLE alias (id INTEGER PRIMARY KEY, v TEXT)",
      "alias_desc", "CREATE TABLE alias_desc (id integer, v TEXT, PRIMARY KEY (id DESC))",
      "any_key", "CREATE TABLE any_key (id PRIMARY KEY, v TEXT)",
      "col_desc", "CREATE TABLE col_desc (id INTEGER PRIMARY KEY DESC, v TEXT)",
      "int_key", "CREATE TABLE int_key (id INT PRIMARY KEY, v TEXT)",
      "no_rowid", "CREATE TABLE no_rowid (id INTEGER PRIMARY KEY, v TEXT) WITHOUT ROWID",
      "pair", "CREATE TABLE pair (id INTEGER, v TEXT, PRIMARY KEY (id, v))"));

  @Test
  void onlyRowidKeysAreReadAsIntegersAndEveryMirrorEqualsItsTable() throws SQLException {
    String url = Backends.SQLITE.url(dir, "rowid");
    for (String ddl : TABLES.values()) {
      Backends.SQLITE.run(url, ddl);
    }
    try (SqliteReplica r = SqliteReplica.open(url)) {
      Map<String, Boolean> rowid = new TreeMap<>();
      for (TableInfo t : TableInfo.discover(r.connection())) {
        rowid.put(t.name(), SqliteBackend.rowidKey(r.connection(), t));
      }
      assertThat(rowid).containsExactlyEntriesOf(new TreeMap<>(Map.of("alias", true, "alias_desc", true,
          "any_key", false, "col_desc", false, "int_key", false, "no_rowid", false, "pair", false)));
      for (String t : TABLES.keySet()) {
        String q = TableInfo.quote(t);
        r.execute("INSERT INTO " + q + " VALUES (1, 'a'), (2, 'b'), (3, 'c')");
        r.execute("UPDATE " + q + " SET v = 'kept' WHERE id = 1");
        r.execute("UPDATE " + q + " SET id = 10 WHERE id = 2");
        r.execute("DELETE FROM " + q + " WHERE id = 3");
        if (t.equals("any_key")) { // keys of other kinds than integers
          r.execute("INSERT INTO " + q + " VALUES ('x', 'text key'), (2.5, 'real key')");
          r.execute("UPDATE " + q + " SET v = 'kept' WHERE id = 'x'");
          r.execute("UPDATE " + q + " SET id = 'y' WHERE id = 2.5");
          r.execute("UPDATE " + q + " SET id = 7 WHERE id = 'x'");
        }
        r.transaction(tx -> {
          tx.execute("UPDATE " + q + " SET id = id + 100 WHERE typeof(id) = 'integer'");
          tx.execute("DELETE FROM " + q + " WHERE id = 110");
        });
        assertThat(SqlRows.sorted(r.table(t).rows())).as(t)
            .isEqualTo(SqlRows.sorted(SqlRows.read(r.connection(), "SELECT * FROM " + q)));
      }
      assertThat(r.table("any_key").rows()).as("a text key came through as text").contains(Row.of("y", "real key"));
    }
  }
}
