package dev.rivulet.query;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * What the pull sinks of the change-batch and change-tree faces share: a synchronous subscription
 * whose first (initial) batch {@link #hydrate()} returns, and whose later batches wait, at most
 * {@code capacity} of them, until {@link #take()}; past that the sink overflows and {@link
 * #take()} throws.
 *
 * <p>Concurrency: safe from any thread; the waiting batches are guarded by this sink's monitor
 * (deliveries arrive on writers' threads).
 */
final class PullSink<B> implements AutoCloseable {
  private final BaseCollection collection;
  private final String what;
  private final int capacity;
  private final BiFunction<SubscribeOptions, Consumer<B>, LiveCollection.Subscription> subscribe;
  private final Predicate<B> initial;
  private final List<B> waiting = new ArrayList<>();
  private LiveCollection.Subscription subscription;
  private B hydrated;
  private boolean overflowed;

  /**
   * @param what the sink's name in messages ("change sink")
   * @param initial whether a delivered batch is the initial one
   */
  PullSink(BaseCollection collection, String what, int capacity,
      BiFunction<SubscribeOptions, Consumer<B>, LiveCollection.Subscription> subscribe, Predicate<B> initial) {
    if (capacity < 1) {
      throw new IllegalArgumentException(what + " capacity must be at least 1, not " + capacity);
    }
    this.collection = collection;
    this.what = what;
    this.capacity = capacity;
    this.subscribe = subscribe;
    this.initial = initial;
  }

  /** Subscribes and returns the initial batch; later ones wait for {@link #take()}. */
  B hydrate() {
    synchronized (this) {
      if (subscription != null) {
        throw new IllegalStateException(what + " of '" + collection.name() + "' is already hydrated");
      }
    }
    LiveCollection.Subscription s = subscribe.apply(SubscribeOptions.sync(), this::receive);
    synchronized (this) {
      subscription = s;
      B h = hydrated;
      hydrated = null;
      return h;
    }
  }

  private synchronized void receive(B b) {
    if (initial.test(b)) {
      hydrated = b;
    } else if (!overflowed) {
      if (waiting.size() >= capacity) {
        overflowed = true;
        waiting.clear();
      } else {
        waiting.add(b);
      }
    }
  }

  /** The batches published since the last call, in order. */
  List<B> take() {
    LiveCollection.Subscription s;
    synchronized (this) {
      if (subscription == null) {
        throw new IllegalStateException(what + " of '" + collection.name() + "': call hydrate() first");
      }
      if (!overflowed) {
        List<B> out = List.copyOf(waiting);
        waiting.clear();
        return out;
      }
      s = subscription;
    }
    s.close();
    throw new SubscriptionOverflowException(capacity, false);
  }

  @Override
  public void close() {
    LiveCollection.Subscription s;
    synchronized (this) {
      s = subscription;
      waiting.clear();
    }
    if (s != null) {
      s.close();
    }
  }
}
