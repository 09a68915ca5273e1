package dev.rivulet.engine.state;

/**
 * An index from non-null keys to {@link Bag}s of weighted values, with the contract of {@link
 * KeyedBags}, that keeps {@link Long} keys in a primitive {@link LongKeyedBags} and every other
 * key in a {@link KeyedBags}. Keys are compared with {@code equals}; since a {@code Long} equals
 * only a {@code Long}, the two halves never hold equal keys, and the split is invisible to
 * callers. A join on one column passes the canonical value itself as the key (an integer value
 * is a {@code Long}, so it takes the primitive half); a join on several columns passes the
 * projected row, which always takes the general half.
 *
 * <p>Not thread-safe: owned by the operator's run loop (the operator that uses it).
 *
 * @param <V> the values, compared with {@code equals} within a key's bag
 */
public final class KeyIndex<V> {
  private final LongKeyedBags<V> longs = new LongKeyedBags<>();
  private final KeyedBags<Object, V> others = new KeyedBags<>();

  /** The bag of {@code key}, or null when the key has no values. */
  public Bag<V> get(Object key) {
    return key instanceof Long l ? longs.get(l) : others.get(key);
  }

  /** Adds {@code delta} to {@code value} under {@code key}; returns the value's new weight. */
  public long add(Object key, V value, long delta) {
    return key instanceof Long l ? longs.add(l, value, delta) : others.add(key, value, delta);
  }

  /** Number of keys in the primitive half. */
  public int longKeys() {
    return longs.keys();
  }

  /** Number of keys in the general half. */
  public int otherKeys() {
    return others.keys();
  }

  /** Number of (key, value) entries. */
  public long entries() {
    return longs.entries() + others.entries();
  }
}
