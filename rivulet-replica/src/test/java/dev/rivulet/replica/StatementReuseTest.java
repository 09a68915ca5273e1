package dev.rivulet.replica;

import static dev.rivulet.query.Exprs.col;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.Row;
import dev.rivulet.query.LiveQuery;
import dev.rivulet.query.Query;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link SqliteReplica#execute} keeps its prepared statements ({@link StatementCache}): a statement
 * run again is not prepared again, and a reused statement does what a fresh one does (unset
 * parameters are NULL, not the last run's; a failed run leaves it usable; one dropped past the
 * capacity is prepared again). The capture triggers pass the old key only, so key changes and
 * deletes are checked too. The mirror is compared with the database after each step.
 */
class StatementReuseTest {
  private static final String ALL = "SELECT * FROM items ORDER BY id";

  private static Connection create(String url) throws SQLException {
    Connection c = DriverManager.getConnection(url);
    SqlRows.exec(c,
        "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT UNIQUE, qty INTEGER, data BLOB, score REAL)",
        "INSERT INTO items VALUES (1, 'a', 1, X'00ff', 0.5), (2, 'b', 2, NULL, NULL)");
    return c;
  }

  private static LiveQuery all(SqliteReplica r) {
    return r.liveQuery("all", Query.from("i", r.table("items")).orderBy(Query.asc(col("i.id"))));
  }

  @Test
  void aStatementRunAgainIsPreparedOnceAndDoesWhatAFreshOneDoes() throws SQLException {
    String url = "jdbc:sqlite:file:reuse_once?mode=memory&cache=shared";
    try (Connection keep = create(url); SqliteReplica replica = SqliteReplica.open(url)) {
      LiveQuery all = all(replica);
      long before = replica.statementsPrepared();
      for (int i = 3; i < 13; i++) {
        replica.execute("INSERT INTO items VALUES (?, ?, ?, ?, ?)", i, "n" + i, i * 10, new byte[] {(byte) i}, i / 4.0);
      }
      for (int i = 0; i < 10; i++) {
        replica.execute("UPDATE items SET qty = qty + ? WHERE id = ?", 1, 3 + i);
      }
      assertThat(replica.statementsPrepared() - before).isEqualTo(2);
      assertThat(all.rows()).hasSize(12).isEqualTo(SqlRows.read(keep, ALL));

      // an unset parameter of a reused statement is NULL: WHERE id = NULL matches nothing
      replica.execute("UPDATE items SET name = ? WHERE id = ?", "x", 1);
      assertThat(replica.execute("UPDATE items SET name = ? WHERE id = ?", "y")).isZero();
      assertThat(SqlRows.read(keep, "SELECT name FROM items WHERE id = 1")).containsExactly(Row.of("x"));
      assertThat(all.rows()).isEqualTo(SqlRows.read(keep, ALL));

      // a failed run (name is UNIQUE) changes nothing; the same statement then runs fine
      assertThatThrownBy(() -> replica.execute("UPDATE items SET name = ? WHERE id = ?", "b", 1))
          .isInstanceOf(SQLException.class);
      replica.transaction(tx -> {
        assertThatThrownBy(() -> tx.execute("UPDATE items SET name = ? WHERE id = ?", "b", 1))
            .isInstanceOf(SQLException.class);
        tx.execute("UPDATE items SET name = ? WHERE id = ?", "z", 1);
      });
      assertThat(SqlRows.read(keep, "SELECT name FROM items WHERE id = 1")).containsExactly(Row.of("z"));
      assertThat(all.rows()).isEqualTo(SqlRows.read(keep, ALL));
    }
  }

  @Test
  void keyChangesAndDeletesReachTheMirrorThroughTheOldKey() throws SQLException {
    String url = "jdbc:sqlite:file:reuse_keys?mode=memory&cache=shared";
    try (Connection keep = create(url); SqliteReplica replica = SqliteReplica.open(url)) {
      LiveQuery all = all(replica);
      replica.execute("UPDATE items SET id = id + 100 WHERE id = ?", 1); // the key changes: old key 1 goes
      assertThat(all.rows()).isEqualTo(SqlRows.read(keep, ALL));
      replica.execute("UPDATE items SET qty = 7, score = 1.25"); // keys kept: no delete
      replica.execute("INSERT OR REPLACE INTO items VALUES (2, 'r', 3, X'01', 2.0)"); // replace: delete then insert
      assertThat(all.rows()).isEqualTo(SqlRows.read(keep, ALL));
      replica.transaction(tx -> {
        tx.execute("UPDATE items SET id = 1 WHERE id = 101");
        tx.execute("UPDATE items SET id = 101 WHERE id = 2");
        tx.execute("DELETE FROM items WHERE id = 1");
      });
      assertThat(all.rows()).isEqualTo(SqlRows.read(keep, ALL)).hasSize(1);
      replica.execute("DELETE FROM items");
      assertThat(all.rows()).isEmpty();
    }
  }

  @Test
  void aStatementDroppedPastTheCapacityIsPreparedAgain() throws SQLException {
    String url = "jdbc:sqlite:file:reuse_capacity?mode=memory&cache=shared";
    try (Connection keep = create(url); SqliteReplica replica = SqliteReplica.open(url)) {
      LiveQuery all = all(replica);
      long before = replica.statementsPrepared();
      String first = "UPDATE items SET qty = qty + 1 WHERE id = 1";
      replica.execute(first);
      for (int i = 0; i < SqliteReplica.STATEMENT_CACHE; i++) {
        replica.execute("UPDATE items SET qty = qty + 1 WHERE id = 2 AND " + i + " = " + i);
      }
      assertThat(replica.statementsPrepared() - before).isEqualTo(1 + SqliteReplica.STATEMENT_CACHE);
      replica.execute(first); // the least recently used: it was dropped
      assertThat(replica.statementsPrepared() - before).isEqualTo(2 + SqliteReplica.STATEMENT_CACHE);
      assertThat(SqlRows.read(keep, "SELECT qty FROM items ORDER BY id"))
          .isEqualTo(List.of(Row.of(3), Row.of(2 + SqliteReplica.STATEMENT_CACHE)));
      assertThat(all.rows()).isEqualTo(SqlRows.read(keep, ALL));
    }
  }

  @Test
  void transactionControlIsRefusedEveryTime() throws SQLException {
    String url = "jdbc:sqlite:file:reuse_control?mode=memory&cache=shared";
    try (Connection keep = create(url); SqliteReplica replica = SqliteReplica.open(url)) {
      for (int i = 0; i < 2; i++) {
        assertThatThrownBy(() -> replica.execute("BEGIN")).isInstanceOf(IllegalArgumentException.class);
      }
      assertThat(replica.statementsPrepared()).isZero();
      replica.transaction(tx -> {
        tx.execute("UPDATE items SET qty = 5 WHERE id = 1"); // runs under the replica's own savepoint
        // ...whose statement is not one of execute()'s: it is refused like any transaction control
        assertThatThrownBy(() -> tx.execute("SAVEPOINT rivulet_statement")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> tx.execute("RELEASE rivulet_statement")).isInstanceOf(IllegalArgumentException.class);
      });
      assertThat(SqlRows.read(keep, "SELECT qty FROM items WHERE id = 1")).containsExactly(Row.of(5));
    }
  }
}
