package dev.rivulet.replica;

import static dev.rivulet.query.Exprs.col;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.query.LiveQuery;
import dev.rivulet.query.Query;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/**
 * SQLite capture corner cases. REPLACE conflict resolution deletes the rows a new row collides with on a UNIQUE column
 * (not only on its key); those deletions fire the capture's delete triggers (the replica turns
 * recursive triggers on), so the mirror loses them too.
 */
class SqliteCaptureCornersTest {
  @Test
  void tablesWhoseNamesDifferOnlyInPunctuationAreCapturedApart() throws SQLException {
    String url = "jdbc:sqlite:file:trigger-names?mode=memory&cache=shared";
    try (Connection keep = DriverManager.getConnection(url)) {
      try (Statement st = keep.createStatement()) {
        st.execute("CREATE TABLE \"a-b\" (id INTEGER PRIMARY KEY, v TEXT)");
        st.execute("CREATE TABLE a_b (id INTEGER PRIMARY KEY, v TEXT)");
      }
      try (SqliteReplica replica = SqliteReplica.open(url)) {
        replica.execute("INSERT INTO \"a-b\" VALUES (1, 'dash')");
        replica.execute("INSERT INTO a_b VALUES (2, 'underscore')");
        assertThat(replica.table("a-b").rows()).isEqualTo(SqlRows.read(keep, "SELECT * FROM \"a-b\""));
        assertThat(replica.table("a_b").rows()).isEqualTo(SqlRows.read(keep, "SELECT * FROM a_b"));
      }
    }
  }


  private static final String ALL = "SELECT * FROM items ORDER BY id";

  @Test
  void rowsReplacedThroughAUniqueColumnLeaveTheMirror() throws SQLException {
    String url = "jdbc:sqlite:file:replace-conflict?mode=memory&cache=shared";
    try (Connection keep = DriverManager.getConnection(url)) {
      try (Statement st = keep.createStatement()) {
        st.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT UNIQUE, qty INTEGER)");
        st.execute("INSERT INTO items VALUES (1, 'a', 1), (2, 'b', 2), (3, 'c', 3)");
      }
      try (SqliteReplica replica = SqliteReplica.open(url)) {
        LiveQuery all = replica.liveQuery("all", Query.from("i", replica.table("items")).orderBy(Query.asc(col("i.id"))));
        replica.execute("INSERT OR REPLACE INTO items VALUES (4, 'a', 4)"); // takes row 1's name: row 1 goes
        assertThat(all.rows()).isEqualTo(SqlRows.read(keep, ALL)).hasSize(3);
        replica.execute("UPDATE OR REPLACE items SET name = 'c' WHERE id = 2"); // row 3 goes
        assertThat(all.rows()).isEqualTo(SqlRows.read(keep, ALL)).hasSize(2);
        replica.transaction(tx -> tx.execute("REPLACE INTO items VALUES (5, 'c', 5)")); // row 2 goes
        assertThat(all.rows()).isEqualTo(SqlRows.read(keep, ALL)).hasSize(2);
      }
    }
  }
}
