package dev.rivulet.engine.state;

/**
 * An index from {@code long} keys to {@link Bag}s of weighted values, with the contract of {@link
 * KeyedBags} (empty bags are dropped, so only live keys are held) but no key objects: an
 * open-addressing table of primitive keys beside their bags, probed linearly from a Fibonacci
 * hash of the whole 64-bit key, at most half full. Removal shifts back the rest of the probe run,
 * so there are no tombstones. Every {@code long}, including {@link Long#MIN_VALUE}, {@link
 * Long#MAX_VALUE} and 0, is a valid key.
 *
 * <p>Not thread-safe: owned by the operator's run loop (the operator that uses it).
 *
 * @param <V> the values, compared with {@code equals} within a key's bag
 */
public final class LongKeyedBags<V> {
  private static final int MIN_CAPACITY = 16;
  private long[] keys;
  private Object[] bags; // null marks an empty slot
  private int shift; // slot = (key * golden) >>> shift
  private int size;
  private long entries;

  public LongKeyedBags() {
    allocate(MIN_CAPACITY);
  }

  /** The bag of {@code key}, or null when the key has no values. */
  @SuppressWarnings("unchecked")
  public Bag<V> get(long key) {
    for (int s = home(key); ; s = next(s)) {
      Object b = bags[s];
      if (b == null || keys[s] == key) {
        return (Bag<V>) b;
      }
    }
  }

  /** Adds {@code delta} to {@code value} under {@code key}; returns the value's new weight. */
  @SuppressWarnings("unchecked")
  public long add(long key, V value, long delta) {
    int s = home(key);
    while (bags[s] != null && keys[s] != key) {
      s = next(s);
    }
    Bag<V> b = (Bag<V>) bags[s];
    boolean fresh = b == null;
    if (fresh) {
      if (delta == 0) {
        return 0;
      }
      b = new Bag<>();
      keys[s] = key;
      bags[s] = b;
      size++;
    }
    int before = b.size();
    long w = b.add(value, delta);
    entries += b.size() - before;
    if (b.isEmpty()) {
      removeSlot(s);
      size--;
    } else if (fresh && size * 2 > bags.length) {
      rehash(bags.length * 2);
    }
    return w;
  }

  /** Number of keys. */
  public int keys() {
    return size;
  }

  /** Number of (key, value) entries. */
  public long entries() {
    return entries;
  }

  /** The number of slots (a power of two at least twice {@link #keys}), for tests. */
  int capacity() {
    return bags.length;
  }

  /** The slot where a probe for {@code key} starts, for tests that build collisions. */
  int home(long key) {
    return (int) ((key * 0x9E3779B97F4A7C15L) >>> shift);
  }

  private int next(int s) {
    return (s + 1) & (bags.length - 1);
  }

  private void allocate(int capacity) {
    keys = new long[capacity];
    bags = new Object[capacity];
    shift = Long.numberOfLeadingZeros(capacity) + 1;
  }

  /** Empties slot {@code gap}, moving back the entries whose probe run passes it. */
  private void removeSlot(int gap) {
    for (int s = next(gap); bags[s] != null; s = next(s)) {
      int home = home(keys[s]);
      boolean homeAfterGap = gap <= s ? gap < home && home <= s : gap < home || home <= s;
      if (!homeAfterGap) {
        keys[gap] = keys[s];
        bags[gap] = bags[s];
        gap = s;
      }
    }
    bags[gap] = null;
  }

  private void rehash(int capacity) {
    long[] oldKeys = keys;
    Object[] oldBags = bags;
    allocate(capacity);
    for (int i = 0; i < oldBags.length; i++) {
      if (oldBags[i] != null) {
        int s = home(oldKeys[i]);
        while (bags[s] != null) {
          s = next(s);
        }
        keys[s] = oldKeys[i];
        bags[s] = oldBags[i];
      }
    }
  }
}
