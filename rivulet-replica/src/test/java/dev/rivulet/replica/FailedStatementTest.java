package dev.rivulet.replica;

import static dev.rivulet.query.Exprs.col;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.Row;
import dev.rivulet.query.ChangeBatch;
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
 * A SQLite statement that fails part-way outside a transaction: under FAIL conflict resolution
 * ({@code OR FAIL}, a constraint's {@code ON CONFLICT FAIL}, a trigger's {@code RAISE(FAIL)})
 * SQLite keeps and commits the rows it changed before failing, and the replica publishes exactly
 * those ({@link FailedStatement}), keys moved included, to eager mirrors and lazy tables alike;
 * under ABORT (the default) nothing stays and nothing is published. Inside a transaction the
 * statement's savepoint undoes it whatever its conflict resolution: only the transaction's other
 * statements are published.
 */
class FailedStatementTest {
  private static final String T = "SELECT * FROM t ORDER BY id";

  private static Connection create(String url) throws SQLException {
    Connection c = DriverManager.getConnection(url);
    SqlRows.exec(c,
        "CREATE TABLE t (id INTEGER PRIMARY KEY, u INTEGER UNIQUE)",
        "CREATE TABLE f (id INTEGER PRIMARY KEY, u INTEGER UNIQUE ON CONFLICT FAIL)",
        "CREATE TABLE r (id INTEGER PRIMARY KEY, v TEXT)",
        "CREATE TABLE lz (id INTEGER PRIMARY KEY, u INTEGER UNIQUE)",
        "CREATE TRIGGER stop AFTER INSERT ON r WHEN NEW.id = 3 BEGIN SELECT RAISE(FAIL, 'no 3'); END",
        "INSERT INTO t VALUES (1, 10), (2, 20), (3, 30), (4, 40)",
        "INSERT INTO lz VALUES (1, 10), (2, 20), (3, 30)");
    return c;
  }

  /** The change batches {@code q}'s subscriber hears after its initial state. */
  private static List<ChangeBatch> changes(LiveQuery q) {
    List<ChangeBatch> out = new ArrayList<>();
    q.subscribeChanges(SubscribeOptions.sync(), b -> {
      if (b instanceof ChangeBatch.Changed) {
        out.add(b);
      }
    });
    return out;
  }

