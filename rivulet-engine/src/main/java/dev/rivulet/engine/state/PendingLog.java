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
  private long[] keys;
  private Object[] values;
  private long[] weights; // null while every weight is 1
  private int size;
  private int dead;

  PendingLog(int capacity) {
    keys = new long[Math.max(16, capacity)];
    values = new Object[keys.length];
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

  /** The places of the entries whose key is in {@code wanted}, in log order. */
  int[] matching(LongSet wanted) {
    int[] out = new int[16];
    int m = 0;
    long[] ks = keys;
    for (int i = 0; i < size; i++) {
      if (wanted.contains(ks[i])) {
        if (m == out.length) {
          out = Arrays.copyOf(out, m * 2);
        }
        out[m++] = i;
      }
    }
    return Arrays.copyOf(out, m);
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
