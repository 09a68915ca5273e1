package dev.rivulet.replica;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.lit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.Row;
import dev.rivulet.query.ChangeBatch;
import dev.rivulet.query.LiveQuery;
import dev.rivulet.query.Query;
import dev.rivulet.query.SubscribeOptions;
import dev.rivulet.testkit.Seeds;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The replica against SQLite itself: after every commit of random SQL (multi-row updates and
 * deletes, upserts, cascades, failing statements, rolled-back transactions), each live query
 * equals the same query run by SQLite, and each change batch is one committed transaction.
 */
class SqliteReplicaTest {
  private static final String SCHEMA = "CREATE TABLE issues (id INTEGER PRIMARY KEY, project INTEGER,"
      + " status TEXT NOT NULL, priority INTEGER, title TEXT UNIQUE);"
      + "CREATE TABLE comments (id INTEGER PRIMARY KEY, issue INTEGER REFERENCES issues(id) ON DELETE CASCADE,"
      + " body TEXT)";

  private static String url(long seed) {
    return "jdbc:sqlite:file:replica" + Long.toUnsignedString(seed) + "?mode=memory&cache=shared";
  }

  private static Connection create(String url) throws SQLException {
    Connection c = DriverManager.getConnection(url);
    try (Statement st = c.createStatement()) {
      for (String s : SCHEMA.split(";")) {
        st.execute(s);
      }
      st.execute("INSERT INTO issues VALUES (1, 1, 'open', 5, 'a'), (2, 1, 'closed', 7, 'b'), (3, 2, 'open', 9, NULL)");
      st.execute("INSERT INTO comments VALUES (10, 1, 'x'), (11, 3, 'y')");
    }
    return c;
  }

  private static List<Row> sql(Connection c, String query) throws SQLException {
    List<Row> out = new ArrayList<>();
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(query)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        Object[] v = new Object[n];
        for (int i = 0; i < n; i++) {
          v[i] = rs.getObject(i + 1);
        }
        out.add(Row.of(v));
      }
    }
    return out;
  }

  private static Query openByPriority(SqliteReplica r) {
    return Query.from("i", r.table("issues")).where(eq(col("i.status"), lit("open")))
        .select(Query.as("id", col("i.id")), Query.as("priority", col("i.priority")))
        .orderBy(Query.desc(col("i.priority")), Query.asc(col("i.id"))).limit(5);
  }

  private static final String OPEN_BY_PRIORITY = "SELECT id, priority FROM issues WHERE status = 'open'"
      + " ORDER BY priority DESC NULLS LAST, id LIMIT 5";

  @Test
  void liveQueriesEqualSqliteAfterEveryCommitOfRandomSql() throws SQLException {
    for (long seed : Seeds.runs(8)) {
      Random r = new Random(seed);
      try (Connection keep = create(url(seed)); SqliteReplica replica = SqliteReplica.open(url(seed))) {
        LiveQuery top = replica.liveQuery("top", openByPriority(replica));
        LiveQuery comments = replica.liveQuery("comments", Query.from("c", replica.table("comments"))
            .orderBy(Query.asc(col("c.id"))));
        List<Long> txIds = new ArrayList<>();
        top.subscribeChanges(SubscribeOptions.sync(), b -> {
          if (b instanceof ChangeBatch.Changed ch) {
            txIds.add(ch.txId());
          }
        });
        for (int step = 0; step < 60; step++) {
          String at = "seed " + seed + " (RIVULET_SEED=" + seed + ") step " + step;
          try {
            if (r.nextInt(4) == 0) {
              boolean fail = r.nextInt(3) == 0;
              replica.transaction(tx -> {
                for (int k = 1 + r.nextInt(3); k > 0; k--) {
                  statement(tx, r);
                }
                if (fail) {
                  throw new SQLException("rolled back on purpose");
                }
              });
            } else {
              statement(replica, r);
            }
          } catch (SQLException expected) {
            // a constraint failure or a deliberate rollback: nothing may be published
          }
          assertThat(top.rows()).as(at).isEqualTo(sql(keep, OPEN_BY_PRIORITY));
          assertThat(comments.rows()).as(at).isEqualTo(sql(keep, "SELECT * FROM comments ORDER BY id"));
        }
        assertThat(txIds).as("one batch per committed transaction, in order").isSorted().doesNotHaveDuplicates();
      }
    }
  }

  /** One random statement; some fail on the UNIQUE title or the foreign key. */
  private static void statement(SqliteReplica r, Random rnd) throws SQLException {
    int id = 1 + rnd.nextInt(12);
    switch (rnd.nextInt(7)) {
      case 0 -> r.execute("INSERT INTO issues VALUES (?, ?, ?, ?, ?)", id, rnd.nextInt(3),
          rnd.nextBoolean() ? "open" : "closed", rnd.nextInt(10), "t" + rnd.nextInt(6));
      case 1 -> r.execute("UPDATE issues SET priority = priority + 1 WHERE project = ?", rnd.nextInt(3));
      case 2 -> r.execute("UPDATE issues SET title = 't' || (id % 3) WHERE id > ?", rnd.nextInt(12)); // may clash
      case 3 -> r.execute("DELETE FROM issues WHERE priority < ?", rnd.nextInt(4)); // cascades to comments
      case 4 -> r.execute("INSERT INTO issues VALUES (?, 0, 'open', ?, NULL) ON CONFLICT(id) DO UPDATE SET"
          + " status = 'open', priority = excluded.priority", id, rnd.nextInt(10));
      case 5 -> r.execute("INSERT INTO comments VALUES (?, ?, 'c')", 100 + rnd.nextInt(30), id); // FK may fail
      default -> r.execute("UPDATE issues SET id = id + 20 WHERE id = ?", id); // re-key (cascade keeps comments' issue)
    }
  }

  @Test
  void aCallbackCannotWriteThroughTheReplicaAndUnknownTablesAreNamed() throws SQLException {
    try (Connection keep = create(url(1)); SqliteReplica replica = SqliteReplica.open(url(1))) {
      List<Throwable> refused = new ArrayList<>();
      replica.rivulet().onError((source, e) -> refused.add(e));
      LiveQuery top = replica.liveQuery("top", openByPriority(replica));
      top.subscribe(SubscribeOptions.sync(), b -> {
        try {
          replica.execute("DELETE FROM issues");
        } catch (SQLException e) {
          throw new AssertionError(e);
        }
      });
      replica.execute("UPDATE issues SET priority = 20 WHERE id = 1");
      assertThat(refused).singleElement().satisfies(e -> assertThat(e).hasMessageContaining("from a callback"));
      assertThat(sql(keep, "SELECT count(*) FROM issues")).containsExactly(Row.of(3));
      assertThatThrownBy(() -> replica.table("nope")).hasMessageContaining("no table 'nope'");
    }
  }
}