  @Test
  void whatAFailedStatementLeftCommittedIsPublishedAndNothingElse() throws SQLException {
    String url = "jdbc:sqlite:file:failed_statement?mode=memory&cache=shared";
    try (Connection keep = create(url); SqliteReplica replica = SqliteReplica.open(url, ReplicaOptions.lazy("lz"))) {
      LiveQuery t = replica.liveQuery("t", Query.from("t", replica.table("t")).orderBy(Query.asc(col("t.id"))));
      LiveQuery lz = replica.liveQuery("lz", Query.from("l", replica.lazyTable("lz")).orderBy(Query.asc(col("l.id"))));
      List<ChangeBatch> heard = changes(t);

      // OR FAIL: id 2 takes u = 50, id 3 collides with it; id 2's change is committed
      assertThatThrownBy(() -> replica.execute("UPDATE OR FAIL t SET u = 50 WHERE id >= 2"))
          .isInstanceOf(SQLException.class);
      assertThat(SqlRows.read(keep, "SELECT u FROM t WHERE id = 2")).containsExactly(Row.of(50L));
      assertThat(t.rows()).isEqualTo(SqlRows.read(keep, T));
      assertThat(heard).hasSize(1);
      assertThat(((ChangeBatch.Changed) heard.get(0)).changes()).hasSize(1);

      // ABORT (the default): the same collision undoes the statement; nothing is published
      long tx = replica.rivulet().lastTxId();
      assertThatThrownBy(() -> replica.execute("UPDATE t SET u = 60 WHERE id >= 3"))
          .isInstanceOf(SQLException.class);
      assertThat(replica.rivulet().lastTxId()).isEqualTo(tx);
      assertThat(heard).hasSize(1);
      assertThat(t.rows()).isEqualTo(SqlRows.read(keep, T));

      // OR FAIL moving keys (id + 4): 3 collides with 7 (written around the replica, so the mirror
      // is compared on the other keys); what moved before is committed
      SqlRows.exec(keep, "INSERT INTO t VALUES (7, 70)");
      assertThatThrownBy(() -> replica.execute("UPDATE OR FAIL t SET id = id + 4 WHERE id <= 4"))
          .isInstanceOf(SQLException.class);
      assertThat(SqlRows.read(keep, "SELECT id FROM t WHERE id IN (5, 6)")).isNotEmpty();
      assertThat(t.rows().stream().filter(row -> row.getLong(0) != 7).toList())
          .isEqualTo(SqlRows.read(keep, "SELECT * FROM t WHERE id <> 7 ORDER BY id"));

      // a constraint's ON CONFLICT FAIL: rows 1 and 2 stay, row 3 collides
      assertThatThrownBy(() -> replica.execute("INSERT INTO f VALUES (1, 1), (2, 2), (3, 1), (4, 4)"))
          .isInstanceOf(SQLException.class);
      assertThat(SqlRows.read(keep, "SELECT id FROM f")).hasSize(2);
      assertThat(SqlRows.sorted(replica.table("f").rows())).isEqualTo(SqlRows.read(keep, "SELECT * FROM f ORDER BY id"));

      // a trigger's RAISE(FAIL): what came before stays
      assertThatThrownBy(() -> replica.execute("INSERT INTO r VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd')"))
          .isInstanceOf(SQLException.class);
      assertThat(SqlRows.read(keep, "SELECT id FROM r")).isNotEmpty();
      assertThat(SqlRows.sorted(replica.table("r").rows())).isEqualTo(SqlRows.read(keep, "SELECT * FROM r ORDER BY id"));

      // a lazy table under OR FAIL
      assertThatThrownBy(() -> replica.execute("UPDATE OR FAIL lz SET u = 25 WHERE id >= 1"))
          .isInstanceOf(SQLException.class);
      assertThat(SqlRows.read(keep, "SELECT u FROM lz WHERE id = 1")).containsExactly(Row.of(25L));
      assertThat(lz.rows()).isEqualTo(SqlRows.read(keep, "SELECT * FROM lz ORDER BY id"));
    }
  }

  @Test
  void insideATransactionAFailedStatementDropsExactlyItsCapturedRows() throws SQLException {
    String url = "jdbc:sqlite:file:failed_statement_tx?mode=memory&cache=shared";
    try (Connection keep = create(url); SqliteReplica replica = SqliteReplica.open(url)) {
      LiveQuery t = replica.liveQuery("t", Query.from("t", replica.table("t")).orderBy(Query.asc(col("t.id"))));
      List<ChangeBatch> heard = changes(t);
      replica.transaction(tx -> {
        tx.execute("UPDATE t SET u = 11 WHERE id = 1");
        // changes id 2 and 3 before id 4 collides with id 1: SQLite would keep them, the savepoint does not
        assertThatThrownBy(() -> tx.execute("UPDATE OR FAIL t SET u = CASE id WHEN 4 THEN 11 ELSE u + 5 END"
            + " WHERE id >= 2")).isInstanceOf(SQLException.class);
        assertThatThrownBy(() -> tx.execute("UPDATE t SET u = CASE id WHEN 4 THEN 11 ELSE u + 5 END WHERE id >= 2"))
            .isInstanceOf(SQLException.class);
      });
      assertThat(SqlRows.read(keep, T)).containsExactly(Row.of(1L, 11L), Row.of(2L, 20L), Row.of(3L, 30L),
          Row.of(4L, 40L));
      assertThat(t.rows()).isEqualTo(SqlRows.read(keep, T));
      assertThat(heard).hasSize(1);
      assertThat(((ChangeBatch.Changed) heard.get(0)).changes()).as("id 1's change only").hasSize(1);
    }
  }
}
