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
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The replica against the database itself, for each backend (SQLite, H2): after every commit of
 * random SQL (multi-row updates and deletes, upserts, cascades, failing statements, rolled-back
 * savepoints and transactions), each live query equals the same query run by the database, and each change batch
 * is one committed transaction.
 */
class ReplicaContractTest {
  private static List<Row> sql(Connection c, String query) throws SQLException {
    return SqlRows.read(c, query);
  }

  private static Query openByPriority(SqliteReplica r) {
    return Query.from("i", r.table("issues")).where(eq(col("i.status"), lit("open")))
        .select(Query.as("id", col("i.id")), Query.as("priority", col("i.priority")))
        .orderBy(Query.desc(col("i.priority")), Query.asc(col("i.id"))).limit(5);
  }

  private static final String OPEN_BY_PRIORITY = "SELECT id, priority FROM issues WHERE status = 'open'"
      + " ORDER BY priority DESC NULLS LAST, id LIMIT 5";

  @ParameterizedTest
  @EnumSource(ReplicaDialect.class)
  void liveQueriesEqualTheDatabaseAfterEveryCommitOfRandomSql(ReplicaDialect d) throws SQLException {
    for (long seed : Seeds.runs(8)) {
      Random r = new Random(seed);
      try (Connection keep = d.create(seed); SqliteReplica replica = d.open(seed)) {
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
          String at = d + " seed " + seed + " (RIVULET_SEED=" + seed + ") step " + step;
          try {
            if (r.nextInt(4) == 0) {
              boolean fail = r.nextInt(3) == 0;
              replica.transaction(tx -> {
                for (int k = 1 + r.nextInt(3); k > 0; k--) {
                  if (r.nextInt(3) == 0) {
                    boolean undo = r.nextBoolean();
                    try {
                      tx.savepoint(sp -> {
                        statement(d, sp, r);
                        statement(d, sp, r);
                        if (undo) {
                          throw new SQLException("savepoint rolled back on purpose");
                        }
                      });
                    } catch (SQLException undone) {
                      // the savepoint's work is undone; the transaction goes on
                    }
                  } else if (r.nextBoolean()) {
                    try {
                      statement(d, tx, r);
                    } catch (SQLException failed) {
                      // the failed statement is undone; the transaction goes on and may commit
                    }
                  } else {
                    statement(d, tx, r);
                  }
                }
                if (fail) {
                  throw new SQLException("rolled back on purpose");
                }
              });
            } else {
              statement(d, replica, r);
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
  private static void statement(ReplicaDialect d, SqliteReplica r, Random rnd) throws SQLException {
    int id = 1 + rnd.nextInt(12);
    switch (rnd.nextInt(7)) {
      case 0 -> r.execute("INSERT INTO issues VALUES (?, ?, ?, ?, ?)", id, rnd.nextInt(3),
          rnd.nextBoolean() ? "open" : "closed", rnd.nextInt(10), "t" + rnd.nextInt(6));
      case 1 -> r.execute("UPDATE issues SET priority = priority + 1 WHERE project = ?", rnd.nextInt(3));
      case 2 -> r.execute("UPDATE issues SET title = 't' || (id % 3) WHERE id > ?", rnd.nextInt(12)); // may clash
      case 3 -> r.execute("DELETE FROM issues WHERE priority < ?", rnd.nextInt(4)); // cascades to comments
      case 4 -> r.execute(d.upsert, id, rnd.nextInt(10));
      case 5 -> r.execute("INSERT INTO comments VALUES (?, ?, 'c')", 100 + rnd.nextInt(30), id); // FK may fail
      default -> r.execute("UPDATE issues SET id = id + 20 WHERE id = ?", id); // re-key (cascade keeps comments' issue)
    }
  }

  @ParameterizedTest
  @EnumSource(ReplicaDialect.class)
  void aCallbackCannotWriteThroughTheReplicaAndUnknownTablesAreNamed(ReplicaDialect d) throws SQLException {
    try (Connection keep = d.create(1); SqliteReplica replica = d.open(1)) {
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

  @ParameterizedTest
  @EnumSource(ReplicaDialect.class)
  void aRolledBackSavepointPublishesOnlyTheRestOfItsTransaction(ReplicaDialect d) throws SQLException {
    try (Connection keep = d.create(2); SqliteReplica replica = d.open(2)) {
      LiveQuery top = replica.liveQuery("top", openByPriority(replica));
      List<ChangeBatch> batches = new ArrayList<>();
      top.subscribeChanges(SubscribeOptions.sync(), batches::add);
      int before = batches.size();
      replica.transaction(tx -> {
        tx.execute("UPDATE issues SET priority = 1 WHERE id = 1");
        assertThatThrownBy(() -> tx.savepoint(sp -> {
          sp.execute("UPDATE issues SET priority = 2 WHERE id = 3");
          sp.execute("INSERT INTO issues VALUES (1, 0, 'open', 0, NULL)"); // duplicate key: fails
        })).isInstanceOf(SQLException.class);
        tx.execute("UPDATE issues SET priority = 3 WHERE id = 2");
      });
      assertThat(batches).as("one batch for the transaction").hasSize(before + 1);
      assertThat(top.rows()).isEqualTo(sql(keep, OPEN_BY_PRIORITY)).containsExactly(Row.of(3, 9), Row.of(1, 1));
      assertThatThrownBy(() -> replica.execute("SAVEPOINT x")).hasMessageContaining("use transaction()");
      assertThatThrownBy(() -> replica.execute(" rollback")).isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> replica.savepoint(sp -> { })).hasMessageContaining("needs a running transaction");
    }
  }
}
