package dev.rivulet.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.Test;

/**
 * Asynchronous mailboxes driven by a hand-run executor: what is queued at close is dropped, an
 * overflow ends the subscription and drops later deliveries (its reason survives a later close),
 * and an executor that rejects work ends the subscription and is reported.
 */
class AsyncDeliveryTest {
  private final Rivulet db = Rivulet.create();
  private final SourceCollection items = db.collection("items", Schema.parse("id INT NOT NULL, p INT"), List.of("id"));
  private final List<Runnable> tasks = new ArrayList<>();
  private final Executor byHand = tasks::add;

  private void write(long id) {
    items.beginSync().write(Row.of(id, id)).commit();
  }

  private void runTasks() {
    while (!tasks.isEmpty()) {
      tasks.remove(0).run();
    }
  }

  @Test
  void whatIsQueuedAtCloseIsNotDelivered() {
    List<KeyedBatch> got = new ArrayList<>();
    LiveCollection.Subscription s = items.subscribe(SubscribeOptions.async(byHand, 10), got::add);
    write(1);
    write(2);
    assertThat(tasks).hasSize(1);
    s.close();
    assertThat(s.ended()).as("the draining task completes it").isNotDone();
    runTasks();
    assertThat(got).isEmpty();
    assertThat(s.ended()).isCompletedWithValue(LiveCollection.End.CLOSED);
  }

  @Test
  void anOverflowEndsTheSubscriptionAndKeepsItsReason() {
    List<Throwable> errors = new ArrayList<>();
    db.onError((c, e) -> errors.add(e));
    List<KeyedBatch> got = new ArrayList<>();
    LiveCollection.Subscription s = items.subscribe(SubscribeOptions.async(byHand, 1), got::add);
    write(1);
    write(2); // over the bound of 1 waiting delivery
    write(3);
    assertThat(errors).singleElement().isInstanceOf(SubscriptionOverflowException.class);
    s.close();
    runTasks();
    assertThat(got).as("the one queued before the overflow").isEmpty();
    assertThat(s.ended()).isCompletedWithValue(LiveCollection.End.OVERFLOW);
  }

  @Test
  void deliveriesQueuedWithinTheBoundArriveInOrder() {
    List<KeyedBatch> got = new ArrayList<>();
    LiveCollection.Subscription s = items.subscribe(SubscribeOptions.async(byHand, 5), got::add);
    write(1);
    write(2);
    write(3);
    runTasks();
    assertThat(got).extracting(b -> b.events().get(0).key()).containsExactly(Row.of(1), Row.of(2), Row.of(3));
    assertThat(s.ended()).isNotDone();
  }

  @Test
  void anExecutorThatRejectsEndsTheSubscription() {
    List<Throwable> errors = new ArrayList<>();
    db.onError((c, e) -> errors.add(e));
    List<KeyedBatch> got = new ArrayList<>();
    LiveCollection.Subscription s = items.subscribe(SubscribeOptions.async(r -> {
      throw new RejectedExecutionException("full");
    }, 5), got::add);
    write(1);
    assertThat(errors).singleElement().isInstanceOf(RejectedExecutionException.class);
    assertThat(s.ended()).isCompletedWithValue(LiveCollection.End.CLOSED);
    write(2);
    assertThat(got).isEmpty();
    assertThat(errors).hasSize(1);
  }
}
