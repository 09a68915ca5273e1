package dev.rivulet.query.demand;

import dev.rivulet.engine.Row;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An ordered index of an in-memory lazy source: rows by the values of some columns, and within
 * one value a sorted array in {@link SortKeys} order, so a request for a value seeks its cursor by
 * binary search and reads only the rows it returns, stopping at the limit. {@link #build} makes
 * it from many rows by sorting each value's array once; {@link #add} and {@link #remove} keep it
 * sorted one row at a time (a shift of the value's array). Not thread-safe: its source's monitor
 * guards it.
 */
public final class SubsetIndex {
  private static final Row[] EMPTY = new Row[0];

  private final int[] columns;
  private final List<String> columnNames;
  private final List<String> orderSpec; // Order.spec() per order column, to match requests
  private final SortKeys sortKeys;
  private final Map<Row, Bucket> byValue = new HashMap<>();

  /** One value's rows, sorted, in the first {@code size} slots. */
  private static final class Bucket {
    Row[] rows = EMPTY;
    int size;

    void append(Row r) {
      if (size == rows.length) {
        rows = Arrays.copyOf(rows, Math.max(4, size * 2));
      }
      rows[size++] = r;
    }
  }

  public SubsetIndex(int[] columns, List<String> columnNames, List<String> orderSpec, SortKeys sortKeys) {
    this.columns = columns.clone();
    this.columnNames = List.copyOf(columnNames);
    this.orderSpec = List.copyOf(orderSpec);
    this.sortKeys = sortKeys;
  }

  /** Whether this index serves requests on {@code columnNames} in {@code orderSpec}. */
  public boolean serves(List<String> columnNames, List<String> orderSpec) {
    return this.columnNames.equals(columnNames) && this.orderSpec.equals(orderSpec);
  }

  /** Whether this index holds the rows of requests on {@code columnNames} (in whatever order). */
  public boolean serves(List<String> columnNames) {
    return this.columnNames.equals(columnNames);
  }

  /** Replaces the contents with {@code rows} (distinct keys): grouped by value, each value's array sorted once. */
  public void build(Collection<Row> rows) {
    byValue.clear();
    for (Row r : rows) {
      byValue.computeIfAbsent(r.project(columns), v -> new Bucket()).append(r);
    }
    for (Bucket b : byValue.values()) {
      Arrays.sort(b.rows, 0, b.size, sortKeys::compareRows);
    }
  }

  public void add(Row row) {
    Bucket b = byValue.computeIfAbsent(row.project(columns), v -> new Bucket());
    int at = find(b, row);
    if (at >= 0) {
      b.rows[at] = row; // same sort key: the same key, replaced
      return;
    }
    at = -at - 1;
    if (b.size == b.rows.length) {
      b.rows = Arrays.copyOf(b.rows, Math.max(4, b.size * 2));
    }
    System.arraycopy(b.rows, at, b.rows, at + 1, b.size - at);
    b.rows[at] = row;
    b.size++;
  }

  public void remove(Row row) {
    Row value = row.project(columns);
    Bucket b = byValue.get(value);
    if (b == null) {
      return;
    }
    int at = find(b, row);
    if (at < 0) {
      return;
    }
    System.arraycopy(b.rows, at + 1, b.rows, at, b.size - at - 1);
    b.rows[--b.size] = null;
    if (b.size == 0) {
      byValue.remove(value);
    }
  }

  /** Binary search for {@code row}'s sort key: its slot, or {@code -(insertion point) - 1}. */
  private int find(Bucket b, Row row) {
    int lo = 0;
    int hi = b.size - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int c = sortKeys.compareRows(b.rows[mid], row);
      if (c < 0) {
        lo = mid + 1;
      } else if (c > 0) {
        hi = mid - 1;
      } else {
        return mid;
      }
    }
    return -lo - 1;
  }

  /** The first slot whose row sorts strictly after sort key {@code after}. */
  private int after(Bucket b, Row after) {
    int lo = 0;
    int hi = b.size;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (sortKeys.compareRowToKey(b.rows[mid], after) <= 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** Appends to {@code out} every row of {@code value} (in this index's order); returns how many. */
  public int all(Row value, List<Row> out) {
    Bucket b = byValue.get(value);
    if (b == null) {
      return 0;
    }
    out.addAll(Arrays.asList(b.rows).subList(0, b.size));
    return b.size;
  }

  /**
   * Appends to {@code out} the first {@code limit} rows of {@code value} strictly after {@code
   * after} (null: from the start); returns how many rows it read (the cursor's seek reads none).
   */
  public int collect(Row value, Row after, int limit, List<Row> out) {
    Bucket b = byValue.get(value);
    if (b == null) {
      return 0;
    }
    int from = after == null ? 0 : after(b, after);
    int to = (int) Math.min(b.size, (long) from + limit);
    for (int i = from; i < to; i++) {
      out.add(b.rows[i]);
    }
    return to - from;
  }
}
