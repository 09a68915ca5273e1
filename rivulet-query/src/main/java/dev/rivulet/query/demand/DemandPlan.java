package dev.rivulet.query.demand;

import dev.rivulet.engine.Row;
import dev.rivulet.query.SubsetRequest;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A compiled demand plan's state in its {@link DemandLedger}: what one include (or a root) asks
 * of one lazy target, the demanded parameter values with their multiplicity, and which request
 * covers each. Guarded by the ledger's monitor.
 */
final class DemandPlan<T> {
  final String id;
  final T target;
  final List<String> columns;
  /** The positions of {@link #columns} in the target's rows, resolved when the plan registers. */
  final int[] columnPositions;
  final List<SubsetRequest.Order> order;
  final int limit;
  /** The order then the target's key, for a limited plan (null: unlimited). */
  final SortKeys sortKeys;
  /** Which rows count toward a limited plan's limit (null: all). */
  final java.util.function.Predicate<Row> filter;
  /** Demanded values: active buckets per value (always positive). */
  final Map<Row, Long> counts = new HashMap<>();
  /** Values whose demanded-ness changed since the last flush. */
  final Set<Row> dirty = new LinkedHashSet<>();
  /** The request each demanded value holds a lease on. */
  final Map<Row, DemandRequest<T>> leases = new HashMap<>();
  /**
   * The current, not failed request covering each value (held or not): reused by a new demand.
   * Shared by the plans of one shape (target, columns, order, limit), so that equal plans of
   * different queries share their requests.
   */
  final Map<Row, DemandRequest<T>> coverage;
  boolean unregistered;

  DemandPlan(String id, T target, List<String> columns, int[] columnPositions, List<SubsetRequest.Order> order,
      int limit, SortKeys sortKeys, java.util.function.Predicate<Row> filter, Map<Row, DemandRequest<T>> coverage) {
    if (columnPositions.length != columns.size()) {
      throw new IllegalArgumentException("demand plan '" + id + "': " + columnPositions.length
          + " column positions for columns " + columns);
    }
    this.columnPositions = columnPositions.clone();
    this.filter = filter;
    this.sortKeys = limit == SubsetRequest.UNLIMITED ? null : java.util.Objects.requireNonNull(sortKeys, "sort keys");
    this.id = id;
    this.coverage = coverage;
    this.target = target;
    this.columns = List.copyOf(columns);
    this.order = List.copyOf(order);
    this.limit = limit;
  }

  boolean limited() {
    return sortKeys != null;
  }

  SubsetRequest requestFor(List<Row> values) {
    return new SubsetRequest(columns, values, order, limit, null);
  }

  /** A refill of {@code value}: its rows after {@code after}, {@code missing} of them. */
  SubsetRequest refillFor(Row value, Row after, int missing) {
    return new SubsetRequest(columns, List.of(value), order, missing, after);
  }
}
