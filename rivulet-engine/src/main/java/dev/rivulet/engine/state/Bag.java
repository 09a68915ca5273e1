package dev.rivulet.engine.state;

import java.util.Arrays;
import java.util.HashMap;

/**
 * A small multiset of values with signed weights and their running total: the contents of one
 * key in a {@link KeyedBags} index. Linear probing over parallel arrays while small, with a hash
 * index once it grows. Entries whose weight reaches zero are removed.
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
  private HashMap<Object, Integer> index;

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
    int i = find(v);
    return i < 0 ? 0 : weights[i];
  }

  /** Adds {@code delta} to the weight of {@code v}; returns the new weight. */
  public long add(V v, long delta) {
    total += delta;
    int i = find(v);
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
      append(v, delta);
    }
    return delta;
  }

  private int find(Object v) {
    if (index != null) {
      Integer i = index.get(v);
      return i == null ? -1 : i;
    }
    int h = v.hashCode();
    for (int i = 0; i < size; i++) {
      if (hashes[i] == h && values[i].equals(v)) {
        return i;
      }
    }
    return -1;
  }

  private void append(Object v, long w) {
    if (size == values.length) {
      values = Arrays.copyOf(values, size * 2);
      hashes = Arrays.copyOf(hashes, size * 2);
      weights = Arrays.copyOf(weights, size * 2);
    }
    values[size] = v;
    hashes[size] = v.hashCode();
    weights[size] = w;
    if (index != null) {
      index.put(v, size);
    } else if (size + 1 > INDEX_AT) {
      index = new HashMap<>(size * 4);
      for (int i = 0; i <= size; i++) {
        index.put(values[i], i);
      }
    }
    size++;
  }

  private void removeAt(int i) {
    int last = size - 1;
    if (index != null) {
      index.remove(values[i]);
      if (i != last) {
        index.put(values[last], i);
      }
    }
    values[i] = values[last];
    hashes[i] = hashes[last];
    weights[i] = weights[last];
    values[last] = null;
    size = last;
  }
}
