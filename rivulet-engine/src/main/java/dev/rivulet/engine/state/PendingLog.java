package dev.rivulet.engine.state;

import java.util.Arrays;

/**
 * The entries of a {@link KeyIndex} that are not indexed yet: an append-only log of (long key,
 * value, positive weight) in parallel arrays, no object per entry. An entry whose key has since
 * been indexed is dead (its key is in the index's set of indexed keys); {@link #dead} counts them.
 *
 * <p>Not thread-safe: owned by the index that uses it.
 *
 * @param <V> the values
 */
final class PendingLog<V> {
  private static final long GOLDEN = 0x9E3779B97F4A7C15L;
  private static final int FILTER_WORDS = 64; // 4096 bits
  private static final int FILTER_SHIFT = 64 - 12;
  private long[] keys;
  private Object[] values;
  private long[] weights; // null while every weight is 1
  private int size;
  private int dead;

  private PendingLog(long[] keys, Object[] values, long[] weights, int size) {
    this.keys = keys;
    this.values = values;
    this.weights = weights;
    this.size = size;
  }

  /**
   * A log of the entries of {@code keys[0..n)} that are {@code Long}s, in order, or null when a
   * delta among them is not positive (a log holds additions only).
   */
  static <V> PendingLog<V> of(Object[] keys, Object[] values, long[] deltas, int n) {
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
    return new PendingLog<>(ks, vs, ws, m);
  }

  /** Appends {@code value} under {@code key} with {@code weight > 0}. */
  void append(long key, Object value, long weight) {
    if (size == keys.length) {
      int capacity = size + (size >> 1) + 16;
      keys = Arrays.copyOf(keys, capacity);
      values = Arrays.copyOf(values, capacity);
      if (weights != null) {
        weights = Arrays.copyOf(weights, capacity);
      }
    }
    if (weight != 1 && weights == null) {
      weights = new long[keys.length];
      Arrays.fill(weights, 0, size, 1);
    }
    keys[size] = key;
    values[size] = value;
    if (weights != null) {
      weights[size] = weight;
    }
    size++;
  }

  /** Number of entries, dead ones included (what a scan reads). */
  int size() {
    return size;
  }

  /** Number of entries whose key is not indexed yet. */
  int live() {
    return size - dead;
  }

  void died(int n) {
    dead += n;
  }

  long key(int i) {
    return keys[i];
  }

  @SuppressWarnings("unchecked")
  V value(int i) {
    return (V) values[i];
  }

  long weight(int i) {
    return weights == null ? 1 : weights[i];
  }

  /**
   * The places of the entries whose key is in {@code wanted}, in log order. A bitmap of the wanted
   * keys' hashes rejects most other entries before the set is asked.
   */
  int[] matching(LongSet wanted, long[] keysOfWanted, int k) {
    long[] bits = new long[FILTER_WORDS];
    for (int j = 0; j < k; j++) {
      int h = filterBit(keysOfWanted[j]);
      bits[h >>> 6] |= 1L << h;
    }
    int[] out = new int[16];
    int m = 0;
    long[] ks = keys;
    for (int i = 0; i < size; i++) {
      long key = ks[i];
      int h = (int) ((key * GOLDEN) >>> FILTER_SHIFT);
      if ((bits[h >>> 6] & 1L << h) != 0 && wanted.contains(key)) {
        if (m == out.length) {
          out = Arrays.copyOf(out, m * 2);
        }
        out[m++] = i;
      }
    }
    return Arrays.copyOf(out, m);
  }

  private static int filterBit(long key) {
    return (int) ((key * GOLDEN) >>> FILTER_SHIFT);
  }

  /** The places of the entries whose key is {@code key}, in log order. */
  int[] matching(long key) {
    int[] out = new int[16];
    int m = 0;
    long[] ks = keys;
    for (int i = 0; i < size; i++) {
      if (ks[i] == key) {
        if (m == out.length) {
          out = Arrays.copyOf(out, m * 2);
        }
        out[m++] = i;
      }
    }
    return Arrays.copyOf(out, m);
  }
}
