package dev.rivulet.engine.state;

import java.util.Arrays;

/**
 * A small multiset of values with signed weights and their running total: the contents of one
 * key in a {@link KeyedBags} index. A scan over parallel arrays while small; once it grows, an
 * open-addressing table of entry numbers (no per-entry objects) finds values. Entries whose weight
 * reaches zero are removed (the last entry moves into the hole). While every weight is 1 (the
 * common case: rows of a set) no weight array is kept. A batch builds each new bag at once
 * ({@link #load}, see {@link BagBatch}) instead of growing it value by value.
 *
 * <p>Not thread-safe: owned by the operator that uses it.
 *
 * @param <V> the values, compared with {@code equals}
 */
public final class Bag<V> {
  private static final int INDEX_AT = 16;
  private static final Object[] NO_VALUES = {};
  private static final int[] NO_HASHES = {};
  private Object[] values = NO_VALUES; // allocated on the first add, or exactly sized by load
  private int[] hashes = NO_HASHES; // values' hash codes: a scan compares these before equals
  private long[] weights; // null while every weight is 1
  private int size;
  int batchGroup; // this bag's group + 1 while a BagBatch fills it, else 0
  private long total;
  private int[] slots; // null while small; else entry number + 1 per slot, 0 for empty
  private int shift; // slot = hash * golden >>> shift

  /** Number of distinct values. */
  public int size() {
    return size;
  }

