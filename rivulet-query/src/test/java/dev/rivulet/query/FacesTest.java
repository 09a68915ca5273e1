package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.count;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.lit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;

/**
 * Example tests of the output faces: transaction ids, initial state, keyed rows, change batches
 * and sinks, windows and reanchoring, sync transactions over several collections, failing and slow
 * subscribers, and recovery from a duplicate key.
 */
class FacesTest {
  private final Rivulet db = Rivulet.create();
  private final List<Throwable> reported = new ArrayList<>();
  private final SourceCollection issues = db.collection("issues",
      Schema.parse("id INT NOT NULL, status STRING, priority INT, assignee INT"), List.of("id"));
  private final SourceCollection users = db.collection("users", Schema.parse("id INT NOT NULL, name STRING"),
      List.of("id"));

  FacesTest() {
    db.onError((c, e) -> reported.add(e));
    users.beginSync().write(Row.of(1, "ann")).write(Row.of(2, "bob")).markReady().commit();
    issues.beginSync()
        .write(Row.of(10, "open", 5, 1))
        .write(Row.of(11, "open", 9, 2))
        .write(Row.of(12, "closed", 7, 1))
        .markReady()
        .commit();
  }

  private LiveQuery top(int limit) {
    return db.liveQuery("top" + limit, Query.from("i", issues)
        .where(eq(col("i.status"), lit("open")))
        .orderBy(Query.desc(col("i.priority")))
        .limit(limit));
  }

  @Test
  void aThrowingListenerFailsNeitherTheCommitNorOtherListeners() {
    // Regression: a throwing listener made commit() throw, and the collections after it in the
    // publish loop kept their staged events, merging them into the next transaction's.
    LiveQuery q = top(10);
    List<KeyedBatch> before = new ArrayList<>();
    List<KeyedBatch> after = new ArrayList<>();
    List<KeyedBatch> other = new ArrayList<>();
    q.subscribe(SubscribeOptions.sync(), before::add);
    issues.subscribe(events -> {
      throw new IllegalStateException("listener bug");
    });
    q.subscribe(SubscribeOptions.sync(), after::add);
    users.subscribe(SubscribeOptions.sync(), other::add);
    SyncTransaction tx = db.beginSync().write(issues, Row.of(13, "open", 1, 2)).write(users, Row.of(3, "cy"));
    tx.commit(); // does not throw
    issues.beginSync().write(Row.of(14, "open", 2, 2)).commit();
    assertThat(reported).hasSize(2).allMatch(e -> e.getMessage().equals("listener bug"));
    for (List<KeyedBatch> seen : List.of(before, after)) {
      assertThat(seen).hasSize(2);
      assertThat(seen.get(0).events()).extracting(ChangeEvent::key).containsExactly(Row.of(13));
      assertThat(seen.get(1).events()).extracting(ChangeEvent::key).containsExactly(Row.of(14));
      assertThat(seen.get(1).txId()).isEqualTo(seen.get(0).txId() + 1);
    }
    assertThat(other).hasSize(1);
    assertThat(other.get(0).txId()).isEqualTo(before.get(0).txId());
  }

  @Test
  void aSyncTransactionOverTwoCollectionsIsOneTransaction() {
    LiveQuery joined = db.liveQuery("joined", Query.from("i", issues)
        .join(QueryIR.JoinKind.INNER, "u", users, Query.on("i.assignee", "u.id"))
        .select(Query.as("id", col("i.id")), Query.as("who", col("u.name"))));
    List<KeyedBatch> seen = new ArrayList<>();
    joined.subscribe(SubscribeOptions.sync(), seen::add);
    long before = db.lastTxId();
    db.beginSync().write(users, Row.of(3, "cy")).write(issues, Row.of(13, "open", 1, 3)).commit();
    assertThat(seen).hasSize(1);
    assertThat(seen.get(0).txId()).isEqualTo(before + 1).isEqualTo(db.lastTxId()).isEqualTo(joined.txId());
    assertThat(seen.get(0).events()).extracting(ChangeEvent::value).containsExactly(Row.of(13, "cy"));
    // Separate batches would have shown issue 13 without its user first; one transaction never does.
    db.beginSync().delete(users, Row.of(3)).delete(issues, Row.of(13)).commit();
    assertThat(seen).hasSize(2);
    assertThat(seen.get(1).events()).extracting(ChangeEvent::type).containsExactly(ChangeEvent.Type.DELETE);
  }

