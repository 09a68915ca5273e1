package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.testkit.Seeds;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The change-tree face across failures and recoveries: a live query keyed by a column that random
 * writes make collide (ordered or not, with or without a limit, with or without a window
 * subscriber beside it) fails and recovers; a tree subscriber, folded, always holds the rows the
 * query shows (its last published rows while failed), and a recovery arrives as one batch of
 * placed changes, never a reset.
 */
class TreeFaceRecoveryTest {
  @Test
  void foldedTreeHoldsThePublishedRowsThroughFailuresAndRecoveries() {
    int recoveries = 0;
    for (long seed : Seeds.runs(60)) {
      Random r = new Random(seed);
      Rivulet db = Rivulet.create();
      db.onError((c, e) -> { });
      SourceCollection t = db.collection("t", Schema.parse("id INT NOT NULL, g INT, v INT"), List.of("id"));
      t.beginSync().markReady().commit();
      boolean ordered = r.nextBoolean();
      Query q = Query.from("t", t).select(Query.as("g", col("t.g")), Query.as("v", col("t.v")));
      if (ordered) {
        q = q.orderBy(Query.asc(col("t.v")));
        q = r.nextBoolean() ? q.limit(1 + r.nextInt(5)) : q;
      }
      LiveQuery live = db.liveQuery("byG", q, List.of("g"));
      if (ordered && r.nextBoolean()) {
        live.subscribeWindow(SubscribeOptions.sync(), b -> { });
      }
      List<TreeBatch> seen = new ArrayList<>();
      live.subscribeTree(SubscribeOptions.sync(), seen::add);
      List<String> errors = new ArrayList<>();
      TreeFold fold = TreeFold.hydrate(ordered, seen.get(0), errors, "byG");
      boolean wasFailed = false;
      for (int step = 0; step < 40; step++) {
        long tx = db.lastTxId();
        SourceCollection.SyncBatch b = t.beginSync();
        for (int i = 1 + r.nextInt(3); i > 0; i--) {
          long id = r.nextInt(8);
          if (r.nextInt(3) == 0) {
            b.delete(Row.of(id));
          } else {
            b.write(Row.of(id, r.nextInt(4), r.nextInt(6)));
          }
        }
        b.commit();
        String at = "seed " + seed + " step " + step + " (ordered " + ordered + ")";
        assertThat(seen.size()).as(at).isLessThanOrEqualTo(2);
        for (TreeBatch batch : seen.subList(1, seen.size())) {
          assertThat(batch.txId()).as(at).isEqualTo(tx + 1);
          for (CaughtChange c : batch.changes()) {
            assertThat(fold.apply(c)).as("%s: %s", at, batch.changes()).isNull();
          }
        }
        seen.subList(1, seen.size()).clear();
        assertThat(errors).as(at).isEmpty();
        List<Row> shown = live.rows();
        if (ordered) {
          assertThat(fold.rows()).as(at).isEqualTo(shown);
        } else {
          assertThat(fold.rows()).as(at).containsExactlyInAnyOrderElementsOf(shown);
        }
        boolean failed = live.status() == Status.ERROR;
        recoveries += wasFailed && !failed ? 1 : 0;
        wasFailed = failed;
      }
    }
    assertThat(recoveries).isGreaterThan(30);
  }
}
