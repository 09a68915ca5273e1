package dev.rivulet.query;

import java.util.List;

/**
 * The change-tree face as a pull sink: {@link #hydrate()} once returns the current result as
 * additions, then {@link #take()} returns exactly the transactions published since the previous
 * call, each batch whole and in order. At most {@code capacity} batches wait; past that the sink
 * overflows and {@link #take()} throws.
 *
 * <p>Concurrency: safe from any thread.
 */
public final class ChangeTreeSink implements AutoCloseable {
  ChangeTreeSink() {}

  /** @throws IllegalStateException when called twice */
  public TreeBatch hydrate() {
    throw new UnsupportedOperationException("the change-tree face is being built");
  }

  /**
   * @throws IllegalStateException before {@link #hydrate()}
   * @throws SubscriptionOverflowException when more than {@code capacity} batches waited
   */
  public List<TreeBatch> take() {
    throw new UnsupportedOperationException("the change-tree face is being built");
  }

  @Override
  public void close() {}
}