  @Test
  void aSyncTransactionRefusesAnotherDatabasesCollection() {
    Rivulet other = Rivulet.create();
    SourceCollection foreign = other.collection("x", Schema.parse("id INT NOT NULL"), List.of("id"));
    assertThatThrownBy(() -> db.beginSync().write(foreign, Row.of(1)))
        .isInstanceOf(QueryException.class).hasMessageContaining("'x' belongs to another database");
  }

  @Test
  void initialStateAndEntriesPairRowsWithTheirKeys() {
    LiveQuery q = top(10);
    List<KeyedBatch> seen = new ArrayList<>();
    q.subscribe(SubscribeOptions.sync().withInitialState(), seen::add);
    assertThat(seen).hasSize(1);
    assertThat(seen.get(0).initial()).isTrue();
    assertThat(seen.get(0).txId()).isEqualTo(db.lastTxId());
    assertThat(seen.get(0).events()).extracting(ChangeEvent::value).containsExactlyElementsOf(q.rows());
    for (KeyedRow e : q.entries()) {
      assertThat(q.get(e.key())).contains(e.row());
    }
    assertThat(q.entries()).extracting(KeyedRow::row).containsExactlyElementsOf(q.rows());
  }

  @Test
  void changeBatchesHydrateThenFollowEachTransaction() {
    LiveQuery q = top(2);
    List<ChangeBatch> seen = new ArrayList<>();
    q.subscribeChanges(SubscribeOptions.sync(), seen::add);
    issues.beginSync().write(Row.of(10, "open", 6, 1)).commit(); // an edit in place
    issues.beginSync().write(Row.of(13, "open", 20, 2)).commit(); // enters, pushes 10 out
    assertThat(seen.get(0)).isInstanceOf(ChangeBatch.Hydrated.class);
    assertThat(seen.get(0).changes()).containsExactlyInAnyOrder(new Change.Add(Row.of(11, "open", 9, 2)),
        new Change.Add(Row.of(10, "open", 5, 1)));
    assertThat(seen.get(1)).isEqualTo(new ChangeBatch.Changed(seen.get(0).txId() + 1,
        List.of(new Change.Edit(Row.of(10, "open", 6, 1), Row.of(10, "open", 5, 1)))));
    assertThat(seen.get(2).changes()).containsExactlyInAnyOrder(new Change.Add(Row.of(13, "open", 20, 2)),
        new Change.Remove(Row.of(10, "open", 6, 1)));
  }

  @Test
  void aChangeSinkReturnsExactlyWhatWasPublishedSinceTheLastTake() {
    LiveQuery q = top(10);
    ChangeSink sink = q.changeSink(2);
    assertThatThrownBy(sink::take).isInstanceOf(IllegalStateException.class).hasMessageContaining("hydrate");
    ChangeBatch.Hydrated h = sink.hydrate();
    assertThat(h.changes()).hasSize(2);
    assertThat(sink.take()).isEmpty();
    issues.beginSync().write(Row.of(13, "open", 1, 2)).commit();
    issues.beginSync().write(Row.of(12, "open", 1, 2)).commit();
    List<ChangeBatch> got = sink.take();
    assertThat(got).hasSize(2).allMatch(b -> b instanceof ChangeBatch.Changed);
    assertThat(got.get(1).txId()).isEqualTo(got.get(0).txId() + 1);
    assertThat(sink.take()).isEmpty();
    for (int id = 20; id < 23; id++) {
      issues.beginSync().write(Row.of(id, "open", 1, 2)).commit();
    }
    assertThatThrownBy(sink::take).isInstanceOf(SubscriptionOverflowException.class);
  }

  @Test
  void windowStepsCarryIndexesCursorsAndVersions() {
    LiveQuery q = top(2);
    List<WindowBatch> seen = new ArrayList<>();
    LiveWindow w = q.subscribeWindow(SubscribeOptions.sync(), seen::add);
    assertThat(seen.get(0).isReset()).isTrue();
    assertThat(seen.get(0).deltas()).extracting(WindowDelta::op)
        .containsExactly(WindowDelta.Op.RESET, WindowDelta.Op.ENTER, WindowDelta.Op.ENTER);
    // The total order is priority desc, then the key: the cursor is (priority, id).
    assertThat(seen.get(0).deltas().get(1).cursor()).isEqualTo(Cursor.of(9, 11));
    assertThat(w.snapshot().lastCursor()).isEqualTo(Cursor.of(5, 10));
    issues.beginSync().write(Row.of(10, "open", 50, 1)).commit();
    WindowDelta move = seen.get(1).deltas().get(0);
    assertThat(move.op()).isEqualTo(WindowDelta.Op.MOVE);
    assertThat(move.oldIndex()).isEqualTo(1);
    assertThat(move.newIndex()).isZero();
    assertThat(move.cursor()).isEqualTo(Cursor.of(50, 10));
    assertThat(move.version()).isEqualTo(seen.get(1).txId()).isEqualTo(db.lastTxId());
    assertThat(WindowStepsTest.apply(List.of(), flatten(seen))).isEqualTo(q.rows());
    assertThatThrownBy(() -> db.liveQuery("flat", Query.from("i", issues)).subscribeWindow(SubscribeOptions.sync(),
        b -> { })).isInstanceOf(QueryException.class).hasMessageContaining("needs an order by");
  }

