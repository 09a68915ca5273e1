package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.lit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.query.CaughtChange.Add;
import dev.rivulet.query.CaughtChange.Edit;
import dev.rivulet.query.CaughtChange.Remove;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The change-tree face on flat results: hydration as Adds, a transaction's changes as one batch
 * (positions from the window for an ordered query, -1 otherwise), rows that siblings could be
 * confused with, a recovery, and the pull sink.
 */
class ChangeTreeFaceTest {
  private final Rivulet db = Rivulet.create();
  private final SourceCollection issues = db.collection("issues",
      Schema.parse("id INT NOT NULL, status STRING, priority INT, score DOUBLE"), List.of("id"));

  private final List<Throwable> reported = new ArrayList<>();

  ChangeTreeFaceTest() {
    db.onError((c, e) -> reported.add(e));
    issues.beginSync()
        .write(Row.of(10, "open", 5, 1.0))
        .write(Row.of(11, "open", 9, 2.0))
        .write(Row.of(12, "closed", 7, 3.0))
        .markReady()
        .commit();
  }

  private static CaughtNode node(Object... values) {
    return new CaughtNode(Row.of(values));
  }

  private LiveQuery openByPriority() {
    return db.liveQuery("open", Query.from("i", issues)
        .where(eq(col("i.status"), lit("open")))
        .select(Query.as("status", col("i.status")), Query.as("score", col("i.score")))
        .orderBy(Query.desc(col("i.priority"))));
  }

  @Test
  void aSourceCollectionHydratesUnorderedAndEachApplyIsOneBatch() {
    List<TreeBatch> seen = new ArrayList<>();
    issues.subscribeTree(SubscribeOptions.sync(), seen::add);
    assertThat(seen).hasSize(1);
    assertThat(seen.get(0).hydrated()).isTrue();
    assertThat(seen.get(0).txId()).isEqualTo(db.lastTxId());
    assertThat(seen.get(0).changes()).containsExactlyInAnyOrder(new Add(node(10, "open", 5, 1.0), -1),
        new Add(node(11, "open", 9, 2.0), -1), new Add(node(12, "closed", 7, 3.0), -1));
    issues.apply(List.of(new SourceChange.Add(Row.of(13, "open", 1, 0.5)),
        new SourceChange.Edit(Row.of(10, "open", 6, 1.0), Row.of(10, "open", 5, 1.0)),
        new SourceChange.Remove(Row.of(12, "closed", 7, 3.0))));
    assertThat(seen).hasSize(2);
    TreeBatch b = seen.get(1);
    assertThat(b.hydrated()).isFalse();
    assertThat(b.txId()).isEqualTo(db.lastTxId());
    assertThat(b.changes()).containsExactly(new Add(node(13, "open", 1, 0.5), -1),
        new Edit(Row.of(10, "open", 5, 1.0), Row.of(10, "open", 6, 1.0)), new Remove(node(12, "closed", 7, 3.0), -1));
    Object score = ((Add) b.changes().get(0)).node().row().get(3);
    assertThat(score).isInstanceOf(Double.class); // typed as the other faces type it
  }

  @Test
  void anOrderedQueryIsPlacedByIndexAndAMoveIsARemoveThenAnAdd() {
    LiveQuery q = openByPriority();
    List<TreeBatch> seen = new ArrayList<>();
    q.subscribeTree(SubscribeOptions.sync(), seen::add);
    assertThat(seen.get(0).changes()).containsExactly(new Add(node("open", 2.0), 0), new Add(node("open", 1.0), 1));
    issues.beginSync().write(Row.of(10, "open", 20, 1.5)).commit(); // moves to the top, score changes
    assertThat(seen.get(1).changes()).containsExactly(new Remove(node("open", 1.0), 1), new Add(node("open", 1.5), 0));
    issues.beginSync().write(Row.of(11, "open", 9, 4.0)).commit(); // stays in place
    assertThat(seen.get(2).changes()).containsExactly(new Edit(Row.of("open", 2.0), Row.of("open", 4.0)));
    issues.beginSync().write(Row.of(12, "open", 1, 3.0)).commit(); // enters at the end
    assertThat(seen.get(3).changes()).containsExactly(new Add(node("open", 3.0), 2));
    issues.beginSync().write(Row.of(11, "open", 0, 4.0)).commit(); // a hidden sort column: moves, same row
    assertThat(seen.get(4).changes()).containsExactly(new Remove(node("open", 4.0), 1), new Add(node("open", 4.0), 2));
    assertThat(seen).hasSize(5);
  }

