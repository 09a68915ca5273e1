package dev.rivulet.query;

import dev.rivulet.query.face.Delivery;
import dev.rivulet.query.face.Publication;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * A registered subscription of one collection: its face turns each transaction's {@link
 * Publication} into the delivery that face hands out (null: nothing for this subscriber), and its
 * {@link Delivery} mailbox hands it to the callback.
 *
 * <p>Guarded by the database's monitor, except the mailbox, which has its own.
 */
final class Subscriber<T> implements LiveCollection.Subscription {
  private final BaseCollection collection;
  private final Function<Publication, T> face;
  final Delivery<T> delivery;
  private final long after; // the transaction it starts after (it may subscribe while that one publishes)
  private final boolean events;
  private final boolean tree;

  /**
   * @param after the id of the transaction the subscription starts after
   * @param events whether the face reads keyed events
   */
  Subscriber(BaseCollection collection, Function<Publication, T> face, Delivery<T> delivery, long after,
      boolean events) {
    this(collection, face, delivery, after, events, false);
  }

  /** @param tree whether the face reads the stored changes (the change-tree face) */
  Subscriber(BaseCollection collection, Function<Publication, T> face, Delivery<T> delivery, long after,
      boolean events, boolean tree) {
    this.collection = collection;
    this.face = face;
    this.delivery = delivery;
    this.after = after;
    this.events = events;
    this.tree = tree;
  }

  boolean readsEvents() {
    return events;
  }

  boolean readsTree() {
    return tree;
  }

  void publish(Publication p) {
    if (p.txId <= after) {
      return; // subscribed from a callback of this transaction: its state was the starting point
    }
    T item = face.apply(p);
    if (item != null) {
      delivery.offer(item);
    }
  }

  @Override
  public void close() {
    collection.unsubscribe(this);
    delivery.close(LiveCollection.End.CLOSED);
  }

  @Override
  public CompletableFuture<LiveCollection.End> ended() {
    return delivery.ended();
  }
}