  @Test
  void reanchorDeliversTheDifferenceAndFollowsTheNewWindow() {
    SourceCollection.SyncBatch b = issues.beginSync();
    for (int id = 20; id < 40; id++) {
      b.write(Row.of(id, "open", id % 7, 1));
    }
    b.commit();
    LiveQuery q = top(5);
    List<WindowBatch> seen = new ArrayList<>();
    LiveWindow w = q.subscribeWindow(SubscribeOptions.sync(), seen::add);
    Cursor last = w.snapshot().lastCursor();
    w.reanchor(last, 5);
    LiveQuery fresh = db.liveQuery("fresh", q.query().after(last).limit(5));
    assertThat(WindowStepsTest.apply(List.of(), flatten(seen))).isEqualTo(fresh.rows());
    issues.beginSync().write(Row.of(20, "open", 100, 1)).write(Row.of(30, "open", 4, 1)).commit();
    assertThat(WindowStepsTest.apply(List.of(), flatten(seen))).isEqualTo(fresh.rows());
    w.reanchor(null, 3);
    assertThat(WindowStepsTest.apply(List.of(), flatten(seen))).isEqualTo(top(3).rows());
    w.close();
    assertThat(w.ended()).isCompletedWithValue(LiveCollection.End.CLOSED);
    assertThatThrownBy(() -> q.query().after(Cursor.of(1)).limit(1).ir()).isInstanceOf(QueryException.class)
        .hasMessageContaining("needs 2");
  }

  @Test
  void aSlowAsyncSubscriberOverflowsWithoutBlockingTheWriter() {
    ArrayDeque<Runnable> tasks = new ArrayDeque<>();
    Executor later = tasks::add; // runs nothing until the test drains it
    LiveQuery q = top(10);
    List<KeyedBatch> keyed = new ArrayList<>();
    List<WindowBatch> window = new ArrayList<>();
    LiveCollection.Subscription k = q.subscribe(SubscribeOptions.async(later, 2), keyed::add);
    q.subscribeWindow(SubscribeOptions.async(later, 2), window::add);
    for (int id = 20; id < 25; id++) {
      issues.beginSync().write(Row.of(id, "open", id, 2)).commit();
    }
    while (!tasks.isEmpty()) {
      tasks.poll().run();
    }
    assertThat(keyed).hasSize(2); // the two that fitted, then it ended
    assertThat(k.ended()).isCompletedWithValue(LiveCollection.End.OVERFLOW);
    assertThat(reported).hasAtLeastOneElementOfType(SubscriptionOverflowException.class);
    WindowBatch lastWindow = window.get(window.size() - 1);
    assertThat(lastWindow.isReset()).isTrue();
    assertThat(lastWindow.txId()).isEqualTo(db.lastTxId());
    assertThat(WindowStepsTest.apply(List.of(), flatten(window))).isEqualTo(q.rows());
    issues.beginSync().write(Row.of(30, "open", 99, 2)).commit();
    while (!tasks.isEmpty()) {
      tasks.poll().run();
    }
    assertThat(keyed).hasSize(2);
    assertThat(WindowStepsTest.apply(List.of(), flatten(window))).isEqualTo(q.rows());
  }

  @Test
  void aWindowSubscriberThatOverflowsIsToldItGetsAReset() {
    ArrayDeque<Runnable> tasks = new ArrayDeque<>();
    Executor later = tasks::add; // runs nothing until the test drains it
    LiveQuery q = top(10);
    q.subscribeWindow(SubscribeOptions.async(later, 2), b -> {});
    for (int id = 20; id < 25; id++) {
      issues.beginSync().write(Row.of(id, "open", id, 2)).commit();
    }
    assertThat(reported).isNotEmpty().allSatisfy(e -> assertThat(e).isInstanceOf(SubscriptionOverflowException.class)
        .hasMessage("a subscriber fell more than 2 deliveries behind; it gets a reset of the window when it catches up"));
  }

