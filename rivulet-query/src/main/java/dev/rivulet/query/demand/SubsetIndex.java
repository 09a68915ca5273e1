package dev.rivulet.query.demand;

import dev.rivulet.engine.Row;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * An ordered index of an in-memory lazy source: rows by the values of some columns, and within
 * one value sorted by {@link SortKeys}, so a request for a value reads only that value's rows, from
 * the cursor on, and stops at the limit. Not thread-safe: its source's monitor guards it.
 */
public final class SubsetIndex {
  private final int[] columns;
  private final List<String> columnNames;
  private final List<String> orderSpec; // "column asc|desc" per order column, to match requests
  private final SortKeys sortKeys;
  private final Map<Row, TreeMap<Row, Row>> byValue = new HashMap<>();

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

  public void add(Row row) {
    byValue.computeIfAbsent(row.project(columns), v -> new TreeMap<>(sortKeys)).put(sortKeys.of(row), row);
  }

  public void remove(Row row) {
    Row value = row.project(columns);
    TreeMap<Row, Row> rows = byValue.get(value);
    if (rows != null && rows.remove(sortKeys.of(row)) != null && rows.isEmpty()) {
      byValue.remove(value);
    }
  }

  /**
   * Appends to {@code out} the first {@code limit} rows of {@code value} strictly after {@code
   * after} (null: from the start); returns how many rows it read.
   */
  public int collect(Row value, Row after, int limit, List<Row> out) {
    TreeMap<Row, Row> rows = byValue.get(value);
    if (rows == null) {
      return 0;
    }
    NavigableMap<Row, Row> from = after == null ? rows : rows.tailMap(after, false);
    int read = 0;
    for (Row r : from.values()) {
      if (read == limit) {
        break;
      }
      out.add(r);
      read++;
    }
    return read;
  }
}
