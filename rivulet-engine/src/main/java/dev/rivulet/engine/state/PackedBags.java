package dev.rivulet.engine.state;

import java.util.Arrays;

/**
 * The entries of one hydration-sized batch under {@code long} keys with positive weights, packed
 * by key into primitive arrays: a table of the distinct keys, each slot with its key's run in
 * {@code order} (the entries' places in the batch, in batch order), beside the batch's values and
 * weights. Dense keys (their range at most twice the entries, as ids are) take the slot {@code key
 * - least key}, with no hashing; others an open-addressing table probed linearly from a Fibonacci
 * hash, at most half full. No object per key
 * or entry and no value hash is made; a key's entries are read only when it is {@link #open}ed,
 * after which its slot is closed for good (the caller holds the key's entries from then on).
 *
 * <p>Not thread-safe: owned by the index that uses it.
 *
 * @param <V> the values
 */
final class PackedBags<V> {
  private static final long GOLDEN = 0x9E3779B97F4A7C15L;
  private long[] slotKeys;
  private int[] counts; // per slot: its key's entries; 0 for an empty slot, -1 once opened
  private int[] starts; // per slot: where its run begins in order
  private int shift;
  private int keys;
  private final long base; // the least key, for a dense table; else unused
  private final boolean dense;
  private final int[] order;
  private final Object[] values;
  private final long[] weights; // per batch place, or null while all are 1
  private long live;

  private PackedBags(long base, boolean dense, int capacity, Object[] values, long[] weights, int n) {
    this.base = base;
    this.dense = dense;
    if (dense) {
      counts = new int[capacity];
      starts = new int[capacity];
    } else {
      allocate(capacity);
    }
    this.values = values;
    this.weights = weights;
    this.order = new int[n];
  }

  /**
   * Packs the entries of {@code keys[0..n)} whose key is a {@code Long}, or returns null when a
   * delta among them is not positive (only additions to keys with no values are packed).
   */
  static <V> PackedBags<V> of(Object[] keys, Object[] values, long[] deltas, int n) {
    long[] ks = new long[n];
    Object[] vs = new Object[n];
    long[] ws = null;
    int m = 0;
    for (int i = 0; i < n; i++) {
      if (keys[i] instanceof Long l) {
        long w = deltas[i];
        if (w != 1) {
          if (w <= 0) {
            return null;
          }
          if (ws == null) {
            ws = new long[n];
            Arrays.fill(ws, 0, m, 1);
          }
        }
        if (ws != null) {
          ws[m] = w;
        }
        ks[m] = l;
        vs[m++] = values[i];
      }
    }
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (int i = 0; i < m; i++) {
      min = Math.min(min, ks[i]);
      max = Math.max(max, ks[i]);
    }
    boolean dense = m > 0 && max - min >= 0 && max - min < 2L * m;
    int capacity = dense ? (int) (max - min + 1) : Math.max(16, Integer.highestOneBit(Math.max(1, m / 4)) * 2);
    PackedBags<V> p = new PackedBags<>(min, dense, capacity, vs, ws, m);
    p.pack(ks, m);
    return p;
  }

  /** Counts each key's entries, gives each key its run, then places the entries in their runs. */
  private void pack(long[] ks, int m) {
    for (int i = 0; i < m; i++) {
      countEntry(ks[i]);
    }
    int[] cursor = new int[counts.length];
    for (int s = 0, at = 0; s < counts.length; s++) {
      starts[s] = at;
      cursor[s] = at;
      at += counts[s];
    }
    for (int i = 0; i < m; i++) {
      order[cursor[slot(ks[i])]++] = i;
    }
    live = m;
  }

  private void countEntry(long key) {
    if (dense) {
      counts[(int) (key - base)]++;
      return;
    }
    int s = home(key);
    while (counts[s] != 0) {
      if (slotKeys[s] == key) {
        counts[s]++;
        return;
      }
      s = (s + 1) & (counts.length - 1);
    }
    slotKeys[s] = key;
    counts[s] = 1;
    if (++keys * 2 > counts.length) {
      rehash();
    }
  }

  /** The slot of {@code key}, or -1 when the batch had no entry under it. */
  int slot(long key) {
    if (dense) {
      long s = key - base;
      return s >= 0 && s < counts.length && counts[(int) s] != 0 ? (int) s : -1;
    }
    for (int s = home(key); ; s = (s + 1) & (counts.length - 1)) {
      if (counts[s] == 0) {
        return -1;
      }
      if (slotKeys[s] == key) {
        return s;
      }
    }
  }

  /** The number of entries of slot {@code s} still packed (0 once opened). */
  int count(int s) {
    return Math.max(0, counts[s]);
  }

  /** The value of the {@code j}-th entry (in batch order) of slot {@code s}, {@code j < count(s)}. */
  @SuppressWarnings("unchecked")
  V value(int s, int j) {
    return (V) values[order[starts[s] + j]];
  }

  long weight(int s, int j) {
    return weights == null ? 1 : weights[order[starts[s] + j]];
  }

  /** Closes slot {@code s}: its entries are the caller's from now on. */
  void open(int s) {
    live -= count(s);
    counts[s] = -1;
  }

  /** Number of entries not opened yet. */
  long live() {
    return live;
  }

  private int home(long key) {
    return (int) ((key * GOLDEN) >>> shift);
  }

  private void allocate(int capacity) {
    slotKeys = new long[capacity];
    counts = new int[capacity];
    starts = new int[capacity];
    shift = Long.numberOfLeadingZeros(capacity) + 1;
  }

  /** Doubles the table while counting (no run is placed yet). */
  private void rehash() {
    long[] oldKeys = slotKeys;
    int[] oldCounts = counts;
    allocate(oldCounts.length * 2);
    for (int i = 0; i < oldCounts.length; i++) {
      if (oldCounts[i] != 0) {
        int s = home(oldKeys[i]);
        while (counts[s] != 0) {
          s = (s + 1) & (counts.length - 1);
        }
        slotKeys[s] = oldKeys[i];
        counts[s] = oldCounts[i];
      }
    }
  }
}
