package dev.rivulet.query.demand;

import dev.rivulet.engine.Row;
import dev.rivulet.query.SubsetRequest;

/**
 * One request of a demand plan to its source: the values it covers (coalesced from one flush),
 * or a refill of one value of a limited request (its window's rows after the boundary); its generation (unique, increasing; the only way a settlement names it), its cancellation
 * signal, and its state. Its owners are the demanded values that hold a lease
 * on it: its plan's, and those of equal plans that reuse it.
 * Guarded by the monitor that guards its {@link DemandLedger}.
 *
 * @param <T> the ledger's target type (the collection the plan loads into)
 */
public final class DemandRequest<T> {
  enum State {
    PENDING,
    SETTLED,
    FAILED
  }

  private final long generation;
  final DemandPlan<T> plan;
  private final SubsetRequest request;
  private final CancellationSignal signal = new CancellationSignal();
  private final DemandRequest<T> base; // a refill's base request, or null
  private final java.util.Map<Row, BucketWindow<T>> windows; // per value, for a limited plan's base request
  State state = State.PENDING;
  int owners;
  boolean current = true; // false once cancelled: nothing it settles counts any more

  DemandRequest(long generation, DemandPlan<T> plan, SubsetRequest request, DemandRequest<T> base) {
    this.generation = generation;
    this.plan = plan;
    this.request = request;
    this.base = base;
    if (base == null && plan.limited()) {
      windows = new java.util.HashMap<>();
      for (Row v : request.values()) {
        windows.put(v, new BucketWindow<>(this, v));
      }
    } else {
      windows = null;
    }
  }

  /** Whether its plan limits each value's rows (its values have {@link BucketWindow}s). */
  public boolean limited() {
    return plan.limited();
  }

  /** The request a refill extends, or null for a request of the plan's demand. */
  public DemandRequest<T> base() {
    return base;
  }

  /** The window of {@code value} of a limited base request (null otherwise, or for a value it does not cover). */
  public BucketWindow<T> window(Row value) {
    return windows == null ? null : windows.get(value);
  }

  /** The plan's sort keys (its order then the target's key), for a limited plan. */
  public SortKeys sortKeys() {
    return plan.sortKeys;
  }

  /** The plan's columns: what the request's values are values of. */
  public java.util.List<String> columns() {
    return plan.columns;
  }

  /** The positions of the plan's columns in the target's rows (shared: do not modify). */
  public int[] columnPositions() {
    return plan.columnPositions;
  }

  java.util.Collection<BucketWindow<T>> windows() {
    return windows == null ? java.util.List.of() : windows.values();
  }

  public long generation() {
    return generation;
  }

  public T target() {
    return plan.target;
  }

  public SubsetRequest request() {
    return request;
  }

  public CancellationSignal cancellation() {
    return signal;
  }

  @Override
  public String toString() {
    return (base == null ? "request #" : "refill #") + generation + " of plan '" + plan.id + "' for "
        + request.columns() + " IN " + request.values() + (request.after() == null ? "" : " after " + request.after());
  }
}
