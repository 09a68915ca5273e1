package dev.rivulet.query;

import dev.rivulet.engine.Row;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * A keyed, live set of rows: a source collection or a live query's result. Reads see the state
 * of the last published transaction; listeners receive each transaction's changes once, after
 * every collection and live query affected by it has installed its new state.
 *
 * <p>Thread-safety: reads and subscriptions may come from any thread; all state belongs to the
 * owning {@link Rivulet} and is read and written under its monitor.
 */
public interface LiveCollection extends Source {
  Status status();

  /** The failure that put this collection in {@link Status#ERROR}, or null. */
  Throwable error();

  /**
   * Completes when the collection first becomes ready (or exceptionally when it fails or is
   * closed), once the transaction that made it so has been published: what it runs sees that whole
   * transaction and may write or create live queries.
   */
  CompletableFuture<Void> ready();

  /** The row with key {@code key}. */
  Optional<Row> get(Row key);

  /** The rows, in the query's order for an ordered query, else in no particular order. */
  List<Row> rows();

  /** The rows with their keys, in the order of {@link #rows()}. */
  List<KeyedRow> entries();

  int size();

  /** The id of the last published transaction of the database: the state that reads see. */
  long txId();

  /**
   * Calls {@code listener} with the changes of each later transaction that changed this
   * collection, synchronously (see {@link SubscribeOptions}): on the writer's thread, after the
   * whole transaction is installed; keep it short and do not write from it.
   */
  Subscription subscribe(Consumer<List<ChangeEvent>> listener);

  /**
   * The keyed-event face: each later transaction's net change per key, named by its transaction
   * id, and first, with {@link SubscribeOptions#withInitialState()}, the current rows as inserts,
   * atomically with the subscription (no transaction is missed or seen twice).
   */
  Subscription subscribe(SubscribeOptions options, Consumer<KeyedBatch> listener);

  /**
   * The change-batch face: {@link ChangeBatch.Hydrated} with the current rows first (atomically
   * with the subscription, whatever {@code options} says), then a {@link ChangeBatch.Changed} per
   * later transaction that changed this collection.
   */
  Subscription subscribeChanges(SubscribeOptions options, Consumer<ChangeBatch> listener);

  /**
   * The change-batch face as a pull sink: {@link ChangeSink#hydrate()} once, then {@link
   * ChangeSink#take()} for the transactions published since; at most {@code capacity} batches
   * wait between takes.
   */
  ChangeSink changeSink(int capacity);

  /**
   * The change-tree face: one {@link TreeBatch} with the current result as {@link
   * CaughtChange.Add}s (atomically with the subscription), then one per transaction that changed
   * the result, nested results as {@link CaughtChange.Child} changes.
   */
  Subscription subscribeTree(SubscribeOptions options, Consumer<TreeBatch> listener);

  /**
   * The change-tree face as a pull sink: {@link ChangeTreeSink#hydrate()} once, then {@link
   * ChangeTreeSink#take()} for the transactions published since; at most {@code capacity} batches
   * wait.
   */
  ChangeTreeSink changeTreeSink(int capacity);

  /**
   * Closes this collection: its status becomes {@link Status#CLOSED}, its listeners are dropped,
   * a live query stops running and a source collection refuses further writes (at the write
   * call) and takes no further changes (a pending transaction's confirm or rollback leaves it as
   * it is). Its last rows stay readable. Live queries that read it (directly or through other
   * live queries) go to {@link Status#ERROR} for good, their error naming it (from a callback:
   * at the next transaction), and a new live query over it is refused. Idempotent.
   */
  void close();

  /** Why a subscription ended. */
  enum End {
    /** Its owner closed it. */
    CLOSED,
    /** It fell more than its capacity behind (see {@link SubscribeOptions}). */
    OVERFLOW,
    /** The collection it read was closed. */
    SOURCE_CLOSED
  }

  /** A subscription; closing it stops its deliveries (idempotent). */
  interface Subscription extends AutoCloseable {
    @Override
    void close();

    /** Completes, after the subscription's last delivery, with why it ended. */
    CompletableFuture<End> ended();
  }
}
