package dev.rivulet.query.face;

import dev.rivulet.query.LiveCollection;
import dev.rivulet.query.SubscribeOptions;
import dev.rivulet.query.SubscriptionOverflowException;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One subscriber's mailbox: the deliveries of one subscription, handed to its callback one at a
 * time and in the order offered, by at most one thread at a time.
 *
 * <p>Synchronous mailboxes run the callback on the offering thread unless another thread is
 * already draining (a subscriber still receiving its initial state on its own thread), in which
 * case the offer only queues and that thread delivers it next: the writer never waits for a
 * subscriber. Asynchronous ones drain on their executor. Anything a callback throws (an exception
 * or an error) goes to the error reporter and the mailbox goes on.
 *
 * <p>Overflow (more than {@code capacity} waiting): with a {@code resetter}, the queue is dropped
 * and the next delivery is whatever the resetter returns (the current state, computed when the
 * drain reaches it); without one the mailbox takes no more and ends with {@link
 * LiveCollection.End#OVERFLOW} once the queue is delivered.
 *
 * <p>Concurrency: offers come under the database's monitor, so they are ordered; the queue is
 * guarded by this object's own monitor, always taken after the database's (the resetter takes the
 * database's monitor, and is called holding neither).
 */
public final class Delivery<T> {
  private final Consumer<T> callback;
  private final Executor executor;
  private final int capacity;
  private final Function<Delivery<T>, T> resetter;
  private final Consumer<Throwable> reporter;
  private final ArrayDeque<T> queue = new ArrayDeque<>();
  private final CompletableFuture<LiveCollection.End> ended = new CompletableFuture<>();
  private Supplier<T> first; // a delivery to build and hand over before the queue
  private boolean draining;
  private boolean resetPending;
  private LiveCollection.End ending; // set when the mailbox takes no more; completes once drained

  public Delivery(Consumer<T> callback, SubscribeOptions options, Function<Delivery<T>, T> resetter, Consumer<Throwable> reporter) {
    this.callback = callback;
    this.executor = options.executor();
    this.capacity = options.capacity();
    this.resetter = resetter;
    this.reporter = reporter;
  }

  public CompletableFuture<LiveCollection.End> ended() {
    return ended;
  }

  /** Whether the mailbox still takes deliveries. */
  public synchronized boolean open() {
    return ending == null;
  }

  /**
   * Makes {@code first} the next delivery, built when the drain reaches it, and marks the mailbox
   * as draining, so that later offers only queue until {@link #startDraining} runs (used for an
   * initial state, captured under the database's monitor and built and delivered after it is
   * released).
   */
  public synchronized void hold(Supplier<T> first) {
    this.first = first;
    draining = true;
  }

  /** Delivers what {@link #hold} kept and what came since: here when synchronous. */
  public void startDraining() {
    if (executor == null) {
      drain();
    } else {
      schedule();
    }
  }

  public void offer(T item) {
    synchronized (this) {
      if (ending != null || resetPending) {
        return; // ended, or a coming reset covers this delivery
      }
      if (queue.size() >= capacity) {
        if (resetter != null) {
          queue.clear();
          resetPending = true;
        } else {
          ending = LiveCollection.End.OVERFLOW;
        }
        reporter.accept(new SubscriptionOverflowException(capacity, resetter != null));
      } else {
        queue.add(item);
      }
      if (draining) {
        return;
      }
      draining = true;
    }
    if (executor == null) {
      drain();
    } else {
      schedule();
    }
  }

  /** Ends the mailbox at once: nothing queued is delivered any more. */
  public void close(LiveCollection.End why) {
    synchronized (this) {
      queue.clear();
      resetPending = false;
      if (ending == null) {
        ending = why;
      }
      if (draining) {
        return; // the draining thread completes it
      }
    }
    ended.complete(why);
  }

  /** Called by the resetter, under the database's monitor: later offers queue again. */
  public synchronized void resetTaken() {
    resetPending = false;
  }

  private void schedule() {
    try {
      executor.execute(this::drain);
    } catch (RejectedExecutionException e) {
      reporter.accept(e);
      close(LiveCollection.End.CLOSED);
      synchronized (this) {
        draining = false;
      }
      ended.complete(LiveCollection.End.CLOSED);
    }
  }

  private void drain() {
    while (true) {
      T next;
      boolean reset;
      Supplier<T> build;
      synchronized (this) {
        build = first;
        first = null;
        reset = build == null && resetPending;
        next = reset || build != null ? null : queue.poll();
        if (build == null && !reset && next == null) {
          draining = false;
          if (ending != null) {
            ended.complete(ending);
          }
          return;
        }
      }
      try {
        if (build != null) {
          next = build.get();
        } else if (reset) {
          next = resetter.apply(this); // takes the database's monitor and calls resetTaken
        }
        callback.accept(next);
      } catch (Throwable e) { // whatever a callback throws is its own failure, reported
        reporter.accept(e);
      }
    }
  }
}
