package dev.rivulet.engine.state;

import java.util.HashMap;

/**
 * Two weight sums per non-null key: the total weight of the key's values, and the weight of those
 * of them that passed a test the caller made (at most the total while weights are multiplicities).
 * A key whose total returns to 0 is dropped, so only keys with values are held. {@code Long} keys
 * go to a {@link LongSlots} table, at most half full, with the two sums beside it; other keys to a
 * {@link HashMap}.
 *
 * <p>Not thread-safe: owned by the operator's run loop (the operator that uses it).
 */
public final class KeyWeights {
  /** What {@link #passing} returns for a key with no values. */
  public static final long ABSENT = Long.MIN_VALUE;
  private static final int MIN_CAPACITY = 16;
  private LongSlots slots = new LongSlots(MIN_CAPACITY);
  private long[] totals = new long[slots.slots()]; // per slot
  private long[] passes = new long[slots.slots()];
  private final HashMap<Object, long[]> others = new HashMap<>();
  // Bounds of the Long keys ever added since the table was last empty (a key's removal leaves them).
  private long least = Long.MAX_VALUE;
  private long greatest = Long.MIN_VALUE;

  /** The passing weight of {@code key}, or {@link #ABSENT} when its total is 0. */
  public long passing(Object key) {
    if (key instanceof Long l) {
      int s = slots.find(l);
      return s < 0 ? ABSENT : passes[s];
    }
    long[] w = others.get(key);
    return w == null ? ABSENT : w[1];
  }

  /** The total weight of {@code key}'s values (0 when it has none). */
  public long total(Object key) {
    if (key instanceof Long l) {
      int s = slots.find(l);
      return s < 0 ? 0 : totals[s];
    }
    long[] w = others.get(key);
    return w == null ? 0 : w[0];
  }

  /** Adds {@code total} to {@code key}'s total weight and {@code pass} to its passing weight. */
  public void add(Object key, long total, long pass) {
    if (key instanceof Long l) {
      addLong(l, total, pass);
      return;
    }
    long[] w = others.computeIfAbsent(key, k -> new long[2]);
    w[0] += total;
    w[1] += pass;
    if (w[0] == 0) {
      others.remove(key);
    }
  }

  /**
   * The passing weights of the {@code Long} keys in {@code [base, base + out.length)}, written to
   * {@code out[key - base]}, and {@link #ABSENT} in every other element: a table a bulk pass over
   * keys in a dense range reads without a probe. Returns false when some {@code Long} key held
   * lies outside that range (the table would not answer every {@code Long} key; {@code out} is
   * then not a table).
   */
  public boolean passingInto(long base, long[] out) {
    java.util.Arrays.fill(out, ABSENT);
    LongSlots k = slots; // locals: this runs once per hydration, mostly interpreted
    long[] p = passes;
    for (int s = 0; s < p.length; s++) {
      if (k.used(s)) {
        long key = k.key(s);
        long d = key - base;
        if (key < base || Long.compareUnsigned(d, out.length) >= 0) {
          return false;
        }
        out[(int) d] = p[s];
      }
    }
    return true;
  }

  /**
   * Bounds {@code {least, greatest}} of the {@code Long} keys held, or null when no {@code Long}
   * key is held: every such key lies in the range, and the bounds are the least and greatest
   * key unless keys were removed since the table was last empty (then the range may be wider).
   * O(1): the bounds are kept as keys are added.
   */
  public long[] longKeyRange() {
    return slots.size() == 0 ? null : new long[] {least, greatest};
  }

  /** Number of keys held. */
  public int keys() {
    return slots.size() + others.size();
  }

  private void addLong(long key, long total, long pass) {
    int s = slots.claim(key);
    if (s < 0) {
      s = ~s;
      totals[s] = 0;
      passes[s] = 0;
      least = Math.min(least, key);
      greatest = Math.max(greatest, key);
    }
    totals[s] += total;
    passes[s] += pass;
    if (totals[s] == 0) {
      remove(s); // a new key with total 0 is dropped at once
    } else if (slots.crowded()) {
      grow();
    }
  }

  /** Empties slot {@code s}, moving back the sums whose probe run passes it. */
  private void remove(int s) {
    for (int from; (from = slots.vacate(s)) >= 0; s = from) {
      totals[s] = totals[from];
      passes[s] = passes[from];
    }
    if (slots.size() == 0) {
      least = Long.MAX_VALUE;
      greatest = Long.MIN_VALUE;
    }
  }

  private void grow() {
    LongSlots old = slots;
    long[] oldTotals = totals;
    long[] oldPasses = passes;
    slots = new LongSlots(old.capacity() * 2);
    totals = new long[slots.slots()];
    passes = new long[slots.slots()];
    for (int i = 0; i < oldTotals.length; i++) {
      if (old.used(i)) {
        int s = ~slots.claim(old.key(i));
        totals[s] = oldTotals[i];
        passes[s] = oldPasses[i];
      }
    }
  }
}
