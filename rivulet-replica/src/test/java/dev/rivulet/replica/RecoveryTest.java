package dev.rivulet.replica;

import static dev.rivulet.query.Exprs.col;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.Row;
import dev.rivulet.query.ChangeBatch;
import dev.rivulet.query.LiveQuery;
import dev.rivulet.query.Query;
import dev.rivulet.query.SubscribeOptions;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Closing and reopening a file database, on both backends: a reopened replica hydrates from the
 * file and goes on; a close inside a transaction rolls it back; neither a close nor a crash (the
 * connection dropped without close) leaves capture behind that would fire twice or stay forever.
 */
class RecoveryTest {
  @TempDir
  Path dir;

  private static final String SCHEMA = "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT, qty INTEGER);"
      + "CREATE TABLE log (msg TEXT);"
      + "INSERT INTO items VALUES (1, 'a', 3), (2, 'b', 0)";
  private static final String ALL = "SELECT * FROM items ORDER BY id";

  private static Query all(SqliteReplica r) {
    return Query.from("i", r.table("items")).orderBy(Query.asc(col("i.id")));
  }

  /** The capture triggers in the database as {@code c} sees them (SQLite: its own TEMP ones). */
  private static int captureTriggers(Backends b, Connection c) throws SQLException {
    String q = b == Backends.SQLITE
        ? "SELECT count(*) FROM temp.sqlite_master WHERE type = 'trigger' AND name LIKE 'rivulet%'"
        : "SELECT count(DISTINCT TRIGGER_NAME) FROM INFORMATION_SCHEMA.TRIGGERS WHERE TRIGGER_NAME LIKE 'RIVULET%'";
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(q)) {
      rs.next();
      return rs.getInt(1);
    }
  }

  /** Triggers per mirrored table: SQLite has one per operation, H2 one for all. */
  private static int perTable(Backends b) {
    return b == Backends.SQLITE ? 3 : 1;
  }

  @ParameterizedTest
  @EnumSource(Backends.class)
  void aReopenedReplicaHydratesFromTheFileAndGoesOn(Backends b) throws SQLException {
    String url = b.url(dir, "reopen");
    b.run(url, SCHEMA);
    try (SqliteReplica r = b.open(url)) {
      r.execute("INSERT INTO items VALUES (3, 'c', 7)");
      r.transaction(tx -> tx.execute("UPDATE items SET qty = qty + 1"));
      r.execute(b.ddl("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)"));
      r.execute("INSERT INTO notes VALUES (1, 'kept')");
    }
    try (SqliteReplica r = b.open(url); Connection read = b.connect(url)) {
      LiveQuery items = r.liveQuery("items", all(r));
      LiveQuery notes = r.liveQuery("notes", Query.from("n", r.table("notes")));
      assertThat(items.rows()).hasSize(3).isEqualTo(SqlRows.read(read, ALL));
      assertThat(notes.rows()).containsExactly(Row.of(1, "kept"));
      List<ChangeBatch> batches = new ArrayList<>();
      List<Exception> refused = new ArrayList<>();
      items.subscribeChanges(SubscribeOptions.sync(), batch -> {
        batches.add(batch);
        if (batch instanceof ChangeBatch.Changed) {
          try {
            r.close();
          } catch (SQLException | RuntimeException e) {
            refused.add(e);
          }
        }
      });
      r.execute("DELETE FROM items WHERE id = 1");
      r.execute("UPDATE items SET name = 'z' WHERE id = 3");
      assertThat(refused).as("a callback cannot close the replica").hasSize(2)
          .allSatisfy(e -> assertThat(e).hasMessageContaining("callback"));
      assertThat(items.rows()).isEqualTo(SqlRows.read(read, ALL));
      assertThat(batches).hasSize(3); // hydrated, then one per commit
      assertThat(captureTriggers(b, r.connection())).isEqualTo(2 * perTable(b));
    }
  }

  @ParameterizedTest
  @EnumSource(Backends.class)
  void aCloseInsideATransactionRollsItBackAndLeavesNoCapture(Backends b) throws SQLException {
    String url = b.url(dir, "closeintx");
    b.run(url, SCHEMA);
    try (Connection read = b.connect(url)) {
      SqliteReplica r = b.open(url);
      LiveQuery items = r.liveQuery("items", all(r));
      List<Row> before = items.rows();
      assertThatThrownBy(() -> r.transaction(tx -> {
        tx.execute("INSERT INTO items VALUES (9, 'gone', 1)");
        tx.close();
      })).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed inside the transaction");
      assertThat(SqlRows.read(read, ALL)).as("rolled back").isEqualTo(before);
      assertThat(items.rows()).as("nothing published").isEqualTo(before);
      assertThatThrownBy(() -> r.execute("DELETE FROM items")).hasMessageContaining("closed");
      assertThatThrownBy(() -> r.transaction(tx -> {})).hasMessageContaining("closed");
      r.close(); // twice: nothing
      if (b == Backends.H2) {
        assertThat(captureTriggers(b, read)).as("no trigger left in the schema").isZero();
      }
      try (SqliteReplica again = b.open(url)) {
        assertThat(captureTriggers(b, again.connection())).isEqualTo(perTable(b));
        LiveQuery q = again.liveQuery("items", all(again));
        again.execute("INSERT INTO items VALUES (4, 'd', 4)");
        assertThat(q.rows()).isEqualTo(SqlRows.read(read, ALL));
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Backends.class)
  void aCloseAfterAnAbortedTransactionLeavesNothingBehind(Backends b) throws SQLException {
    String url = b.url(dir, "aborted");
    b.run(url, SCHEMA);
    try (Connection read = b.connect(url)) {
      try (SqliteReplica r = b.open(url)) {
        assertThatThrownBy(() -> r.transaction(tx -> {
          tx.execute("UPDATE items SET qty = 100");
          throw new SQLException("abort");
        })).hasMessage("abort");
      }
      if (b == Backends.H2) {
        assertThat(captureTriggers(b, read)).isZero();
      }
      try (Statement st = read.createStatement()) {
        st.execute("INSERT INTO items VALUES (5, 'plain', 0)"); // no capture left to fire
      }
      assertThat(SqlRows.read(read, "SELECT qty FROM items ORDER BY id")).containsExactly(Row.of(3), Row.of(0),
          Row.of(0));
    }
  }

  @ParameterizedTest
  @EnumSource(Backends.class)
  void aReplicaReopenedAfterACrashReplacesTheLeftCaptureAndPublishesEachChangeOnce(Backends b) throws SQLException {
    String url = b.url(dir, "crash");
    b.run(url, SCHEMA);
    SqliteReplica crashed = b.open(url);
    crashed.execute("INSERT INTO items VALUES (3, 'c', 1)");
    crashed.connection().close(); // no close(): capture is not uninstalled
    if (b == Backends.H2) {
      try (Connection c = b.connect(url)) {
        assertThat(captureTriggers(b, c)).as("the crashed replica's trigger stays in the file").isEqualTo(1);
      }
    }
    try (SqliteReplica r = b.open(url); Connection read = b.connect(url)) {
      assertThat(captureTriggers(b, r.connection())).as("only the new replica's capture").isEqualTo(perTable(b));
      LiveQuery items = r.liveQuery("items", all(r));
      assertThat(items.rows()).isEqualTo(SqlRows.read(read, ALL));
      List<ChangeBatch> batches = new ArrayList<>();
      items.subscribeChanges(SubscribeOptions.sync(), batches::add);
      r.execute("UPDATE items SET qty = qty + 1 WHERE id = 3");
      assertThat(batches).hasSize(2);
      assertThat(((ChangeBatch.Changed) batches.get(1)).changes()).as("captured once").hasSize(1);
      assertThat(items.rows()).isEqualTo(SqlRows.read(read, ALL));
    }
  }
}
