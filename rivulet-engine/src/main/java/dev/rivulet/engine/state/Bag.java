package dev.rivulet.engine.state;

import java.util.Arrays;

/**
 * A small multiset of values with signed weights and their running total: the contents of one
 * key in a {@link KeyedBags} index. A scan over parallel arrays while small; once it grows, an
 * open-addressing table of entry numbers (no per-entry objects) finds values. Entries whose weight
 * reaches zero are removed (the last entry moves into the hole).
 *
 * <p>Not thread-safe: owned by the operator that uses it.
 *
 * @param <V> the values, compared with {@code equals}
 */
public final class Bag<V> {
  private static final int INDEX_AT = 16;
  private Object[] values = new Object[2];
  private int[] hashes = new int[2]; // values' hash codes: a scan compares these before equals
  private long[] weights = new long[2];
  private int size;
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
    return weights[i];
  }

  /** Weight of {@code v} (0 when absent). */
  public long weightOf(V v) {
    int i = find(v, v.hashCode());
    return i < 0 ? 0 : weights[i];
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
      long w = weights[i] + delta;
      if (w == 0) {
        removeAt(i);
      } else {
        weights[i] = w;
      }
      return w;
    }
    if (delta != 0) {
      append(v, hash, delta);
    }
    return delta;
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

  private void append(Object v, int h, long w) {
    if (size == values.length) {
      values = Arrays.copyOf(values, size * 2);
      hashes = Arrays.copyOf(hashes, size * 2);
      weights = Arrays.copyOf(weights, size * 2);
    }
    values[size] = v;
    hashes[size] = h;
    weights[size] = w;
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
    weights[i] = weights[last];
    values[last] = null;
    size = last;
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
