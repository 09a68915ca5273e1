package dev.rivulet.engine.state;

import java.util.HashMap;

/**
 * An index from keys to {@link Bag}s of weighted values: the retained side of a join, or the
 * groups of a reduce. Empty bags are dropped, so the index holds only live keys.
 *
 * <p>Not thread-safe: owned by the operator that uses it.
 */
public final class KeyedBags<K, V> {
  private final HashMap<K, Bag<V>> bags = new HashMap<>();
  private long entries;

  /** The bag of {@code key}, or null when the key has no values. */
  public Bag<V> get(K key) {
    return bags.get(key);
  }

  /** Sum of weights under {@code key}. */
  public long total(K key) {
    Bag<V> b = bags.get(key);
    return b == null ? 0 : b.total();
  }

  /** Adds {@code delta} to {@code value} under {@code key}; returns the value's new weight. */
  public long add(K key, V value, long delta) {
    Bag<V> b = bags.get(key);
    if (b == null) {
      if (delta == 0) {
        return 0;
      }
      b = new Bag<>();
      bags.put(key, b);
    }
    int before = b.size();
    long w = b.add(value, delta);
    entries += b.size() - before;
    if (b.isEmpty()) {
      bags.remove(key);
    }
    return w;
  }

  /**
   * The bag of {@code key}, made empty when the key has none, for a {@link BagBatch}: the batch
   * fills it, then {@link #settle} counts it and drops it if it stayed empty.
   */
  Bag<V> bagFor(K key) {
    Bag<V> b = bags.get(key);
    if (b == null) {
      b = new Bag<>();
      bags.put(key, b);
    }
    return b;
  }

  /** Counts the entries a batch gave {@code key}'s bag {@code b} (of {@code sizeBefore} before); drops it if empty. */
  void settle(K key, Bag<V> b, int sizeBefore) {
    entries += b.size() - sizeBefore;
    if (b.isEmpty()) {
      bags.remove(key);
    }
  }

  /** Number of keys. */
  public int keys() {
    return bags.size();
  }

  /** Number of (key, value) entries. */
  public long entries() {
    return entries;
  }
}