  /** Sum of all weights. */
  public long total() {
    return total;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  @SuppressWarnings("unchecked")
  public V value(int i) {
    return (V) values[i];
  }

  public long weight(int i) {
    return weights == null ? 1 : weights[i];
  }

  /** Weight of {@code v} (0 when absent). */
  public long weightOf(V v) {
    int i = find(v, v.hashCode());
    return i < 0 ? 0 : weight(i);
  }

  /** Adds {@code delta} to the weight of {@code v}; returns the new weight. */
  public long add(V v, long delta) {
    return add(v, v.hashCode(), delta);
  }

  /**
   * {@link #add(Object, long)} given {@code hash}, which must be {@code v.hashCode()} (a bulk
   * loader computes it while it reads the values in order, and spares the bag a load of {@code v}).
   */
  public long add(V v, int hash, long delta) {
    total += delta;
    int i = find(v, hash);
    if (i >= 0) {
      long w = weight(i) + delta;
      if (w == 0) {
        removeAt(i);
      } else if (delta != 0) {
        weights()[i] = w;
      }
      return w;
    }
    if (delta != 0) {
      append(v, hash, delta);
    }
    return delta;
  }

  /**
   * Fills this bag, which must be empty and never used, with the entries {@code from} to {@code
   * to - 1} of a batch grouped by key ({@code origins} their places in the batch, whose values are
   * {@code vs[origins[j]]}; {@code hs} the values' hash codes, {@code ws} weights or null for all
   * ones): the same bag as adding them one by one in that order. Positive weights of distinct
   * values (a hydration) are copied once into arrays of exactly their size; otherwise the entries
   * are added one by one.
   *
   * @return the least {@code origins[j]} whose value's weight became negative, or -1
   */
  int load(Object[] vs, int[] hs, long[] ws, int[] origins, int from, int to) {
    long sum = to - from;
    boolean ones = true;
    for (int j = from; ws != null && j < to; j++) {
      if (ws[j] <= 0) {
        return addRange(vs, hs, ws, origins, from, to);
      }
      sum += ws[j] - 1;
      ones &= ws[j] == 1;
    }
    size = to - from;
    total = sum;
    values = new Object[size];
    for (int j = from; j < to; j++) {
      values[j - from] = vs[origins[j]];
    }
    hashes = Arrays.copyOfRange(hs, from, to);
    weights = ones ? null : Arrays.copyOfRange(ws, from, to);
    if (size > INDEX_AT ? indexDistinct(Integer.highestOneBit(size) * 4) : scanDistinct()) {
      return -1;
    }
    values = NO_VALUES; // a value repeats: start over, one by one
    hashes = NO_HASHES;
    weights = null;
    slots = null;
    size = 0;
    total = 0;
    return addRange(vs, hs, ws, origins, from, to);
  }

  /** Adds the entries {@code from} to {@code to - 1} (as in {@link #load}) one by one; returns as {@link #load}. */
  @SuppressWarnings("unchecked")
  int addRange(Object[] vs, int[] hs, long[] ws, int[] origins, int from, int to) {
    int negative = -1;
    for (int j = from; j < to; j++) {
      if (add((V) vs[origins[j]], hs[j], ws == null ? 1 : ws[j]) < 0 && negative < 0) {
        negative = origins[j];
      }
    }
    return negative;
  }

  /** True when no two entries hold equal values, by a scan (for a bag still small). */
  private boolean scanDistinct() {
    for (int i = 1; i < size; i++) {
      int h = hashes[i];
      for (int e = 0; e < i; e++) {
        if (hashes[e] == h && values[e].equals(values[i])) {
          return false;
        }
      }
    }
    return true;
  }

  /** Builds the hash table of {@code capacity} slots; false (table half built) when two values are equal. */
  private boolean indexDistinct(int capacity) {
    slots = new int[capacity];
    shift = Integer.numberOfLeadingZeros(capacity) + 1;
    for (int i = 0; i < size; i++) {
      int h = hashes[i];
      int s = home(h);
      for (; slots[s] != 0; s = next(s)) {
        int e = slots[s] - 1;
        if (hashes[e] == h && values[e].equals(values[i])) {
          return false;
        }
      }
      slots[s] = i + 1;
    }
    return true;
  }

  private int find(Object v, int h) {
    if (slots != null) {
      for (int s = home(h); slots[s] != 0; s = next(s)) {
        int i = slots[s] - 1;
        if (hashes[i] == h && values[i].equals(v)) {
          return i;
        }
      }
      return -1;
    }
    for (int i = 0; i < size; i++) {
      if (hashes[i] == h && values[i].equals(v)) {
        return i;
      }
    }
    return -1;
  }

  /** The weight array, made (all ones) on the first weight other than 1. */
  private long[] weights() {
    if (weights == null) {
      weights = new long[values.length];
      Arrays.fill(weights, 0, size, 1);
    }
    return weights;
  }

  private void append(Object v, int h, long w) {
    if (size == values.length) {
      int capacity = Math.max(2, size * 2);
      values = Arrays.copyOf(values, capacity);
      hashes = Arrays.copyOf(hashes, capacity);
      if (weights != null) {
        weights = Arrays.copyOf(weights, capacity);
      }
    }
    values[size] = v;
    hashes[size] = h;
    if (w != 1 || weights != null) {
      weights()[size] = w;
    }
    size++;
    if (slots != null && size * 2 <= slots.length) {
      place(size - 1);
    } else if (size > INDEX_AT) {
      reindex(Integer.highestOneBit(size) * 4);
    }
  }

  private void removeAt(int i) {
    int last = size - 1;
    if (slots != null) {
      clearSlot(slotOf(i));
      if (i != last) {
        slots[slotOf(last)] = i + 1;
      }
    }
    values[i] = values[last];
    hashes[i] = hashes[last];
    if (weights != null) {
      weights[i] = weights[last];
    }
    values[last] = null;
    size = last;
  }

  /** The number of values the arrays hold room for (for tests: a bag built whole has no spare room). */
  int capacity() {
    return values.length;
  }

  /** True when a weight array is kept, i.e. some weight was not 1 (for tests). */
  boolean keepsWeights() {
    return weights != null;
  }

  /** True once the values are found through the hash table rather than by a scan (for tests). */
  boolean indexed() {
    return slots != null;
  }

  /** The longest probe run of the hash table (0 while scanning), to show clustering in tests. */
  int longestProbe() {
    int longest = 0;
    for (int i = 0; slots != null && i < size; i++) {
      int probes = 1;
      for (int s = home(hashes[i]); slots[s] != i + 1; s = next(s)) {
        probes++;
      }
      longest = Math.max(longest, probes);
    }
    return longest;
  }

  private int home(int h) {
    return h * 0x9E3779B9 >>> shift;
  }

  private int next(int s) {
    return (s + 1) & (slots.length - 1);
  }

  private void place(int i) {
    int s = home(hashes[i]);
    while (slots[s] != 0) {
      s = next(s);
    }
    slots[s] = i + 1;
  }

  private int slotOf(int i) {
    int s = home(hashes[i]);
    while (slots[s] != i + 1) {
      s = next(s);
    }
    return s;
  }

  /** Empties slot {@code gap}, moving back the entries whose probe run passes it. */
  private void clearSlot(int gap) {
    for (int s = next(gap); slots[s] != 0; s = next(s)) {
      int home = home(hashes[slots[s] - 1]);
      boolean homeAfterGap = gap <= s ? gap < home && home <= s : gap < home || home <= s;
      if (!homeAfterGap) {
        slots[gap] = slots[s];
        gap = s;
      }
    }
    slots[gap] = 0;
  }

  private void reindex(int capacity) {
    slots = new int[capacity];
    shift = Integer.numberOfLeadingZeros(capacity) + 1;
    for (int i = 0; i < size; i++) {
      place(i);
    }
  }
}
