package dev.rivulet.query;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * A lazy source whose requests a test completes when and in the order it chooses. It records
 * every request with its cancellation and future, and by default ignores cancellation (a
 * non-conforming source), so tests can show that the database alone keeps obsolete results out.
 * Rows are selected naively from a fixed table (the predicate only: tests using it ask without
 * order or limit). Thread-safe.
 */
final class ControlledLazySource implements LazySource {
  /** One request the database made. */
  record Call(SubsetRequest request, Cancellation cancellation, CompletableFuture<List<Row>> future) {
    boolean cancelled() {
      return cancellation.isCancelled();
    }
  }

  private final Schema schema;
  private final List<Row> table;
  private final List<Call> calls = new ArrayList<>();

  ControlledLazySource(Schema schema, List<Row> table) {
    this.schema = schema;
    this.table = List.copyOf(table);
  }

  @Override
  public synchronized CompletableFuture<List<Row>> load(SubsetRequest request, Cancellation cancellation) {
    Call c = new Call(request, cancellation, new CompletableFuture<>());
    calls.add(c);
    return c.future();
  }

  synchronized List<Call> calls() {
    return List.copyOf(calls);
  }

  synchronized Call call(int i) {
    return calls.get(i);
  }

  /** The table's rows the request's predicate selects (a naive scan). */
  List<Row> select(SubsetRequest request) {
    int[] cols = new int[request.columns().size()];
    for (int i = 0; i < cols.length; i++) {
      cols[i] = schema.indexOf(request.columns().get(i));
    }
    Set<Row> values = new HashSet<>(request.values());
    List<Row> out = new ArrayList<>();
    for (Row r : table) {
      if (values.contains(r.project(cols))) {
        out.add(r);
      }
    }
    return out;
  }

  /** Completes call {@code i} with its rows, on this thread, whether or not it was cancelled. */
  void complete(int i) {
    Call c = call(i);
    c.future().complete(select(c.request()));
  }

  /** Completes call {@code i} on a new thread and waits for that thread to finish. */
  void completeOnThread(int i) throws InterruptedException {
    Thread t = new Thread(() -> complete(i), "completer-" + i);
    t.start();
    t.join(10_000);
    if (t.isAlive()) {
      throw new AssertionError("completing call " + i + " did not finish");
    }
  }
}
