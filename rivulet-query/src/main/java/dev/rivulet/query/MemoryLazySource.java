package dev.rivulet.query;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.engine.SchemaException;
import dev.rivulet.query.demand.SortKeys;
import dev.rivulet.query.demand.SubsetIndex;
import dev.rivulet.query.state.RowTable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * A {@link LazySource} over rows held in memory, with ordered indexes: {@link #index} declares
 * one on some columns and an order, and a request on those columns in that order (or in no order,
 * without a cursor) is served by lookups of its values, each seeking the cursor by binary search
 * and reading only the rows it returns. A request on those columns in another order reads each
 * of its values' rows and sorts them; a request no index serves scans every row. {@link #rowsScanned()} counts the rows
 * read, so tests and benchmarks can show that a request reads the demanded rows, not the table.
 *
 * <p>A request is served on the executor given to the constructor, or at once, inside {@link
 * #load}, without one. It honors its cancellation: a request cancelled before it completes
 * completes with a {@link CancellationException} and never with rows.
 *
 * <p>Thread-safe: its own monitor guards the rows, the indexes and the counters; futures are
 * completed outside it.
 */
public final class MemoryLazySource implements LazySource {
  private final Schema schema;
  private final List<String> keyColumns;
  private final int[] keys;
  private final Executor executor; // null: complete in load()
  private final RowTable rows; // by key (primitive keys while the key is one integer)
  private final List<SubsetIndex> indexes = new ArrayList<>();
  private long scanned;
  private long served;
  private final List<java.util.function.Consumer<List<SourceChange>>> listeners =
      new java.util.concurrent.CopyOnWriteArrayList<>();

  /** A source that completes each request at once, inside {@link #load}. */
  public MemoryLazySource(Schema schema, List<String> keyColumns) {
    this(schema, keyColumns, null);
  }

  /** A source that serves each request on {@code executor} (null: at once, inside {@link #load}). */
  public MemoryLazySource(Schema schema, List<String> keyColumns, Executor executor) {
    this.schema = schema;
    this.keyColumns = List.copyOf(keyColumns);
    this.keys = schema.indexesOf(keyColumns);
    this.rows = new RowTable(keys);
    this.executor = executor;
  }

  /**
   * Declares an ordered index on {@code columns} (the request's predicate columns) in {@code
   * order}, built from the current rows by sorting each value's rows once (not counted as
   * scanned).
   *
   * @throws QueryException naming an unknown column
   */
  public synchronized MemoryLazySource index(List<String> columns, List<SubsetRequest.Order> order) {
    SubsetIndex index = new SubsetIndex(positions(columns), columns, orderSpec(order), sortKeys(order));
    index.build(allRows());
    indexes.add(index);
    return this;
  }

  /**
   * Inserts or replaces many rows as one change of the source: like {@link #put} for each, but
   * the lazy collections over it get one list, and when the rows outnumber those held the
   * indexes are rebuilt by sorting instead of updated row by row (the fast way to load a source).
   *
   * @throws SchemaException naming the first row that does not fit, before anything changes
   */
  public void putAll(java.util.Collection<Row> newRows) {
    List<Row> checked = new ArrayList<>(newRows.size());
    for (Row row : newRows) {
      try {
        schema.check(row);
      } catch (SchemaException e) {
        throw new SchemaException("memory lazy source: " + e.getMessage());
      }
      checked.add(row.canonical());
    }
    List<SourceChange> changes = listeners.isEmpty() ? null : new ArrayList<>(checked.size());
    synchronized (this) {
      boolean rebuild = checked.size() > rows.size();
      rows.reserve(rows.size() + checked.size());
      for (Row r : checked) {
        Row old = rows.putRow(r);
        if (!rebuild) {
          for (SubsetIndex index : indexes) {
            if (old != null) {
              index.remove(old);
            }
            index.add(r);
          }
        }
        if (changes != null) {
          changes.add(old == null ? new SourceChange.Add(r) : new SourceChange.Edit(r, old));
        }
      }
      if (rebuild) {
        List<Row> all = allRows();
        indexes.forEach(index -> index.build(all));
      }
    }
    if (changes != null && !changes.isEmpty()) {
      for (java.util.function.Consumer<List<SourceChange>> l : listeners) {
        l.accept(changes);
      }
    }
  }

  /**
   * Inserts or replaces the row with {@code row}'s key; the lazy collections over this source
   * get the change (an add, or an edit of the old row) and apply it where their held requests
   * cover it.
   */
  public void put(Row row) {
    Row r = row.canonical();
    Row old;
    synchronized (this) {
      try {
        schema.check(row);
      } catch (SchemaException e) {
        throw new SchemaException("memory lazy source: " + e.getMessage());
      }
      old = rows.putRow(r);
      for (SubsetIndex index : indexes) {
        if (old != null) {
          index.remove(old);
        }
        index.add(r);
      }
    }
    tell(old == null ? new SourceChange.Add(r) : new SourceChange.Edit(r, old));
  }

  /** Deletes the row with {@code key} (the lazy collections over this source get the removal); whether there was one. */
  public boolean delete(Row key) {
    Row old;
    synchronized (this) {
      old = rows.remove(key.canonical());
      if (old != null) {
        indexes.forEach(index -> index.remove(old));
      }
    }
    if (old != null) {
      tell(new SourceChange.Remove(old));
    }
    return old != null;
  }

  @Override
  public void onChange(java.util.function.Consumer<List<SourceChange>> listener) {
    listeners.add(listener);
  }

  /** Tells the listeners, holding no lock (a listener takes its database's). */
  private void tell(SourceChange change) {
    for (java.util.function.Consumer<List<SourceChange>> l : listeners) {
      l.accept(List.of(change));
    }
  }

  private List<Row> allRows() {
    List<Row> out = new ArrayList<>(rows.size());
    rows.forEachRow(out::add);
    return out;
  }

  public synchronized int size() {
    return rows.size();
  }

  /** Rows read by all requests served so far. */
  public synchronized long rowsScanned() {
    return scanned;
  }

  /** Requests served so far (cancelled ones that were never served are not counted). */
  public synchronized long requestsServed() {
    return served;
  }

  @Override
  public CompletableFuture<List<Row>> load(SubsetRequest request, Cancellation cancellation) {
    CompletableFuture<List<Row>> result = new CompletableFuture<>();
    cancellation.onCancel(() -> result.completeExceptionally(new CancellationException("request cancelled")));
    Runnable task = () -> {
      if (cancellation.isCancelled()) {
        return; // completed by the cancellation
      }
      try {
        List<Row> out = serve(request);
        if (!cancellation.isCancelled()) { // honored immediately before handing the baseline over
          result.complete(out);
        }
      } catch (RuntimeException e) {
        result.completeExceptionally(e);
      }
    };
    if (executor == null) {
      task.run();
    } else {
      executor.execute(task);
    }
    return result;
  }

  /** The rows {@code request} selects, per value in the request's order. */
  synchronized List<Row> serve(SubsetRequest request) {
    served++;
    List<String> spec = orderSpec(request.order());
    SortKeys sortKeys = sortKeys(request.order());
    if (request.after() != null && request.after().width() != sortKeys.width()) {
      throw new QueryException("memory lazy source: cursor " + request.after() + " has " + request.after().width()
          + " values; the order " + spec + " then the key " + keyColumns + " need " + sortKeys.width());
    }
    List<Row> out = new ArrayList<>();
    boolean unordered = request.order().isEmpty() && request.after() == null;
    for (SubsetIndex index : indexes) {
      // An index in another order still serves a request in no order (its rows per value are all wanted).
      if (index.serves(request.columns(), spec) || unordered && index.serves(request.columns())) {
        for (Row value : request.values()) {
          scanned += index.collect(value, unordered ? null : request.after(), request.limit(), out);
        }
        return Collections.unmodifiableList(out);
      }
    }
    for (SubsetIndex index : indexes) {
      if (index.serves(request.columns())) { // in another order: read each value's rows, then sort them
        List<Row> all = new ArrayList<>();
        for (Row value : request.values()) {
          all.clear();
          scanned += index.all(value, all);
          all.sort(sortKeys::compareRows);
          int taken = 0;
          for (Row r : all) {
            if (taken == request.limit()) {
              break;
            }
            if (request.after() == null || sortKeys.compareRowToKey(r, request.after()) > 0) {
              out.add(r);
              taken++;
            }
          }
        }
        return Collections.unmodifiableList(out);
      }
    }
    return scanAll(request, sortKeys, out);
  }

  /** Serves a request no index serves: reads every row. */
  private List<Row> scanAll(SubsetRequest request, SortKeys sortKeys, List<Row> out) {
    int[] columns = positions(request.columns());
    Set<Row> wanted = new HashSet<>(request.values());
    Map<Row, TreeMap<Row, Row>> byValue = new LinkedHashMap<>();
    for (Row r : allRows()) {
      scanned++;
      Row value = r.project(columns);
      if (wanted.contains(value)) {
        byValue.computeIfAbsent(value, v -> new TreeMap<>(sortKeys)).put(sortKeys.of(r), r);
      }
    }
    for (Row value : request.values()) {
      TreeMap<Row, Row> selected = byValue.getOrDefault(value, new TreeMap<>(sortKeys));
      int taken = 0;
      for (Row r : (request.after() == null ? selected : selected.tailMap(request.after(), false)).values()) {
        if (taken++ == request.limit()) {
          break;
        }
        out.add(r);
      }
    }
    return Collections.unmodifiableList(out);
  }

  private SortKeys sortKeys(List<SubsetRequest.Order> order) {
    int[] columns = new int[order.size()];
    boolean[] descending = new boolean[order.size()];
    boolean[] nullsFirst = new boolean[order.size()];
    for (int i = 0; i < columns.length; i++) {
      columns[i] = position(order.get(i).column());
      descending[i] = order.get(i).descending();
      nullsFirst[i] = order.get(i).nullsFirst();
    }
    return new SortKeys(columns, descending, nullsFirst, keys);
  }

  /** The order as an index matches it; a NOT NULL column's NULL placement does not matter. */
  private List<String> orderSpec(List<SubsetRequest.Order> order) {
    List<String> spec = new ArrayList<>(order.size());
    for (SubsetRequest.Order o : order) {
      boolean nullable = schema.column(position(o.column())).nullable();
      spec.add(nullable ? o.spec() : o.column() + (o.descending() ? " desc" : " asc"));
    }
    return spec;
  }

  private int[] positions(List<String> columns) {
    int[] out = new int[columns.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = position(columns.get(i));
    }
    return out;
  }

  private int position(String column) {
    if (!schema.has(column)) {
      throw new QueryException("memory lazy source: unknown column '" + column + "'; known columns: " + schema.names());
    }
    return schema.indexOf(column);
  }
}
