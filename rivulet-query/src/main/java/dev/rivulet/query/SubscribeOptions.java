package dev.rivulet.query;

import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * How a subscription is delivered.
 *
 * <p>Synchronous (the default): each transaction is delivered on the thread that commits it,
 * after every collection and live query has installed its state and while the database's monitor
 * is held, so the callback reads exactly that transaction's state. The callback must be short and
 * must not write to the database or create collections or live queries (those calls are refused);
 * anything it throws is reported to the database's error handler and changes nothing else. An
 * initial state is built and delivered on the subscribing thread after the monitor is released;
 * transactions committed meanwhile wait for it in the subscriber's queue (so the writer does not)
 * and are then delivered on that thread, in order; more than {@code capacity} of them overflow the
 * subscription as below.
 *
 * <p>Asynchronous ({@link #async}): deliveries are queued for the subscriber and run on {@code
 * executor}, one at a time and in order; the writer never waits for them. When more than {@code
 * capacity} deliveries wait, the subscription overflows: a keyed or change-batch subscription
 * ends ({@link LiveCollection.Subscription#ended()} completes with {@code OVERFLOW} after the
 * queued deliveries), a window subscription drops its queue and delivers a reset of the current
 * window once it catches up. A callback run by the executor reads the database's latest state,
 * which may be past the delivered transaction.
 *
 * @param initialState deliver the current state first, atomically with the subscription
 * @param executor null for synchronous delivery
 * @param capacity the most deliveries that may wait
 */
public record SubscribeOptions(boolean initialState, Executor executor, int capacity) {
  /** The default queue bound. */
  public static final int DEFAULT_CAPACITY = 65_536;

  public SubscribeOptions {
    if (capacity < 1) {
      throw new IllegalArgumentException("subscription capacity must be at least 1, not " + capacity);
    }
  }

  /** Synchronous delivery, changes only. */
  public static SubscribeOptions sync() {
    return new SubscribeOptions(false, null, DEFAULT_CAPACITY);
  }

  /** Asynchronous delivery on {@code executor} with at most {@code capacity} waiting deliveries. */
  public static SubscribeOptions async(Executor executor, int capacity) {
    return new SubscribeOptions(false, Objects.requireNonNull(executor, "executor"), capacity);
  }

  /** These options, delivering the current state first. */
  public SubscribeOptions withInitialState() {
    return new SubscribeOptions(true, executor, capacity);
  }
}
