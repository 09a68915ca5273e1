package dev.rivulet.query.demand;

import dev.rivulet.engine.Row;
import java.util.HashSet;
import java.util.Set;

/**
 * What a limited request loaded of one value: a prefix of that value's rows in the plan's order
 * (see {@link SortKeys}). Once its request settles, the window holds exactly the source's rows
 * of the value whose sort key is at most the {@linkplain #boundary() boundary} (all of them when
 * it is {@linkplain #complete() complete}: the source had no more); rows the source holds past
 * the boundary are never in it, so they can never pass for the first rows. While fewer of its rows
 * than the plan's limit pass the plan's filter (all do without one) and it is not complete, a refill (the rows after the boundary, as many
 * as are missing) extends it.
 *
 * <p>Guarded by the monitor that guards its {@link DemandLedger}.
 */
public final class BucketWindow<T> {
  private final DemandRequest<T> base;
  private final Row value;
  private final Set<Row> keys = new HashSet<>();
  private final Set<Row> passing; // the keys whose rows pass the plan's filter; null without one (all pass)
  private boolean settled;
  private boolean complete;
  private Row boundary; // the sort key of the last row loaded; null until a full page settles
  DemandRequest<T> refill; // the pending refill, or null

  BucketWindow(DemandRequest<T> base, Row value) {
    this.base = base;
    this.value = value;
    this.passing = base.plan.filter == null ? null : new HashSet<>();
  }

  /** The request whose coverage of {@link #value()} this is. */
  public DemandRequest<T> base() {
    return base;
  }

  public Row value() {
    return value;
  }

  /** Whether a page of it settled (its boundary is known). */
  public boolean settled() {
    return settled;
  }

  /** Whether the source had no rows of the value past what it loaded. */
  public boolean complete() {
    return complete;
  }

  /** The sort key of the last row loaded (null before the first full page). */
  public Row boundary() {
    return boundary;
  }

  /** How many of the value's rows it holds. */
  public int size() {
    return keys.size();
  }

  /** Whether it holds the row of {@code key}. */
  public boolean holds(Row key) {
    return keys.contains(key);
  }

  /** Whether a refill of it is pending. */
  public boolean refilling() {
    return refill != null;
  }

  /** Whether the current row {@code row} of the value belongs in it: settled, and within the boundary. */
  public boolean accepts(Row row) {
    return settled && (complete || base.plan.sortKeys.compareRowToKey(row, boundary) <= 0);
  }

  /** Adds {@code row}, of {@code key} (a row it {@link #accepts}). */
  public void add(Row key, Row row) {
    keys.add(key);
    if (passing == null) {
      return;
    }
    if (passes(row)) {
      passing.add(key);
    } else {
      passing.remove(key);
    }
  }

  /** Whether {@code row} passes the plan's filter; one it fails to evaluate on does not count (the graph reports it). */
  private boolean passes(Row row) {
    try {
      return base.plan.filter.test(row);
    } catch (RuntimeException e) {
      return false;
    }
  }

  /** Removes the row of {@code key} (the source removed it, or it moved out); whether it held it. */
  public boolean remove(Row key) {
    if (passing != null) {
      passing.remove(key);
    }
    return keys.remove(key);
  }

  /** How many of its rows pass the plan's filter (all without one): what counts toward the limit. */
  public int passing() {
    return passing == null ? keys.size() : passing.size();
  }

  /**
   * Records a settled page of {@code loaded} rows of the value, asked for {@code asked}: fewer
   * means the source has no more; otherwise the boundary moves to the last of them ({@code
   * last}, the greatest in the plan's order).
   */
  public void page(int loaded, int asked, Row last) {
    settled = true;
    if (loaded < asked) {
      complete = true;
    } else if (boundary == null || base.plan.sortKeys.compareRowToKey(last, boundary) > 0) {
      boundary = base.plan.sortKeys.of(last);
    }
  }

  /** The rows missing to fill it to its plan's limit, or 0 when it need not (or cannot yet) be refilled. */
  public int missing() {
    if (!settled || complete || refill != null || !base.current) {
      return 0;
    }
    return Math.max(0, base.plan.limit - passing());
  }

  @Override
  public String toString() {
    return "window of " + value + " (" + keys.size() + " rows, " + (complete ? "complete" : "to " + boundary) + ")";
  }
}