  @Test
  void aWriteFromACallbackIsRefusedAndReported() {
    issues.subscribe(events -> issues.beginSync().write(Row.of(99, "open", 1, 1)).commit());
    issues.beginSync().write(Row.of(13, "open", 1, 1)).commit();
    assertThat(reported).singleElement().satisfies(e -> assertThat(e).hasMessageContaining("must not write"));
    assertThat(issues.get(Row.of(99))).isEmpty();
    issues.beginSync().write(Row.of(14, "open", 1, 1)).commit(); // the database still works
    assertThat(issues.get(Row.of(14))).isPresent();
  }

  @Test
  void aDuplicateKeyFailsTheQueryUntilTheKeyIsUniqueAgain() {
    LiveQuery byStatus = db.liveQuery("byStatus", Query.from("i", issues)
        .select(Query.as("status", col("i.status")), Query.as("priority", col("i.priority")))
        .orderBy(Query.asc(col("i.priority"))), List.of("status"));
    assertThat(byStatus.status()).isEqualTo(Status.ERROR); // two open issues
    issues.beginSync().delete(Row.of(11)).commit();
    assertThat(byStatus.status()).isEqualTo(Status.READY);
    assertThat(byStatus.rows()).containsExactly(Row.of("open", 5), Row.of("closed", 7));
    List<KeyedBatch> keyed = new ArrayList<>();
    List<WindowBatch> window = new ArrayList<>();
    byStatus.subscribe(SubscribeOptions.sync().withInitialState(), keyed::add);
    byStatus.subscribeWindow(SubscribeOptions.sync(), window::add);
    LiveQuery downstream = db.liveQuery("down", Query.from("s", byStatus).select(Query.as("n", count())));
    List<String> downSeen = new ArrayList<>();
    downstream.subscribe(events -> events.forEach(e -> downSeen.add(e.type() + " " + e.value())));
    // The commit is applied and published and returns normally; the query's failure shows on the
    // query, on its reader and at the error handler.
    long tx = db.lastTxId();
    issues.beginSync().write(Row.of(13, "closed", 1, 1)).commit();
    assertThat(db.lastTxId()).isEqualTo(tx + 1);
    assertThat(issues.get(Row.of(13))).isPresent();
    assertThat(byStatus.status()).isEqualTo(Status.ERROR);
    assertThat(byStatus.error()).hasMessageContaining("duplicate key ['closed']");
    assertThat(byStatus.rows()).containsExactly(Row.of("open", 5), Row.of("closed", 7)); // last published
    assertThat(downstream.status()).isEqualTo(Status.ERROR);
    assertThat(downstream.error()).hasMessageContaining("source 'byStatus'").hasCause(byStatus.error());
    assertThat(reported).containsExactly(byStatus.error(), downstream.error());
    issues.beginSync().write(Row.of(14, "open", 3, 1)).commit(); // still failed: now nothing delivered
    assertThat(keyed).hasSize(1);
    assertThat(reported).hasSize(2); // the same failures: not reported again
    issues.beginSync().delete(Row.of(12)).delete(Row.of(10)).commit(); // unique again
    assertThat(byStatus.status()).isEqualTo(Status.READY);
    assertThat(downstream.status()).isEqualTo(Status.READY);
    assertThat(downstream.error()).isNull();
    assertThat(byStatus.rows()).containsExactly(Row.of("closed", 1), Row.of("open", 3));
    assertThat(keyed).hasSize(2);
    assertThat(keyed.get(1).events()).extracting(ChangeEvent::type)
        .containsExactlyInAnyOrder(ChangeEvent.Type.UPDATE, ChangeEvent.Type.UPDATE);
    assertThat(window.get(window.size() - 1).isReset()).isTrue();
    assertThat(WindowStepsTest.apply(List.of(), flatten(window))).isEqualTo(byStatus.rows());
    assertThat(downstream.rows()).containsExactly(Row.of(2L));
    assertThat(downSeen).isEmpty(); // 2 rows before the failure, 2 after the recovery
  }

  private static List<WindowDelta> flatten(List<WindowBatch> batches) {
    List<WindowDelta> out = new ArrayList<>();
    for (WindowBatch b : batches) {
      out.addAll(b.deltas());
    }
    return out;
  }
}
