package dev.rivulet.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.Row;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SQLite's transaction control through SQL ({@link Backend#sqlTransactionControl}): sqlite-jdbc is
 * told autocommit is off (so it adds no empty BEGIN and COMMIT after each statement), yet a
 * statement outside a transaction is committed when {@code execute} returns, and a transaction's
 * statements stay invisible to other connections until it commits, and are gone when it rolls back.
 */
class SqliteTransactionControlTest {
  @TempDir
  Path dir;

  private static final String ALL = "SELECT * FROM items ORDER BY id";

  @Test
  void theDriverIsToldAutocommitIsOffWhileEachStatementCommitsByItself() throws SQLException {
    String url = Backends.SQLITE.url(dir, "auto");
    Backends.SQLITE.run(url, "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT)");
    try (SqliteReplica r = SqliteReplica.open(url); Connection reader = Backends.SQLITE.connect(url)) {
      assertThat(r.connection().getAutoCommit()).as("the path taken: the driver believes autocommit is off").isFalse();
      r.execute("INSERT INTO items VALUES (?, ?)", 1, "a");
      assertThat(SqlRows.read(reader, ALL)).as("committed when execute returned").containsExactly(Row.of(1, "a"));
      r.execute("UPDATE items SET name = ? WHERE id = ?", "b", 1);
      assertThat(SqlRows.read(reader, ALL)).containsExactly(Row.of(1, "b"));
    }
    try (Connection after = Backends.SQLITE.connect(url)) {
      assertThat(SqlRows.read(after, ALL)).as("durable after close").containsExactly(Row.of(1, "b"));
    }
  }

  @Test
  void aTransactionIsInvisibleUntilItCommitsAndGoneWhenItRollsBack() throws SQLException {
    String url = Backends.SQLITE.url(dir, "tx");
    Backends.SQLITE.run(url, "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT)");
    try (SqliteReplica r = SqliteReplica.open(url); Connection reader = Backends.SQLITE.connect(url)) {
      List<List<Row>> seenInside = new ArrayList<>();
      r.transaction(tx -> {
        tx.execute("INSERT INTO items VALUES (?, ?)", 1, "a");
        seenInside.add(SqlRows.read(reader, ALL));
        tx.execute("INSERT INTO items VALUES (?, ?)", 2, "b");
      });
      assertThat(seenInside).as("a reader inside the transaction").containsExactly(List.of());
      assertThat(SqlRows.read(reader, ALL)).containsExactly(Row.of(1, "a"), Row.of(2, "b"));

      assertThatThrownBy(() -> r.transaction(tx -> {
        tx.execute("DELETE FROM items WHERE id = ?", 1);
        throw new IllegalStateException("undo");
      })).hasMessage("undo");
      assertThat(SqlRows.read(reader, ALL)).containsExactly(Row.of(1, "a"), Row.of(2, "b"));
      assertThat(r.table("items").rows()).containsExactlyInAnyOrder(Row.of(1L, "a"), Row.of(2L, "b"));

      r.execute("DELETE FROM items WHERE id = ?", 2); // the rollback ended the transaction: this commits alone
      assertThat(SqlRows.read(reader, ALL)).containsExactly(Row.of(1, "a"));
    }
  }

  @Test
  void aCommitThatFailsRollsBackAndTheNextStatementCommitsAlone() throws SQLException {
    String url = Backends.SQLITE.url(dir, "fk");
    Backends.SQLITE.run(url, "CREATE TABLE parents (id INTEGER PRIMARY KEY)");
    Backends.SQLITE.run(url, "CREATE TABLE kids (id INTEGER PRIMARY KEY,"
        + " parent INTEGER REFERENCES parents(id) DEFERRABLE INITIALLY DEFERRED)");
    try (SqliteReplica r = SqliteReplica.open(url); Connection reader = Backends.SQLITE.connect(url)) {
      assertThatThrownBy(() -> r.transaction(tx -> tx.execute("INSERT INTO kids VALUES (?, ?)", 1, 9)))
          .isInstanceOf(SQLException.class).hasMessageContaining("FOREIGN KEY");
      assertThat(r.table("kids").rows()).isEmpty();
      r.execute("INSERT INTO parents VALUES (?)", 9);
      assertThat(SqlRows.read(reader, "SELECT * FROM parents")).containsExactly(Row.of(9));
      assertThat(SqlRows.read(reader, "SELECT * FROM kids")).isEmpty();
    }
  }
}
