package dev.rivulet.query;

import dev.rivulet.query.face.Delivery;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * A subscription to the window face of an ordered live query (fabriq's live window): deliveries
 * are {@link WindowBatch}es, the first a reset to the current window, then one per transaction
 * that changed it. {@link #reanchor} moves the window to another cursor and limit without a new
 * subscription: the subscriber receives the steps from the old window to the new one, then follows
 * the new one.
 *
 * <p>Concurrency: every method takes the database's monitor; deliveries go through one mailbox
 * (see {@link SubscribeOptions}), so a reanchor's steps are delivered between two transactions'.
 */
public final class LiveWindow implements LiveCollection.Subscription {
  private final LiveQuery origin;
  private LiveQuery followed; // origin, or a query this window owns after a reanchor
  private Subscriber<WindowBatch> subscriber;
  private int anchors;

  LiveWindow(LiveQuery origin, SubscribeOptions options, Consumer<WindowBatch> listener) {
    this.origin = origin;
    this.followed = origin;
    this.subscriber = origin.order().register(options, listener, this::reset);
  }

  /** The window now: its rows with their indexes and cursors. */
  public WindowSnapshot snapshot() {
    synchronized (origin.db) {
      return followed.order().snapshot(origin.db.lastTxId());
    }
  }

  /**
   * Moves the window to the rows strictly after {@code cursor} (null: from the head), at most
   * {@code limit} of them, in the same order. The subscriber receives, between two transactions,
   * the steps that turn the window it has into the new one.
   *
   * @throws QueryException when the cursor does not fit the order (see {@link Query#after})
   */
  public void reanchor(Cursor cursor, long limit) {
    if (limit < 0) {
      throw new QueryException("reanchor: the limit must not be negative, not " + limit);
    }
    Rivulet db = origin.db;
    synchronized (db) {
      db.checkNotPublishing("reanchor a window");
      if (!subscriber.delivery.open()) {
        throw new IllegalStateException("reanchor: the window subscription has ended");
      }
      Query q = origin.query().withAfter(cursor).limit(limit);
      LiveQuery next = db.liveQuery(origin.name() + "#window" + (++anchors), q, origin.customKey());
      List<WindowDelta> steps = followed.order().diffTo(next.order(), db.lastTxId());
      Subscriber<WindowBatch> moved = next.order().adopt(subscriber.delivery);
      followed.order().drop(subscriber);
      if (followed != origin) {
        followed.close(); // a re-anchored window's own query: closing forgets it
      }
      followed = next;
      subscriber = moved;
      if (!steps.isEmpty()) {
        moved.delivery.offer(new WindowBatch(db.lastTxId(), steps));
      }
    }
  }

  @Override
  public void close() {
    synchronized (origin.db) {
      followed.order().drop(subscriber);
      if (followed != origin) {
        followed.close();
      }
    }
    subscriber.delivery.close(LiveCollection.End.CLOSED);
  }

  @Override
  public CompletableFuture<LiveCollection.End> ended() {
    return subscriber.delivery.ended();
  }

  /** After an overflow: a reset to the window followed now. */
  private WindowBatch reset(Delivery<WindowBatch> d) {
    synchronized (origin.db) {
      d.resetTaken();
      return followed.order().reset(origin.db.lastTxId());
    }
  }
}
