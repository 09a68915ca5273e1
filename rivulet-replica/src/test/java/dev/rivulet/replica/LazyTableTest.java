package dev.rivulet.replica;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.lit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.Row;
import dev.rivulet.query.ChangeBatch;
import dev.rivulet.query.LazyCollection;
import dev.rivulet.query.LiveQuery;
import dev.rivulet.query.Query;
import dev.rivulet.query.Status;
import dev.rivulet.query.SubscribeOptions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Lazy tables ({@link ReplicaOptions#lazy}): an include over a lazy table reads from the database
 * only the buckets its parents demand (counted per statement and row), follows the replica's
 * writes, releases a bucket no parent needs, and loads on a loader thread when demand arises
 * outside the replica.
 */
class LazyTableTest {
  private static final int ISSUES = 40;
  private static final int PER_ISSUE = 10;

  /** The schema's database with only {@code ISSUES} issues (ids 100.., the first three open) of {@code PER_ISSUE} comments each. */
  private static Connection bigDatabase(ReplicaDialect d, String url) throws SQLException {
    Connection keep = d.create(url);
    SqlRows.exec(keep,
        "DELETE FROM comments",
        "DELETE FROM issues");
    try (PreparedStatement issue = keep.prepareStatement("INSERT INTO issues VALUES (?, 1, ?, ?, NULL)");
        PreparedStatement comment = keep.prepareStatement("INSERT INTO comments VALUES (?, ?, ?)")) {
      for (int i = 0; i < ISSUES; i++) {
        issue.setInt(1, 100 + i);
        issue.setString(2, i < 3 ? "open" : "closed");
        issue.setInt(3, i % 7);
        issue.executeUpdate();
        for (int k = 0; k < PER_ISSUE; k++) {
          comment.setInt(1, 1000 + i * PER_ISSUE + k);
          comment.setInt(2, 100 + i);
          comment.setString(3, k % 4 == 0 ? null : "b" + (k % 3));
          comment.executeUpdate();
        }
      }
    }
    return keep;
  }

  private static Query board(SqliteReplica r) {
    return Query.from("i", r.table("issues")).where(eq(col("i.status"), lit("open")))
        .select(Query.as("id", col("i.id")), Query.includeArray("latest", Query.from("c", r.lazyTable("comments"))
            .where(eq(col("c.issue"), col("i.id")))
            .select(Query.as("id", col("c.id")), Query.as("body", col("c.body")))
            .orderBy(Query.desc(col("c.id"))).limit(2)))
        .orderBy(Query.asc(col("i.id")));
  }

  private static final String BOARD = "SELECT i.id FROM issues i WHERE i.status = 'open' ORDER BY i.id";
  private static final LiveCase.IncludeSql LATEST = new LiveCase.IncludeSql(0,
      "SELECT c.id, c.body FROM comments c WHERE c.issue = ? ORDER BY c.id DESC LIMIT 2", LiveCase.Mode.ARRAY);

  private static List<Object> answer(Connection keep) throws SQLException {
    return LiveCase.nested(BOARD, List.of(LATEST)).rows(keep);
  }

  @ParameterizedTest
  @EnumSource(ReplicaDialect.class)
  void anIncludeReadsOnlyTheDemandedBucketsAndFollowsWrites(ReplicaDialect d) throws SQLException {
    String url = d.url("lazy-buckets");
    try (Connection keep = bigDatabase(d, url);
        SqliteReplica replica = d.open(url, ReplicaOptions.lazy("comments"))) {
      SqlLazySource source = replica.lazySource("comments");
      LazyCollection comments = replica.lazyTable("comments");
      assertThat(source.rowsRead()).as("nothing read before a query demands").isZero();
      LiveQuery board = replica.liveQuery("board", board(replica));
      assertThat(board.status()).isEqualTo(Status.READY);
      assertThat(PlainValues.rows(board.rows())).isEqualTo(answer(keep)).hasSize(3);
      // three buckets of 10 rows (or their first rows, when the request carries the limit), not 400 + 2 rows
      assertThat(source.rowsRead()).isPositive().isLessThanOrEqualTo(3 * PER_ISSUE).isEqualTo(comments.size());
      long statements = source.statements();
      assertThat(statements).isBetween(1L, 3L);

      long read = source.rowsRead();
      replica.execute("UPDATE comments SET body = 'edited' WHERE issue = 101");
      replica.execute("INSERT INTO comments VALUES (5000, 100, 'new')");
      replica.execute("INSERT INTO comments VALUES (5001, 130, 'elsewhere')"); // nobody demands issue 130
      assertThat(PlainValues.rows(board.rows())).isEqualTo(answer(keep));
      assertThat(source.rowsRead()).as("writes reach loaded rows without reading").isEqualTo(read);

      replica.execute("UPDATE issues SET status = 'open' WHERE id = 120"); // a new bucket: read now
      assertThat(PlainValues.rows(board.rows())).isEqualTo(answer(keep)).hasSize(4);
      assertThat(source.rowsRead() - read).isPositive().isLessThanOrEqualTo(PER_ISSUE);
      assertThat(source.statements()).isEqualTo(statements + 1);

      // the first three buckets share one request: closing all three releases it, and its rows go
      replica.execute("UPDATE issues SET status = 'closed' WHERE id IN (100, 101, 102)");
      assertThat(PlainValues.rows(board.rows())).isEqualTo(answer(keep)).hasSize(1);
      assertThat(comments.rows()).isNotEmpty().allMatch(row -> row.get(1).equals(120L));

      replica.execute("DELETE FROM issues WHERE id = 120"); // cascades to its comments
      assertThat(PlainValues.rows(board.rows())).isEqualTo(answer(keep)).isEmpty();
      assertThat(comments.size()).isZero();
    }
  }

  @ParameterizedTest
  @EnumSource(ReplicaDialect.class)
  void aCommitTouchingLazyAndEagerTablesIsPublishedAsOneTransaction(ReplicaDialect d) throws SQLException {
    String url = d.url("lazy-atomic");
    try (Connection keep = bigDatabase(d, url);
        SqliteReplica replica = d.open(url, ReplicaOptions.lazy("comments"))) {
      LiveQuery board = replica.liveQuery("board", board(replica));
      List<List<Object>> seen = new java.util.ArrayList<>(); // the board as each batch left it
      List<Long> txIds = new java.util.ArrayList<>();
      board.subscribeChanges(SubscribeOptions.sync(), batch -> {
        if (batch instanceof ChangeBatch.Changed) {
          txIds.add(batch.txId());
          seen.add(PlainValues.rows(board.rows()));
        }
      });
      replica.transaction(tx -> {
        tx.execute("UPDATE comments SET body = 'edited' WHERE issue = 101"); // lazy
        tx.execute("UPDATE issues SET status = 'closed' WHERE id = 100"); // eager
        tx.execute("INSERT INTO comments VALUES (5000, 102, 'new')"); // lazy
      });
      assertThat(txIds).as("one batch for the one commit").hasSize(1);
      assertThat(seen.get(0)).as("never half of the commit").isEqualTo(answer(keep)).hasSize(2);
    }
  }

  @ParameterizedTest
  @EnumSource(ReplicaDialect.class)
  void schemaChangesKeepLazyCaptureAndRetireAnAlteredLazyTable(ReplicaDialect d) throws SQLException {
    String url = d.url("lazy-ddl");
    try (Connection keep = bigDatabase(d, url);
        SqliteReplica replica = d.open(url, ReplicaOptions.lazy("comments"))) {
      LiveQuery board = replica.liveQuery("board", board(replica));
      replica.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body VARCHAR(20))");
      replica.execute("INSERT INTO comments VALUES (5000, 101, 'after create')");
      assertThat(PlainValues.rows(board.rows())).as("capture of the lazy table survives other DDL")
          .isEqualTo(answer(keep));

      replica.execute("ALTER TABLE comments ADD COLUMN likes INTEGER");
      assertThat(board.status()).isEqualTo(Status.ERROR);
      assertThat(board.error()).hasMessageContaining("comments");
      assertThatThrownBy(() -> replica.lazyTable("comments")).hasMessageContaining("not lazy");
      replica.execute("INSERT INTO comments VALUES (5001, 101, 'eager now', 3)");
      assertThat(replica.table("comments").size()).as("an altered lazy table comes back as an eager mirror")
          .isEqualTo(ISSUES * PER_ISSUE + 2);
    }
  }

  @ParameterizedTest
  @EnumSource(ReplicaDialect.class)
  void demandRaisedOutsideTheReplicaIsLoadedOnItsLoaderThread(ReplicaDialect d) throws Exception {
    String url = d.url("lazy-loader");
    try (Connection keep = bigDatabase(d, url);
        SqliteReplica replica = d.open(url, ReplicaOptions.lazy("comments"))) {
      LiveQuery board = replica.rivulet().liveQuery("board", board(replica)); // not through the replica
      board.ready().get(10, TimeUnit.SECONDS);
      assertThat(PlainValues.rows(board.rows())).isEqualTo(answer(keep));
      replica.execute("INSERT INTO comments VALUES (5000, 102, 'new')");
      assertThat(PlainValues.rows(board.rows())).isEqualTo(answer(keep));
    }
  }

  @ParameterizedTest
  @EnumSource(ReplicaDialect.class)
  void lazyTablesAreNamedInErrors(ReplicaDialect d) throws SQLException {
    String url = d.url("lazy-errors");
    try (Connection keep = d.create(url)) {
      assertThatThrownBy(() -> d.open(url, ReplicaOptions.lazy("nope")))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lazy table 'nope'");
      try (SqliteReplica replica = d.open(url, ReplicaOptions.lazy("comments"))) {
        assertThatThrownBy(() -> replica.table("comments")).hasMessageContaining("'comments' is lazy");
        assertThatThrownBy(() -> replica.lazyTable("issues")).hasMessageContaining("'issues' is not lazy");
        assertThat(replica.table("issues").rows()).hasSize(3);
        assertThat(SqlRows.read(keep, "SELECT count(*) FROM comments")).containsExactly(Row.of(2));
      }
    }
  }
}
