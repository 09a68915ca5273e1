package dev.rivulet.replica;

import static dev.rivulet.query.Exprs.col;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.SchemaException;
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
 * recursive triggers on), so the mirror loses them too. An update that keeps the key passes no old
 * key (the trigger's {@code CASE}): a key its collation calls equal but whose bytes changed ('a' to
 * 'A' under NOCASE), or one part of a composite key changed, still counts as a changed key. Text
 * (read as its bytes) and blobs, empty ones too, reach the mirror in UTF-8 and UTF-16 databases.
 * A commit whose rows the mirror refuses is dropped from the capture, not published again later.
 */
class SqliteCaptureCornersTest {
  @Test
  void tablesWhoseNamesDifferOnlyInPunctuationAreCapturedApart() throws SQLException {
    String url = "jdbc:sqlite:file:trigger-names?mode=memory&cache=shared";
    try (Connection keep = DriverManager.getConnection(url)) {
      SqlRows.exec(keep,
          "CREATE TABLE \"a-b\" (id INTEGER PRIMARY KEY, v TEXT)",
          "CREATE TABLE a_b (id INTEGER PRIMARY KEY, v TEXT)");
      try (SqliteReplica replica = SqliteReplica.open(url)) {
        replica.execute("INSERT INTO \"a-b\" VALUES (1, 'dash')");
        replica.execute("INSERT INTO a_b VALUES (2, 'underscore')");
        assertThat(replica.table("a-b").rows()).isEqualTo(SqlRows.read(keep, "SELECT * FROM \"a-b\""));
        assertThat(replica.table("a_b").rows()).containsExactlyInAnyOrderElementsOf(SqlRows.read(keep, "SELECT * FROM a_b"));
      }
    }
  }

  @Test
  void anUpdateThatChangesTheKeysBytesOrOnePartOfItIsARekey() throws SQLException {
    String url = "jdbc:sqlite:file:kept-keys?mode=memory&cache=shared";
    String codes = "SELECT * FROM codes ORDER BY code";
    String pairs = "SELECT * FROM pairs ORDER BY a, b";
    try (Connection keep = DriverManager.getConnection(url)) {
      SqlRows.exec(keep,
          "CREATE TABLE codes (code TEXT COLLATE NOCASE PRIMARY KEY, n INTEGER) WITHOUT ROWID",
          "CREATE TABLE pairs (a INTEGER, b TEXT, n INTEGER, PRIMARY KEY (a, b))",
          "INSERT INTO codes VALUES ('a', 1), ('b', 2)",
          "INSERT INTO pairs VALUES (1, 'x', 1), (2, 'y', 2)");
      try (SqliteReplica replica = SqliteReplica.open(url)) {
        replica.execute("UPDATE codes SET code = 'A' WHERE code = 'a'"); // NOCASE-equal, another key
        replica.execute("UPDATE codes SET n = 5 WHERE code = 'b'"); // the key kept
        assertThat(replica.table("codes").rows()).containsExactlyInAnyOrderElementsOf(SqlRows.read(keep, codes)).hasSize(2); // a table: no order
        replica.execute("UPDATE pairs SET b = 'z' WHERE a = 1"); // one part of the key
        replica.execute("UPDATE pairs SET n = 9, a = a WHERE a = 2"); // the key kept (written unchanged)
        replica.transaction(tx -> tx.execute("UPDATE pairs SET a = a + 10")); // every key changed
        assertThat(replica.table("pairs").rows()).containsExactlyInAnyOrderElementsOf(SqlRows.read(keep, pairs)).hasSize(2);
      }
    }
  }

  @Test
  void textAndBlobsReachTheMirrorWhateverTheDatabasesEncoding() throws SQLException {
    for (String encoding : new String[] {"UTF-8", "UTF-16le", "UTF-16be"}) {
      String url = "jdbc:sqlite:file:encoding-" + encoding + "?mode=memory&cache=shared";
      try (Connection keep = DriverManager.getConnection(url)) {
        try (Statement st = keep.createStatement()) {
          st.execute("PRAGMA encoding = '" + encoding + "'");
          st.execute("CREATE TABLE vals (id INTEGER PRIMARY KEY, v)");
        }
        try (SqliteReplica replica = SqliteReplica.open(url)) {
          replica.execute("INSERT INTO vals VALUES (1, ?), (2, ''), (3, x''), (4, x'00ff'), (5, ?)",
              "h\u00e9llo \ud83d\ude00", "a\u0000b");
          replica.execute("UPDATE vals SET v = v || '!' WHERE id = 1");
          assertThat(replica.table("vals").rows()).as(encoding).containsExactly(
              Row.of(1L, "h\u00e9llo \ud83d\ude00!"), Row.of(2L, ""), Row.of(3L, new byte[0]),
              Row.of(4L, new byte[] {0, (byte) 0xff}), Row.of(5L, "a\u0000b"));
        }
      }
    }
  }

  private static final String ALL = "SELECT * FROM items ORDER BY id";

  @Test
  void rowsReplacedThroughAUniqueColumnLeaveTheMirror() throws SQLException {
    String url = "jdbc:sqlite:file:replace-conflict?mode=memory&cache=shared";
    try (Connection keep = DriverManager.getConnection(url)) {
      SqlRows.exec(keep,
          "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT UNIQUE, qty INTEGER)",
          "INSERT INTO items VALUES (1, 'a', 1), (2, 'b', 2), (3, 'c', 3)");
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

  @Test
  void aCommitTheMirrorRefusesIsNotPublishedWithTheNextOne() throws SQLException {
    String url = "jdbc:sqlite:file:refused?mode=memory&cache=shared";
    try (Connection keep = DriverManager.getConnection(url)) {
      SqlRows.exec(keep, "CREATE TABLE n (id INTEGER PRIMARY KEY, q INTEGER)");
      try (SqliteReplica replica = SqliteReplica.open(url)) {
        assertThatThrownBy(() -> replica.execute("INSERT INTO n VALUES (1, 'text')"))
            .isInstanceOf(SchemaException.class).hasMessageContaining("'q'");
        replica.execute("INSERT INTO n VALUES (2, 5)");
        assertThat(replica.table("n").rows()).containsExactly(Row.of(2L, 5L));
      }
    }
  }
}
