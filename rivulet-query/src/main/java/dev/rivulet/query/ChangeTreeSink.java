package dev.rivulet.query;

import java.util.ArrayList;
import java.util.List;

/**
 * The change-tree face as a pull sink: {@link #hydrate()} once returns the current result as
 * additions, then {@link #take()} returns exactly the transactions published since the previous
 * call, each batch whole and in order. At most {@code capacity} batches wait; past that the sink
 * overflows and {@link #take()} throws (start over with a new sink).
 *
 * <p>Concurrency: safe from any thread; the waiting batches are guarded by the sink's own monitor
 * (deliveries arrive on writers' threads).
 */
public final class ChangeTreeSink implements AutoCloseable {
  private final BaseCollection collection;
  private final int capacity;
  private final List<TreeBatch> waiting = new ArrayList<>();
  private LiveCollection.Subscription subscription;
  private TreeBatch hydrated;
  private boolean overflowed;

  ChangeTreeSink(BaseCollection collection, int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("change-tree sink capacity must be at least 1, not " + capacity);
    }
    this.collection = collection;
    this.capacity = capacity;
  }

  /**
   * Subscribes and returns the current result as additions, with the id of the transaction it
   * reflects; every later transaction is kept for {@link #take()}.
   *
   * @throws IllegalStateException when called twice
   */
  public TreeBatch hydrate() {
    synchronized (this) {
      if (subscription != null) {
        throw new IllegalStateException("change-tree sink of '" + collection.name() + "' is already hydrated");
      }
    }
    LiveCollection.Subscription s = collection.subscribeTree(SubscribeOptions.sync(), this::receive);
    synchronized (this) {
      subscription = s;
      TreeBatch h = hydrated;
      hydrated = null;
      return h;
    }
  }

  private synchronized void receive(TreeBatch b) {
    if (b.hydrated()) {
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

  /**
   * The batches of the transactions published since the last call (or since {@link #hydrate()}),
   * in order; empty when none.
   *
   * @throws IllegalStateException before {@link #hydrate()}
   * @throws SubscriptionOverflowException when more than {@code capacity} batches waited
   */
  public List<TreeBatch> take() {
    LiveCollection.Subscription s;
    synchronized (this) {
      if (subscription == null) {
        throw new IllegalStateException("change-tree sink of '" + collection.name() + "': call hydrate() first");
      }
      if (!overflowed) {
        List<TreeBatch> out = List.copyOf(waiting);
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
