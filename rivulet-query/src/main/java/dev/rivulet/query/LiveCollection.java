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

  /** Completes when the collection first becomes ready (or exceptionally when it fails). */
  CompletableFuture<Void> ready();

  /** The row with key {@code key}. */
  Optional<Row> get(Row key);

  /** The rows, in the query's order for an ordered query, else in no particular order. */
  List<Row> rows();

  int size();

  /**
   * Calls {@code listener} with the changes of each later transaction that changed this
   * collection. Runs on the writer's thread; keep it short and do not write from it.
   */
  Subscription subscribe(Consumer<List<ChangeEvent>> listener);

  /**
   * Closes this collection: its status becomes {@link Status#CLOSED}, its listeners are dropped,
   * a live query stops running and a source collection refuses further writes. Its last rows
   * stay readable, and live queries that read it get no further changes from it. Idempotent.
   */
  void close();

  /** Stops a listener. */
  interface Subscription extends AutoCloseable {
    @Override
    void close();
  }
}
