package dev.rivulet.engine.state;

import java.util.HashMap;

/**
 * Two weight sums per non-null key: the total weight of the key's values, and the weight of those
 * of them that passed a test the caller made (at most the total while weights are multiplicities).
 * A key whose total returns to 0 is dropped, so only keys with values are held. {@code Long} keys
 * go to an open-addressing table of primitive keys probed linearly from a Fibonacci hash, at most
 * half full, whose removals shift back the rest of the probe run (no tombstones); other keys to a
 * {@link HashMap}.
 *
 * <p>Not thread-safe: owned by the operator's run loop (the operator that uses it).
 */
public final class KeyWeights {
  /** What {@link #passing} returns for a key with no values. */
  public static final long ABSENT = Long.MIN_VALUE;
  private static final int MIN_CAPACITY = 16;
  private static final long GOLDEN = 0x9E3779B97F4A7C15L;
  private long[] keys = new long[MIN_CAPACITY];
  private long[] totals = new long[MIN_CAPACITY]; // 0 marks an empty slot
  private long[] passes = new long[MIN_CAPACITY];
  private int shift = Long.numberOfLeadingZeros(MIN_CAPACITY) + 1;
  private int size;
  private final HashMap<Object, long[]> others = new HashMap<>();

  /** The passing weight of {@code key}, or {@link #ABSENT} when its total is 0. */
  public long passing(Object key) {
    if (key instanceof Long l) {
      int s = find(l);
      return s < 0 ? ABSENT : passes[s];
    }
    long[] w = others.get(key);
    return w == null ? ABSENT : w[1];
  }

  /** The total weight of {@code key}'s values (0 when it has none). */
  public long total(Object key) {
    if (key instanceof Long l) {
      int s = find(l);
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
    long[] k = keys; // locals: this runs once per hydration, mostly interpreted
    long[] t = totals;
    long[] p = passes;
    for (int s = 0; s < t.length; s++) {
      if (t[s] != 0) {
        long d = k[s] - base;
        if (k[s] < base || Long.compareUnsigned(d, out.length) >= 0) {
          return false;
        }
        out[(int) d] = p[s];
      }
    }
    return true;
  }

  /**
   * The least and the greatest {@code Long} key held, as {@code {least, greatest}}, or null when
   * no {@code Long} key is held.
   */
  public long[] longKeyRange() {
    if (size == 0) {
      return null;
    }
    long least = Long.MAX_VALUE;
    long greatest = Long.MIN_VALUE;
    long[] k = keys;
    long[] t = totals;
    for (int s = 0; s < t.length; s++) {
      if (t[s] != 0) {
        least = k[s] < least ? k[s] : least;
        greatest = k[s] > greatest ? k[s] : greatest;
      }
    }
    return new long[] {least, greatest};
  }

  /** Number of keys held. */
  public int keys() {
    return size + others.size();
  }

  private void addLong(long key, long total, long pass) {
    int s = home(key);
    while (totals[s] != 0 && keys[s] != key) {
      s = (s + 1) & (totals.length - 1);
    }
    if (totals[s] == 0) {
      if (total == 0) {
        return;
      }
      if ((size + 1) * 2 > totals.length) {
        grow();
        addLong(key, total, pass);
        return;
      }
      size++;
      keys[s] = key;
      passes[s] = 0;
    }
    totals[s] += total;
    passes[s] += pass;
    if (totals[s] == 0) {
      remove(s);
    }
  }

  private int find(long key) {
    for (int s = home(key); ; s = (s + 1) & (totals.length - 1)) {
      if (totals[s] == 0) {
        return -1;
      }
      if (keys[s] == key) {
        return s;
      }
    }
  }

  /** Empties slot {@code s}, moving back the later entries of its probe run that may fill it. */
  private void remove(int s) {
    size--;
    int mask = totals.length - 1;
    int hole = s;
    for (int j = (s + 1) & mask; totals[j] != 0; j = (j + 1) & mask) {
      int h = home(keys[j]);
      // The entry at j may move to the hole when its home is not cyclically within (hole, j].
      if (((j - h) & mask) >= ((j - hole) & mask)) {
        keys[hole] = keys[j];
        totals[hole] = totals[j];
        passes[hole] = passes[j];
        hole = j;
      }
    }
    totals[hole] = 0;
    passes[hole] = 0;
  }

  private void grow() {
    long[] oldKeys = keys;
    long[] oldTotals = totals;
    long[] oldPasses = passes;
    int capacity = oldTotals.length * 2;
    keys = new long[capacity];
    totals = new long[capacity];
    passes = new long[capacity];
    shift = Long.numberOfLeadingZeros(capacity) + 1;
    for (int i = 0; i < oldTotals.length; i++) {
      if (oldTotals[i] != 0) {
        int s = home(oldKeys[i]);
        while (totals[s] != 0) {
          s = (s + 1) & (capacity - 1);
        }
        keys[s] = oldKeys[i];
        totals[s] = oldTotals[i];
        passes[s] = oldPasses[i];
      }
    }
  }

  private int home(long key) {
    return (int) ((key * GOLDEN) >>> shift);
  }
}
