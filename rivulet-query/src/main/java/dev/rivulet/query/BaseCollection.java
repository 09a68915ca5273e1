package dev.rivulet.query;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.engine.ZSet;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * What source collections and live queries share: the keyed rows of the last published
 * transaction, the status lifecycle, the ready signal, and listeners. A transaction's changes are
 * staged with {@link #stage} while the owning {@link Rivulet} runs it, and handed to listeners by
 * {@link #publish} once every collection has installed its state.
 *
 * <p>All mutable state is guarded by the owning {@link Rivulet}'s monitor.
 */
abstract class BaseCollection implements LiveCollection {
  final Rivulet db;
  private final String name;
  final Schema schema;
  private final List<String> keyColumns;
  final int[] keyIndexes;
  final RowTable rows;
  /** Per key touched in the running transaction: {row before it, row now}; net at publish. */
  private final Map<Row, Row[]> staged = new LinkedHashMap<>();
  private final List<Consumer<List<ChangeEvent>>> listeners = new CopyOnWriteArrayList<>();
  private final CompletableFuture<Void> ready = new CompletableFuture<>();
  private Status status = Status.IDLE;
  private Throwable error;

  BaseCollection(Rivulet db, String name, Schema schema, List<String> keyColumns) {
    this.db = db;
    this.name = name;
    this.schema = schema;
    this.keyColumns = List.copyOf(keyColumns);
    this.keyIndexes = schema.indexesOf(keyColumns);
    this.rows = new RowTable(rowsHoldKeys() ? keyIndexes : null);
  }

  /** Whether stored rows hold their key at {@link #keyIndexes} (else keys are given apart). */
  abstract boolean rowsHoldKeys();

  /** The key of a stored row (of a collection whose rows hold their keys). */
  final Row keyOf(Row row) {
    return row.project(keyIndexes);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Schema schema() {
    return schema;
  }

  @Override
  public List<String> keyColumns() {
    return keyColumns;
  }

  @Override
  public Status status() {
    synchronized (db) {
      return status;
    }
  }

  /** The status, for callers already holding the database's monitor. */
  Status statusNow() {
    return status;
  }

  @Override
  public Throwable error() {
    synchronized (db) {
      return error;
    }
  }

  @Override
  public CompletableFuture<Void> ready() {
    return ready;
  }

  @Override
  public Optional<Row> get(Row key) {
    synchronized (db) {
      return Optional.ofNullable(rows.get(key));
    }
  }

  @Override
  public List<Row> rows() {
    synchronized (db) {
      return Collections.unmodifiableList(rows.rows());
    }
  }

  @Override
  public int size() {
    synchronized (db) {
      return rows.size();
    }
  }

  @Override
  public Subscription subscribe(Consumer<List<ChangeEvent>> listener) {
    listeners.add(listener);
    return () -> listeners.remove(listener);
  }

  /**
   * Installs {@code after} (null: absent) as the row of {@code key} and stages the key's change
   * (when anyone listens; events are the net change per key of the whole transaction); adds the
   * change to {@code delta} for downstream queries, unless it is null (nobody reads this
   * collection). {@code key} may be null when {@code after} holds it.
   */
  void install(Row key, Row after, ZSet.Builder delta) {
    Row before = after == null ? rows.remove(key) : key == null ? rows.putRow(after) : rows.put(key, after);
    if (before == null && after == null || after != null && after.equals(before)) {
      return;
    }
    if (delta != null) {
      if (before != null) {
        delta.add(sourceRow(key, before), -1);
      }
      if (after != null) {
        delta.add(sourceRow(key, after), 1);
      }
    }
    if (!listeners.isEmpty()) {
      if (key == null) {
        key = keyOf(after);
      }
      Row[] change = staged.get(key);
      if (change == null) {
        staged.put(key, new Row[] {before, after});
      } else {
        change[1] = after;
      }
    }
  }

  /** The form in which a row of this collection flows into queries that read it. */
  abstract Row sourceRow(Row key, Row row);

  /** Hands every current row, in its source form, to {@code action} (a hydration). */
  abstract void forEachSourceRow(java.util.function.Consumer<Row> action);

  /** Drops the staged events (after hydration, which nobody was subscribed to). */
  void discardStaged() {
    staged.clear();
  }

  /** Hands the staged events of the transaction to the listeners. */
  void publish() {
    if (staged.isEmpty()) {
      return;
    }
    List<ChangeEvent> events = new ArrayList<>(staged.size());
    staged.forEach((key, change) -> {
      Row before = change[0];
      Row after = change[1];
      if (before == null ? after != null : !before.equals(after)) {
        ChangeEvent.Type type = before == null ? ChangeEvent.Type.INSERT
            : after == null ? ChangeEvent.Type.DELETE : ChangeEvent.Type.UPDATE;
        events.add(new ChangeEvent(type, key, after, before));
      }
    });
    staged.clear();
    if (events.isEmpty()) {
      return;
    }
    for (Consumer<List<ChangeEvent>> l : listeners) {
      l.accept(events);
    }
  }

  void setStatus(Status next) {
    if (status == next) {
      return;
    }
    status = next;
    if (next == Status.READY) {
      ready.complete(null);
    }
  }

  @Override
  public void close() {
    synchronized (db) {
      status = Status.CLOSED;
      listeners.clear();
      staged.clear();
      ready.completeExceptionally(new IllegalStateException("collection '" + name + "' was closed"));
    }
  }

  /** Fails unless this collection is open for writes. */
  void checkOpen() {
    if (status == Status.CLOSED) {
      throw new IllegalStateException("collection '" + name + "' is closed");
    }
  }

  void fail(Throwable cause) {
    status = Status.ERROR;
    error = cause;
    staged.clear();
    ready.completeExceptionally(cause);
  }
}
