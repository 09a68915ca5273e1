package dev.rivulet.query.demand;

import dev.rivulet.engine.InvariantViolation;
import dev.rivulet.engine.Row;
import dev.rivulet.query.SubsetRequest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The coverage bookkeeping of the demand plane, free of I/O and of collections: demanded values
 * per plan, the requests covering them with their owners, generations and states, and readiness
 * per target.
 *
 * <ul>
 *   <li>{@link #change} records demand (a plan's parameter values with a weight: +1 when a bucket
 *       becomes active, -1 when it stops); {@link #flush} turns the values whose demanded-ness
 *       changed into leases. A newly demanded value reuses a current request that already
 *       covers it, of its plan or of an equal plan (same target, columns, order and limit: the
 *       same include in another query); the rest of one flush's new values of a plan become one
 *       request.
 *   <li>A request is cancelled when its last owner releases it, never before: then it is no
 *       longer current, and whatever it settles later is ignored ({@link #settle} returns null).
 *   <li>A target is settled when every value its plans demand holds a lease on a settled
 *       request and no refill of it is pending; a target whose plans demand nothing is settled.
 *   <li>A limited plan's request keeps a {@link BucketWindow} per value; {@link #refill} asks for
 *       a short window's next rows after its boundary. A refill is current while its base
 *       request is: it goes (cancelled, its settlement stale) with it.
 * </ul>
 *
 * <p>Not thread-safe: the database's monitor guards it (see the demand adapter).
 *
 * @param <T> what a plan loads into (a lazy collection)
 */
public final class DemandLedger<T> {
  /**
   * What a flush asks its caller to do: start requests, release requests (every one whose last
   * owner left, settled or not: the rows it loaded or adopted go), refresh targets.
   */
  public record Flush<T>(List<DemandRequest<T>> started, List<DemandRequest<T>> released, Set<T> touched) {}

  private static final class TargetState {
    int plans;
    long pendingLeases; // leases on requests not settled yet
    int failedRequests; // current requests that failed
    Throwable failure; // the first failure
  }

  /** What makes two plans' requests interchangeable: the target (by identity), the request's shape and the filter. */
  private record Shape(Object target, List<String> columns, List<SubsetRequest.Order> order, int limit,
      Object filter) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Shape s && s.target == target && s.columns.equals(columns) && s.order.equals(order)
          && s.limit == limit && s.filter == filter; // a filter by identity: filtered plans share nothing
    }

    @Override
    public int hashCode() {
      return System.identityHashCode(target) * 31 + java.util.Objects.hash(columns, order, limit);
    }
  }

  private final Map<String, DemandPlan<T>> plans = new HashMap<>();
  private final Map<Shape, Map<Row, DemandRequest<T>>> coverages = new HashMap<>(); // per shape, shared by its plans
  private final Set<DemandPlan<T>> dirtyPlans = new LinkedHashSet<>();
  private final Map<T, TargetState> targets = new LinkedHashMap<>();
  private final Map<Long, DemandRequest<T>> current = new HashMap<>();
  private final Set<T> touched = new LinkedHashSet<>();
  private final Map<T, List<DemandPlan<T>>> covering = new java.util.IdentityHashMap<>(); // cache, see coveringPlans
  private long generations;
  private long stale;

  /** Receives a current request covering a row's value, with that value (the row's values of its plan's columns). */
  public interface Holder<T> {
    void accept(DemandRequest<T> request, Row value);
  }

  /**
   * Calls {@code out} with each current request on {@code target} that covers the value {@code row}
   * has: held ones, and those still held for other values (whose coverage a new demand reuses). A
   * limited one covers only what its value's window {@linkplain BucketWindow#accepts accepts}.
   * The plans' column positions are resolved when they register; equal plans are read once.
   */
  public void forEachHolder(T target, Row row, Holder<T> out) {
    for (DemandPlan<T> p : coveringPlans(target)) {
      Row value = row.project(p.columnPositions);
      DemandRequest<T> r = p.coverage.get(value);
      if (r != null && r.current && r.state != DemandRequest.State.FAILED) {
        out.accept(r, value);
      }
    }
  }

  /** One plan per coverage (plans of one shape share it) on {@code target}; cached until the plans change. */
  private List<DemandPlan<T>> coveringPlans(T target) {
    List<DemandPlan<T>> out = covering.get(target);
    if (out == null) {
      out = new ArrayList<>();
      Set<Map<Row, DemandRequest<T>>> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
      for (DemandPlan<T> p : plans.values()) {
        if (p.target == target && seen.add(p.coverage)) {
          out.add(p);
        }
      }
      covering.put(target, out);
    }
    return out;
  }

  /**
   * Registers a plan: demand for {@code columns IN (...)} of {@code target}, per value the first
   * {@code limit} rows in {@code order}; {@code sortKeys} is that order then the target's key
   * (needed when limited, to keep each value's {@link BucketWindow}).
   */
  public void register(String planId, T target, List<String> columns, int[] columnPositions,
      List<SubsetRequest.Order> order, int limit, SortKeys sortKeys, java.util.function.Predicate<Row> filter) {
    if (plans.containsKey(planId)) {
      throw new IllegalArgumentException("demand plan '" + planId + "' is already registered");
    }
    if (limit < 1) {
      throw new IllegalArgumentException("demand plan '" + planId + "': limit " + limit + " is not positive");
    }
    Map<Row, DemandRequest<T>> coverage =
        coverages.computeIfAbsent(new Shape(target, List.copyOf(columns), List.copyOf(order), limit, filter),
            s -> new HashMap<>());
    DemandPlan<T> plan = new DemandPlan<>(planId, target, columns, columnPositions, order, limit, sortKeys, filter,
        coverage);
    plans.put(planId, plan);
    covering.remove(target);
    targets.computeIfAbsent(target, t -> new TargetState()).plans++;
    touched.add(target);
  }

  /** Withdraws all of a plan's demand; the next flush releases its leases and forgets it. */
  public void unregister(String planId) {
    DemandPlan<T> plan = plan(planId);
    plan.dirty.addAll(plan.counts.keySet());
    plan.counts.clear();
    plan.unregistered = true;
    dirtyPlans.add(plan);
  }

  /**
   * Adds {@code weight} to the demand for {@code params} (the values of the plan's columns). A
   * value with a NULL matches nothing under equality: it demands nothing.
   *
   * @throws InvariantViolation when a value's demand would go negative
   */
  public void change(String planId, Row params, long weight) {
    DemandPlan<T> plan = plan(planId);
    if (plan.unregistered) {
      throw new IllegalStateException("demand plan '" + planId + "' was unregistered");
    }
    if (params.width() != plan.columns.size()) {
      throw new IllegalArgumentException("demand plan '" + planId + "' on " + plan.columns + ": parameters " + params
          + " have " + params.width() + " values");
    }
    for (int i = 0; i < params.width(); i++) {
      if (params.isNull(i)) {
        return;
      }
    }
    Row value = params.canonical();
    long before = plan.counts.getOrDefault(value, 0L);
    long after = before + weight;
    if (after < 0) {
      throw new InvariantViolation("demand plan '" + planId + "': parameters " + value + " would be demanded " + after
          + " times");
    }
    if (after == 0) {
      plan.counts.remove(value);
    } else {
      plan.counts.put(value, after);
    }
    if ((before == 0) != (after == 0)) {
      plan.dirty.add(value);
      dirtyPlans.add(plan);
    }
  }

  /**
   * Turns the demand changed since the last flush into leases: returns the requests to start,
   * the settled requests released (their rows go), and the targets whose readiness may have
   * changed. Cancellation signals of released requests fire before it returns.
   */
  public Flush<T> flush() {
    List<DemandRequest<T>> started = new ArrayList<>();
    List<DemandRequest<T>> released = new ArrayList<>();
    List<DemandRequest<T>> cancelled = new ArrayList<>();
    for (DemandPlan<T> plan : dirtyPlans) {
      List<Row> fresh = new ArrayList<>();
      for (Row v : plan.dirty) { // new leases first, so a release cannot cancel what a new owner reuses
        if (plan.counts.containsKey(v) && !plan.leases.containsKey(v)) {
          DemandRequest<T> covering = plan.coverage.get(v);
          if (covering != null) {
            attach(plan, v, covering);
          } else {
            fresh.add(v);
          }
        }
      }
      for (Row v : plan.dirty) {
        DemandRequest<T> held = plan.leases.get(v);
        if (held != null && !plan.counts.containsKey(v)) {
          detach(plan, v, held, cancelled);
        }
      }
      plan.dirty.clear();
      if (!fresh.isEmpty()) {
        DemandRequest<T> r = new DemandRequest<>(++generations, plan, plan.requestFor(fresh), null);
        current.put(r.generation(), r);
        for (Row v : r.request().values()) {
          plan.coverage.put(v, r);
          attach(plan, v, r);
        }
        started.add(r);
      }
      if (plan.unregistered && plan.leases.isEmpty()) {
        plans.remove(plan.id);
        covering.remove(plan.target);
        targets.get(plan.target).plans--;
      }
      touched.add(plan.target);
    }
    dirtyPlans.clear();
    for (DemandRequest<T> r : cancelled) {
      released.add(r); // a pending one may hold rows its source added while it was pending
      r.cancellation().cancel();
    }
    Set<T> out = new LinkedHashSet<>(touched);
    touched.clear();
    return new Flush<>(started, released, out);
  }

  /** {@code plan}'s demand for {@code value} takes a lease on {@code r} (of its plan or an equal one). */
  private void attach(DemandPlan<T> plan, Row value, DemandRequest<T> r) {
    plan.leases.put(value, r);
    r.owners++;
    if (r.state == DemandRequest.State.PENDING) {
      targets.get(r.plan.target).pendingLeases++;
    }
  }

  private void detach(DemandPlan<T> plan, Row value, DemandRequest<T> r, List<DemandRequest<T>> cancelled) {
    plan.leases.remove(value);
    r.owners--;
    TargetState t = targets.get(r.plan.target);
    if (r.state == DemandRequest.State.PENDING) {
      t.pendingLeases--;
    }
    if (r.owners == 0) {
      r.current = false;
      current.remove(r.generation());
      uncover(r);
      if (r.state == DemandRequest.State.FAILED && --t.failedRequests == 0) {
        t.failure = null;
      }
      cancelled.add(r);
      for (BucketWindow<T> w : r.windows()) {
        if (w.refill != null) {
          retire(w.refill, t, cancelled);
          w.refill = null;
        }
      }
    }
  }

  /**
   * Withdraws every lease on {@code target}'s requests and marks the leased values as changed, so
   * that the next {@link #flush} covers all of the target's current demand with new requests (a
   * retry after a failure); returns the requests withdrawn: no longer current (what they settle
   * later is stale), their cancellations fired, the rows they loaded not released here.
   */
  public List<DemandRequest<T>> restart(T target) {
    List<DemandRequest<T>> withdrawn = new ArrayList<>();
    for (DemandPlan<T> plan : plans.values()) {
      if (plan.target != target || plan.leases.isEmpty()) {
        continue;
      }
      for (Row v : new ArrayList<>(plan.leases.keySet())) {
        detach(plan, v, plan.leases.get(v), withdrawn);
        plan.dirty.add(v);
      }
      dirtyPlans.add(plan);
    }
    touched.add(target);
    for (DemandRequest<T> r : withdrawn) {
      r.cancellation().cancel();
    }
    return withdrawn;
  }

  /** A refill whose base went: obsolete, its cancellation fired with the base's. */
  private void retire(DemandRequest<T> refill, TargetState t, List<DemandRequest<T>> cancelled) {
    refill.current = false;
    current.remove(refill.generation());
    if (refill.state == DemandRequest.State.PENDING) {
      t.pendingLeases--;
    } else if (refill.state == DemandRequest.State.FAILED && --t.failedRequests == 0) {
      t.failure = null;
    }
    cancelled.add(refill);
  }

  /**
   * Starts a refill of {@code window}: its value's next {@code missing} rows after its boundary,
   * which its target waits for (it is not settled while a refill is pending). The caller starts
   * the request; its rows, owned by the window's base request, extend the window.
   */
  public DemandRequest<T> refill(BucketWindow<T> window, int missing) {
    DemandRequest<T> base = window.base();
    if (!base.current || window.refill != null || missing < 1 || window.complete() || !window.settled()) {
      throw new IllegalStateException("no refill for " + window + " of " + base);
    }
    DemandRequest<T> r = new DemandRequest<>(++generations, base.plan,
        base.plan.refillFor(window.value(), window.boundary(), missing), base);
    current.put(r.generation(), r);
    window.refill = r;
    targets.get(base.plan.target).pendingLeases++;
    touched.add(base.plan.target);
    return r;
  }

  private void uncover(DemandRequest<T> r) {
    for (Row v : r.request().values()) {
      r.plan.coverage.remove(v, r);
    }
  }

  /** The current requests on {@code target} not settled yet. */
  public List<DemandRequest<T>> pendingOn(T target) {
    TargetState t = targets.get(target);
    if (t == null || t.pendingLeases == 0) {
      return List.of(); // a pending request has a lease (a base: its owners; a refill: its own)
    }
    List<DemandRequest<T>> out = new ArrayList<>();
    for (DemandRequest<T> r : current.values()) {
      if (r.state == DemandRequest.State.PENDING && r.plan.target == target) {
        out.add(r);
      }
    }
    return out;
  }

  /** The current request of {@code generation}, pending, or null when it is obsolete or done. */
  public DemandRequest<T> pending(long generation) {
    DemandRequest<T> r = current.get(generation);
    return r != null && r.state == DemandRequest.State.PENDING ? r : null;
  }

  /**
   * Marks request {@code generation} settled; returns it, or null (counted as stale) when it is
   * no longer current: an obsolete request never settles readiness.
   */
  public DemandRequest<T> settle(long generation) {
    DemandRequest<T> r = pending(generation);
    if (r == null) {
      stale++;
      return null;
    }
    r.state = DemandRequest.State.SETTLED;
    if (r.base() != null) { // a refill: done once settled, its rows the base's
      targets.get(r.plan.target).pendingLeases--;
      current.remove(generation);
      r.base().window(r.request().values().get(0)).refill = null;
    } else {
      targets.get(r.plan.target).pendingLeases -= r.owners;
    }
    touched.add(r.plan.target);
    return r;
  }

  /**
   * Marks request {@code generation} failed (its target is failed while its owners hold it; a new
   * demand for its values makes a new request); returns it, or null (counted as stale).
   */
  public DemandRequest<T> fail(long generation, Throwable cause) {
    DemandRequest<T> r = pending(generation);
    if (r == null) {
      stale++;
      return null;
    }
    r.state = DemandRequest.State.FAILED;
    TargetState t = targets.get(r.plan.target);
    t.pendingLeases -= r.base() != null ? 1 : r.owners;
    t.failedRequests++;
    if (t.failure == null) {
      t.failure = cause;
    }
    if (r.base() == null) {
      uncover(r);
    }
    touched.add(r.plan.target);
    return r;
  }

  /** Targets touched by settlements since the last call (flush reports its own). */
  public Set<T> takeTouched() {
    if (touched.isEmpty()) {
      return Set.of();
    }
    Set<T> out = new LinkedHashSet<>(touched);
    touched.clear();
    return out;
  }

  /** Whether {@code target} has a registered plan (now or before). */
  public boolean knows(T target) {
    return targets.containsKey(target);
  }

  /** Whether every value demanded of {@code target} is covered by a settled current request. */
  public boolean settled(T target) {
    TargetState t = targets.get(target);
    return t == null || t.pendingLeases == 0 && t.failedRequests == 0;
  }

  /** Whether every demanded value of every target is covered by a settled current request. */
  public boolean settled() {
    for (TargetState t : targets.values()) {
      if (t.pendingLeases != 0 || t.failedRequests != 0) {
        return false;
      }
    }
    return dirtyPlans.isEmpty();
  }

  /** The failure of a current request of {@code target}, or null. */
  public Throwable failure(T target) {
    TargetState t = targets.get(target);
    return t == null || t.failedRequests == 0 ? null : t.failure;
  }

  /** Current (not cancelled) requests, pending refills included: the active demands of the space law. */
  public int activeRequests() {
    return current.size();
  }

  /** Values demanded now, over all plans. */
  public int demandedValues() {
    int n = 0;
    for (DemandPlan<T> p : plans.values()) {
      n += p.leases.size();
    }
    return n;
  }

  /** Requests made so far (the last generation). */
  public long requestsMade() {
    return generations;
  }

  /** Settlements and failures of obsolete requests, ignored. */
  public long staleSettlements() {
    return stale;
  }

  private DemandPlan<T> plan(String planId) {
    DemandPlan<T> plan = plans.get(planId);
    if (plan == null) {
      throw new IllegalArgumentException("unknown demand plan '" + planId + "'");
    }
    return plan;
  }
}
