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
 * SQLite's REPLACE conflict resolution deletes the rows a new row collides with on a UNIQUE column
 * (not only on its key); those deletions fire the capture's delete triggers (the replica turns
 * recursive triggers on), so the mirror loses them too.
 */
class ReplaceConflictTest {
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