  @Test
  void aRowThatAnotherRowShowsTooIsReplacedNotEdited() {
    issues.beginSync().write(Row.of(11, "open", 9, 1.0)).commit(); // 10 and 11 now show the same row
    LiveQuery q = openByPriority();
    List<TreeBatch> seen = new ArrayList<>();
    q.subscribeTree(SubscribeOptions.sync(), seen::add);
    issues.beginSync().write(Row.of(10, "open", 5, 7.0)).commit(); // in place, at index 1
    assertThat(seen.get(1).changes()).containsExactly(new Remove(node("open", 1.0), 1), new Add(node("open", 7.0), 1));
    issues.beginSync().write(Row.of(11, "open", 9, 8.0)).commit(); // no longer confusable: an edit
    assertThat(seen.get(2).changes()).containsExactly(new Edit(Row.of("open", 1.0), Row.of("open", 8.0)));
  }

  @Test
  void aRecoveryIsTheDifferenceFromWhatTheSubscriberSawNotAReset() {
    LiveQuery byStatus = db.liveQuery("byStatus", Query.from("i", issues)
        .select(Query.as("status", col("i.status")), Query.as("priority", col("i.priority")))
        .orderBy(Query.asc(col("i.priority"))), List.of("status"));
    issues.beginSync().delete(Row.of(11)).commit();
    assertThat(byStatus.status()).isEqualTo(Status.READY);
    List<TreeBatch> seen = new ArrayList<>();
    byStatus.subscribeTree(SubscribeOptions.sync(), seen::add);
    TreeFold fold = TreeFold.hydrate(true, seen.get(0), new ArrayList<>(), "byStatus");
    issues.beginSync().write(Row.of(13, "closed", 1, 0.0)).commit(); // a duplicate: fails
    assertThat(byStatus.status()).isEqualTo(Status.ERROR);
    assertThat(reported).containsExactly(byStatus.error());
    issues.beginSync().write(Row.of(14, "open", 3, 0.0)).commit();
    assertThat(seen).hasSize(1);
    issues.beginSync().delete(Row.of(12)).delete(Row.of(10)).commit(); // unique again
    assertThat(byStatus.status()).isEqualTo(Status.READY);
    assertThat(seen).hasSize(2);
    for (CaughtChange c : seen.get(1).changes()) {
      assertThat(fold.apply(c)).isNull();
    }
    assertThat(fold.rows()).isEqualTo(byStatus.rows()).containsExactly(Row.of("closed", 1), Row.of("open", 3));
  }

  @Test
  void theSinkHydratesOnceAndTakesWholeTransactions() {
    LiveQuery q = openByPriority();
    ChangeTreeSink sink = q.changeTreeSink(2);
    assertThatThrownBy(sink::take).isInstanceOf(IllegalStateException.class).hasMessageContaining("hydrate() first");
    TreeBatch h = sink.hydrate();
    assertThat(h.hydrated()).isTrue();
    assertThat(h.changes()).hasSize(2);
    assertThatThrownBy(sink::hydrate).isInstanceOf(IllegalStateException.class);
    assertThat(sink.take()).isEmpty();
    issues.beginSync().write(Row.of(13, "open", 1, 0.5)).write(Row.of(14, "open", 2, 0.25)).commit();
    issues.beginSync().write(Row.of(12, "closed", 8, 3.0)).commit(); // not in the result: no batch
    List<TreeBatch> taken = sink.take();
    assertThat(taken).hasSize(1);
    assertThat(taken.get(0).changes()).containsExactly(new Add(node("open", 0.25), 2), new Add(node("open", 0.5), 3));
    for (int i = 0; i < 3; i++) {
      issues.beginSync().write(Row.of(20 + i, "open", 1, 0.0)).commit();
    }
    assertThatThrownBy(sink::take).isInstanceOf(SubscriptionOverflowException.class);
    assertThatThrownBy(() -> q.changeTreeSink(0)).isInstanceOf(IllegalArgumentException.class);
  }
}
