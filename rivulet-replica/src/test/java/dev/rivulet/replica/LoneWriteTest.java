package dev.rivulet.replica;

import static dev.rivulet.query.Exprs.col;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.query.KeyedBatch;
import dev.rivulet.query.LiveQuery;
import dev.rivulet.query.Query;
import dev.rivulet.query.SubscribeOptions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A commit whose only change is a write (an insert, or an update that kept its key) of an eagerly
 * mirrored table is published without a sync transaction ({@link Mirrors#writeAlone}): the path is
 * taken exactly for those commits (not for a moved key, a delete, two changes, a REPLACE, a lazy
 * table's write), also inside {@link SqliteReplica#transaction} and after a schema change made a
 * new mirror; and a replica that takes it delivers to its subscribers (keyed events of each mirror,
 * with their transaction ids) exactly what a replica with the path turned off delivers for the same
 * statements on an identical database, while the mirrors and a lazy table's live query equal the
 * tables. On H2 too, whose capture marks an update as keeping its key when each key value is equal.
 */
class LoneWriteTest {
  private static final String[] SCHEMA = {
      "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT, qty INTEGER)",
      "CREATE TABLE tags (tag TEXT PRIMARY KEY, n INTEGER) WITHOUT ROWID",
      "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)"};

  /** One side: a replica, its subscribers' log, and a live query over the lazy table. */
  private static final class Side implements AutoCloseable {
    final Connection keep;
    final SqliteReplica replica;
    final List<String> log = new ArrayList<>();
    final LiveQuery notes;

    Side(String url, boolean loneWrites) throws SQLException {
      this(url, loneWrites, false);
    }

    Side(String url, boolean loneWrites, boolean h2) throws SQLException {
      keep = DriverManager.getConnection(url);
      SqlRows.exec(keep, h2 ? new String[] {SCHEMA[0].replace("TEXT", "VARCHAR"),
          "CREATE TABLE tags (tag VARCHAR PRIMARY KEY, n INTEGER)", SCHEMA[2].replace("TEXT", "VARCHAR")} : SCHEMA);
      replica = h2 ? H2Replica.open(url, ReplicaOptions.lazy("notes")) : SqliteReplica.open(url, ReplicaOptions.lazy("notes"));
      replica.loneWrites(loneWrites);
      subscribe("items");
      subscribe("tags");
      notes = replica.liveQuery("notes", Query.from("n", replica.lazyTable("notes")).orderBy(Query.asc(col("n.id"))));
    }

    void subscribe(String table) {
      replica.table(table).subscribe(SubscribeOptions.sync(), (KeyedBatch b) -> log.add(table + " " + b));
    }

    void check() throws SQLException {
      for (String t : new String[] {"items", "tags"}) {
        assertThat(SqlRows.sorted(replica.table(t).rows())).as(t)
            .isEqualTo(SqlRows.sorted(SqlRows.read(keep, "SELECT * FROM " + t)));
      }
      assertThat(notes.rows()).isEqualTo(SqlRows.read(keep, "SELECT * FROM notes ORDER BY id"));
    }

    @Override
    public void close() throws SQLException {
      try {
        replica.close();
      } finally {
        keep.close();
      }
    }
  }

  /** A statement for both sides, and whether its commit is a lone write. */
  private record Step(String sql, boolean lone) {}

  /** A lone write that changes nothing a subscriber sees (the row written as it was). */
  private static final String UNCHANGED = "UPDATE items SET qty = qty WHERE id = 1";

  @Test
  void loneWritesTakeThePathAndPublishWhatTheGeneralPathDoes() throws SQLException {
    List<Step> steps = List.of(
        new Step("INSERT INTO items VALUES (1, 'a', 1)", true),
        new Step("UPDATE items SET qty = 2 WHERE id = 1", true),
        new Step(UNCHANGED, true), // kept and unchanged: nothing to tell
        new Step("UPDATE items SET id = 10 WHERE id = 1", false), // the key moved
        new Step("DELETE FROM items WHERE id = 10", false),
        new Step("INSERT INTO items VALUES (2, 'b', 1), (3, 'c', 2)", false), // two changes
        new Step("UPDATE items SET qty = qty + 1", false),
        new Step("UPDATE items SET qty = 5 WHERE id = 99", false), // no change: nothing published
        new Step("INSERT OR REPLACE INTO items VALUES (2, 'bb', 9)", false), // a delete, then the insert
        new Step("INSERT INTO tags VALUES ('x', 1)", true),
        new Step("UPDATE tags SET n = 2 WHERE tag = 'x'", true), // kept, a key that is no rowid
        new Step("UPDATE tags SET tag = 'X' WHERE tag = 'x'", false),
        new Step("INSERT INTO notes VALUES (1, 'n')", false), // a lazy table's
        new Step("UPDATE notes SET body = 'm' WHERE id = 1", false));
    try (Side fast = new Side("jdbc:sqlite:file:lone_fast?mode=memory&cache=shared", true);
        Side general = new Side("jdbc:sqlite:file:lone_general?mode=memory&cache=shared", false)) {
      run(steps, fast, general);

      // a schema change makes a new mirror of items: lone writes reach it, not the closed one
      for (Side s : new Side[] {fast, general}) {
        s.replica.execute("ALTER TABLE items ADD COLUMN extra TEXT");
        s.subscribe("items");
      }
      run(List.of(
          new Step("INSERT INTO items (id, name, qty) VALUES (4, 'd', 4)", true),
          new Step("UPDATE items SET extra = 'e' WHERE id = 4", true)), fast, general);

      // a transaction that captured one write takes the path too
      long before = fast.replica.loneWritesPublished();
      for (Side s : new Side[] {fast, general}) {
        s.replica.transaction(tx -> tx.execute("UPDATE items SET qty = 7 WHERE id = 4"));
        s.replica.transaction(tx -> {
          tx.execute("UPDATE items SET qty = 8 WHERE id = 4");
          tx.execute("UPDATE items SET qty = 9 WHERE id = 3");
        });
        s.check();
      }
      assertThat(fast.replica.loneWritesPublished() - before).isEqualTo(1);
      assertThat(general.replica.loneWritesPublished()).isZero();
      assertThat(fast.log).isEqualTo(general.log);
    }
  }

  /** H2's capture marks an update whose key values are all equal as kept: such commits take the path too. */
  @Test
  void h2LoneWritesTakeThePathAndPublishWhatTheGeneralPathDoes() throws SQLException {
    String settings = ";DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1";
    try (Side fast = new Side("jdbc:h2:mem:lone_h2_fast" + settings, true, true);
        Side general = new Side("jdbc:h2:mem:lone_h2_general" + settings, false, true)) {
      run(List.of(
          new Step("INSERT INTO items VALUES (1, 'a', 1)", true),
          new Step("UPDATE items SET qty = 2 WHERE id = 1", true),
          new Step("UPDATE items SET qty = 3, id = 1 WHERE id = 1", true), // the key written unchanged
          new Step("UPDATE items SET id = 10 WHERE id = 1", false),
          new Step("DELETE FROM items WHERE id = 10", false),
          new Step("INSERT INTO items VALUES (2, 'b', 1), (3, 'c', 2)", false),
          new Step("UPDATE items SET qty = qty + 1", false),
          new Step("INSERT INTO tags VALUES ('x', 1)", true),
          new Step("UPDATE tags SET n = 2 WHERE tag = 'x'", true),
          new Step("UPDATE tags SET tag = 'X' WHERE tag = 'x'", false),
          new Step("INSERT INTO notes VALUES (1, 'n')", false)), fast, general);
    }
  }

  private static void run(List<Step> steps, Side fast, Side general) throws SQLException {
    for (Step step : steps) {
      long before = fast.replica.loneWritesPublished();
      int told = fast.log.size();
      fast.replica.execute(step.sql());
      general.replica.execute(step.sql());
      assertThat(fast.replica.loneWritesPublished() - before).as(step.sql()).isEqualTo(step.lone() ? 1 : 0);
      assertThat(general.replica.loneWritesPublished()).as("the general side").isZero();
      fast.check();
      general.check();
      assertThat(fast.log).as(step.sql()).isEqualTo(general.log);
      if (step.lone() && !step.sql().equals(UNCHANGED)) {
        assertThat(fast.log).as("told: " + step.sql()).hasSize(told + 1);
      }
    }
  }
}
