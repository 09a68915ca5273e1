package dev.rivulet.query;

import dev.rivulet.engine.Row;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

/**
 * What a {@link LazySource} is asked to load: the rows whose {@code columns} hold one of {@code
 * values} (the predicate {@code (columns) IN (values)}); with no columns, every row (then {@code
 * values} is the one empty row).
 *
 * <p>{@code order}, {@code limit} and {@code after} apply within each value's rows: per value,
 * its rows in the order (then by key ascending, which makes it total), those strictly after the
 * keyset cursor {@code after} if given, the first {@code limit} of them. A source that returns
 * fewer than {@code limit} rows for a value says that the value has no more rows after them. A request is so the
 * union of one subset per value, and coalescing values into one request never changes what any
 * value gets.
 *
 * <p>Values are canonical, distinct, sorted (by {@link Row#compareTo}), each as wide as {@code
 * columns}. Immutable.
 *
 * @param after null, or a cursor: the order columns' values of the last row seen followed by its
 *     key columns' values
 */
public record SubsetRequest(List<String> columns, List<Row> values, List<Order> order, int limit, Row after) {
  /** The limit of a request without one. */
  public static final int UNLIMITED = Integer.MAX_VALUE;

  /**
   * A sort key: a column, its direction and where NULLs go. Without a placement, NULL sorts as
   * the smallest value: first ascending, last descending.
   */
  public record Order(String column, boolean descending, boolean nullsFirst) {
    public Order {
      Objects.requireNonNull(column, "order column");
    }

    /** {@code column} in {@code descending} order, NULL as the smallest value. */
    public Order(String column, boolean descending) {
      this(column, descending, !descending);
    }

    public static Order asc(String column) {
      return new Order(column, false);
    }

    public static Order desc(String column) {
      return new Order(column, true);
    }

    /** This key with NULLs first. */
    public Order withNullsFirst() {
      return new Order(column, descending, true);
    }

    /** This key with NULLs last. */
    public Order withNullsLast() {
      return new Order(column, descending, false);
    }

    /** {@code "column asc|desc nulls first|last"}. */
    public String spec() {
      return column + (descending ? " desc" : " asc") + (nullsFirst ? " nulls first" : " nulls last");
    }
  }

  public SubsetRequest {
    columns = List.copyOf(columns);
    order = List.copyOf(order);
    if (limit < 1) {
      throw new IllegalArgumentException("subset request: limit " + limit + " is not positive");
    }
    TreeSet<Row> sorted = new TreeSet<>();
    for (Row v : values) {
      if (v.width() != columns.size()) {
        throw new IllegalArgumentException("subset request on " + columns + ": value " + v + " has " + v.width()
            + " values");
      }
      sorted.add(v.canonical());
    }
    if (sorted.isEmpty()) {
      throw new IllegalArgumentException("subset request on " + columns + ": no values");
    }
    values = Collections.unmodifiableList(new ArrayList<>(sorted));
    after = after == null ? null : after.canonical();
  }

  /** The rows whose {@code columns} hold one of {@code values}, in no order, without limit. */
  public static SubsetRequest in(List<String> columns, List<Row> values) {
    return new SubsetRequest(columns, values, List.of(), UNLIMITED, null);
  }

  /**
   * The rows after cursor {@code after} (null: from the start), per value the first {@code limit}
   * in {@code order}.
   */
  public static SubsetRequest ordered(List<String> columns, List<Row> values, List<Order> order, int limit,
      Row after) {
    return new SubsetRequest(columns, values, order, limit, after);
  }

  /** Every row of the source. */
  public static SubsetRequest all() {
    return in(List.of(), List.of(Row.of()));
  }
}
