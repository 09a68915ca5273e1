package dev.rivulet.query;

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
  private final PullSink<TreeBatch> sink;

  ChangeTreeSink(BaseCollection collection, int capacity) {
    this.sink = new PullSink<>(collection, "change-tree sink", capacity, collection::subscribeTree, TreeBatch::hydrated);
  }

  /**
   * Subscribes and returns the current result as additions, with the id of the transaction it
   * reflects; every later transaction is kept for {@link #take()}.
   *
   * @throws IllegalStateException when called twice
   */
  public TreeBatch hydrate() {
    return sink.hydrate();
  }

  /**
   * The batches of the transactions published since the last call (or since {@link #hydrate()}),
   * in order; empty when none.
   *
   * @throws IllegalStateException before {@link #hydrate()}
   * @throws SubscriptionOverflowException when more than {@code capacity} batches waited
   */
  public List<TreeBatch> take() {
    return sink.take();
  }

  @Override
  public void close() {
    sink.close();
  }
}
