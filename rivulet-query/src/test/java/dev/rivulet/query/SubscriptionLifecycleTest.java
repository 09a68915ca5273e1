package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Subscriptions end independently: closing one (even twice), or a subscriber of another face,
 * leaves the others receiving; closing the collection ends all of them; the ready signal
 * completes only on READY.
 */
class SubscriptionLifecycleTest {
  private final Rivulet db = Rivulet.create();
  private final SourceCollection items = db.collection("items", Schema.parse("id INT NOT NULL, p INT"), List.of("id"));

  private void write(long id, long p) {
    items.beginSync().write(Row.of(id, p)).commit();
  }

  @Test
  void closingOneKeyedSubscriptionTwiceLeavesTheOthersReceiving() {
    List<ChangeEvent> a = new ArrayList<>();
    List<ChangeEvent> b = new ArrayList<>();
    LiveCollection.Subscription sa = items.subscribe(a::addAll);
    items.subscribe(b::addAll);
    write(1, 1);
    assertThat(a).hasSize(1);
    sa.close();
    sa.close();
    assertThat(sa.ended()).isCompletedWithValue(LiveCollection.End.CLOSED);
    write(2, 2);
    assertThat(a).as("closed").hasSize(1);
    assertThat(b).extracting(ChangeEvent::type).containsExactly(ChangeEvent.Type.INSERT, ChangeEvent.Type.INSERT);
  }

  @Test
  void closingWindowAndChangeSubscribersLeavesKeyedEvents() {
    write(1, 5);
    LiveQuery top = db.liveQuery("top", Query.from("i", items).orderBy(Query.asc(col("i.p"))).limit(3));
    List<ChangeEvent> keyed = new ArrayList<>();
    top.subscribe(keyed::addAll);
    LiveWindow w = top.subscribeWindow(SubscribeOptions.sync(), x -> { });
    List<ChangeBatch> changes = new ArrayList<>();
    LiveCollection.Subscription c = top.subscribeChanges(SubscribeOptions.sync(), changes::add);
    w.close();
    c.close();
    write(2, 1);
    assertThat(keyed).extracting(ChangeEvent::type).containsExactly(ChangeEvent.Type.INSERT);
    assertThat(changes).as("only the hydration before close").hasSize(1);
    assertThat(w.ended()).isCompletedWithValue(LiveCollection.End.CLOSED);
  }

  @Test
  void closingTheCollectionEndsEverySubscription() {
    LiveCollection.Subscription keyed = items.subscribe(e -> { });
    LiveCollection.Subscription changes = items.subscribeChanges(SubscribeOptions.sync(), b -> { });
    items.close();
    assertThat(keyed.ended()).isCompletedWithValue(LiveCollection.End.SOURCE_CLOSED);
    assertThat(changes.ended()).isCompletedWithValue(LiveCollection.End.SOURCE_CLOSED);
    assertThat(items.status()).isEqualTo(Status.CLOSED);
    assertThat(items.ready()).isCompletedExceptionally();
  }

  @Test
  void readyCompletesOnlyWhenReady() {
    assertThat(items.status()).isEqualTo(Status.IDLE);
    assertThat(items.ready()).isNotDone();
    write(1, 1);
    assertThat(items.status()).isEqualTo(Status.LOADING);
    assertThat(items.ready()).isNotDone();
    LiveQuery q = db.liveQuery("q", Query.from("i", items));
    assertThat(q.ready()).isNotDone();
    items.beginSync().markReady().commit();
    assertThat(items.ready()).isCompleted();
    assertThat(q.status()).isEqualTo(Status.READY);
    assertThat(q.ready()).isCompleted();
  }
}
