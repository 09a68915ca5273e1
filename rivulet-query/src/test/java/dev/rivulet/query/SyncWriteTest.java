package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.lit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.engine.SchemaException;
import dev.rivulet.testkit.Seeds;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link SourceCollection#syncWrite} is {@code beginSync().write(row).commit()} without a batch:
 * twin databases, one written each way, publish the same events and hold the same rows after every
 * write (with an optimistic transaction pending over some keys, whose overlay must keep showing),
 * and a refused or misplaced write changes nothing.
 */
class SyncWriteTest {
  private static final Schema S = Schema.parse("id INT NOT NULL, status STRING, priority INT");

  /** One database with its collection and two live queries whose events are recorded. */
  private static final class Side {
    final Rivulet db = Rivulet.create();
    final SourceCollection c = db.collection("issues", S, List.of("id"));
    final List<String> events = new ArrayList<>();
    LiveQuery top;
    LiveQuery open;

    Side(List<Row> load) {
      SourceCollection.SyncBatch b = c.beginSync();
      load.forEach(b::write);
      b.markReady().commit();
      top = db.liveQuery("top", Query.from("i", c).where(eq(col("i.status"), lit("open")))
          .orderBy(Query.desc(col("i.priority")), Query.asc(col("i.id"))).limit(5));
      open = db.liveQuery("open", Query.from("i", c).where(eq(col("i.status"), lit("open"))));
      top.subscribe(batch -> batch.forEach(e -> events.add("top " + e)));
      open.subscribe(batch -> batch.forEach(e -> events.add("open " + e)));
    }
  }

  private static Row row(Random rnd, int id) {
    return Row.of(id, rnd.nextInt(3) == 0 ? "closed" : "open", rnd.nextInt(20));
  }

  @Test
  void aSyncWritePublishesWhatAOneWriteBatchPublishes() {
    for (long seed : Seeds.runs(6)) {
      Random rnd = new Random(seed);
      List<Row> load = new ArrayList<>();
      for (int id = 0; id < 60; id++) {
        load.add(row(rnd, id));
      }
      Side batched = new Side(load);
      Side direct = new Side(load);
      Transaction pendingB = null;
      Transaction pendingD = null;
      for (int step = 0; step < 300; step++) {
        if (step == 100) { // an optimistic write over a key the sync writes keep changing
          Row over = Row.of(7, "open", 99);
          pendingB = batched.db.transaction().update(batched.c, over);
          pendingB.apply();
          pendingD = direct.db.transaction().update(direct.c, over);
          pendingD.apply();
        }
        if (step == 200) {
          pendingB.rollback();
          pendingD.rollback();
        }
        Row r = row(rnd, rnd.nextInt(80));
        batched.c.beginSync().write(r).commit();
        direct.c.syncWrite(r);
        assertThat(direct.c.rows()).as("%s step %d", Seeds.replayHint(seed), step).isEqualTo(batched.c.rows());
        assertThat(direct.top.rows()).isEqualTo(batched.top.rows());
        assertThat(direct.open.rows()).containsExactlyInAnyOrderElementsOf(batched.open.rows());
        assertThat(direct.events).isEqualTo(batched.events);
        assertThat(direct.db.lastTxId()).as(Seeds.replayHint(seed)).isEqualTo(batched.db.lastTxId());
      }
    }
  }

  @Test
  void aRefusedSyncWriteChangesNothing() {
    Side side = new Side(List.of(Row.of(1, "open", 3)));
    long tx = side.db.lastTxId();
    assertThatThrownBy(() -> side.c.syncWrite(Row.of(2, "open", "high")))
        .isInstanceOf(SchemaException.class).hasMessageContaining("'issues'").hasMessageContaining("priority");
    assertThatThrownBy(() -> side.c.syncWrite(null)).isInstanceOf(SchemaException.class);
    assertThat(side.db.lastTxId()).isEqualTo(tx);
    assertThat(side.c.rows()).containsExactly(Row.of(1, "open", 3));
    assertThat(side.events).isEmpty();
    side.c.close();
    assertThatThrownBy(() -> side.c.syncWrite(Row.of(2, "open", 1))).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void aListenerIsRefusedASyncWriteAsItIsRefusedAOneWriteBatch() {
    Side side = new Side(List.of(Row.of(1, "open", 3)));
    List<String> refused = new ArrayList<>();
    side.open.subscribe(batch -> {
      for (Runnable write : List.<Runnable>of(() -> side.c.syncWrite(Row.of(9, "open", 1)),
          () -> side.c.beginSync().write(Row.of(9, "open", 1)).commit())) {
        try {
          write.run();
          refused.add("accepted");
        } catch (IllegalStateException e) {
          refused.add(e.getMessage());
        }
      }
    });
    side.c.syncWrite(Row.of(2, "open", 5));
    assertThat(refused).hasSize(2).doesNotContain("accepted");
    assertThat(refused.get(0)).contains("must not write").isEqualTo(refused.get(1));
    assertThat(side.c.rows()).containsExactlyInAnyOrder(Row.of(1, "open", 3), Row.of(2, "open", 5));
    assertThat(side.db.lastTxId()).as("the refused writes opened no transaction").isEqualTo(2);
  }

  @Test
  void aSyncWriteToAnIdleCollectionMakesItLoading() {
    Rivulet db = Rivulet.create();
    SourceCollection c = db.collection("issues", S, List.of("id"));
    assertThat(c.status()).isEqualTo(Status.IDLE);
    c.syncWrite(Row.of(1, "open", 3));
    assertThat(c.status()).isEqualTo(Status.LOADING);
    assertThat(c.rows()).containsExactly(Row.of(1, "open", 3));
  }
}
