package dev.rivulet.query.demand;

import dev.rivulet.query.SubsetRequest;

/**
 * One request of a demand plan to its source: the values it covers (coalesced from one flush),
 * its generation (unique, increasing; the only way a settlement names it), its cancellation
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
  State state = State.PENDING;
  int owners;
  boolean current = true; // false once cancelled: nothing it settles counts any more

  DemandRequest(long generation, DemandPlan<T> plan, SubsetRequest request) {
    this.generation = generation;
    this.plan = plan;
    this.request = request;
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
    return "request #" + generation + " of plan '" + plan.id + "' for " + request.columns() + " IN "
        + request.values();
  }
}
