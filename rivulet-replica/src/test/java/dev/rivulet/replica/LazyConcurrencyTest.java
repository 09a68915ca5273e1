package dev.rivulet.replica;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.lit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.query.LiveQuery;
import dev.rivulet.query.Query;
import dev.rivulet.query.Status;
import dev.rivulet.testkit.Seeds;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Lazy loads on the replica's loader thread while another thread writes: live queries created
 * outside the replica (so their loads go to the loader) over a lazy table, checked against the
 * database whenever they are ready while the test holds the replica (no write or load can run
 * then), and once more when the writer is done and every load has settled.
 */
class LazyConcurrencyTest {
  private static Query board(SqliteReplica r, String status, int k) {
    String c = "c" + k;
    return Query.from("i", r.table("issues")).where(eq(col("i.status"), lit(status)))
        .select(Query.as("id", col("i.id")), Query.include("all", Query.from(c, r.lazyTable("comments"))
            .where(eq(col(c + ".issue"), col("i.id"))).select(Query.as("id", col(c + ".id")),
                Query.as("body", col(c + ".body")))));
  }

  private static final List<LiveCase.IncludeSql> ALL = List.of(new LiveCase.IncludeSql(0,
      "SELECT c.id, c.body FROM comments c WHERE c.issue = ?", LiveCase.Mode.COLLECTION));

  @ParameterizedTest
  @EnumSource(ReplicaDialect.class)
  void loadsOnTheLoaderThreadAgreeWithTheDatabaseWhileAWriterCommits(ReplicaDialect d) throws Exception {
    for (long seed : Seeds.runs(2)) {
      String url = d.url("lazy-concurrent" + Long.toUnsignedString(seed));
      try (Connection keep = d.create(url); SqliteReplica replica = d.open(url, ReplicaOptions.lazy("comments"))) {
        Random r = new Random(seed);
        List<SqlHistory.Step> steps = SqlHistory.generate(d, r, 300);
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread writer = new Thread(() -> {
          try {
            steps.forEach(s -> SqlHistory.run(s, replica));
          } catch (Throwable e) {
            failed.set(e);
          }
        });
        writer.start();
        List<LiveQuery> queries = new ArrayList<>();
        List<String> sqls = new ArrayList<>();
        int checked = 0;
        for (int k = 0; writer.isAlive() || k < 4; k++) {
          if (k < 6) {
            String status = k % 2 == 0 ? "open" : "closed";
            queries.add(replica.rivulet().liveQuery("board" + k, board(replica, status, k)));
            sqls.add("SELECT i.id FROM issues i WHERE i.status = '" + status + "'");
          }
          synchronized (replica) { // no write, publication or load runs meanwhile
            for (int i = 0; i < queries.size(); i++) {
              if (queries.get(i).status() == Status.READY) {
                assertThat(PlainValues.sorted(PlainValues.rows(queries.get(i).rows())))
                    .as("seed %d (%s) query %d", seed, Seeds.replayHint(seed), i)
                    .isEqualTo(PlainValues.sorted(LiveCase.nested(sqls.get(i), ALL).rows(keep)));
                checked++;
              }
            }
          }
          Thread.sleep(2);
        }
        writer.join();
        assertThat(failed.get()).isNull();
        for (int i = 0; i < queries.size(); i++) {
          long deadline = System.nanoTime() + 10_000_000_000L;
          while (queries.get(i).status() != Status.READY && System.nanoTime() < deadline) {
            Thread.sleep(5);
          }
          assertThat(PlainValues.sorted(PlainValues.rows(queries.get(i).rows()))).as("seed %d query %d", seed, i)
              .isEqualTo(PlainValues.sorted(LiveCase.nested(sqls.get(i), ALL).rows(keep)));
        }
        assertThat(checked).as("states checked while writing").isPositive();
      }
    }
  }
}
