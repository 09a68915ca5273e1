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
  private static final long GOLDEN = 0x9E3779B97F4A7C15L;
  private static final int SORT_BITS = 11; // 2048 regions: their write cursors stay cached
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
  public long add(long key, V value, long delta) {
    return add(key, value, value.hashCode(), delta);
  }

  /**
   * Adds {@code deltas[i]} to {@code values[i]} under {@code keys[i]} for every {@code i < n}: the
   * same index as adding them one by one in that order (each key sees its values in their order),
   * but visiting the table region by region instead of at random: the entries are taken in the
   * order of their keys' home slots (a counting sort on the hash's top bits), so the probes, the
   * bags and their growth hit memory that is already cached. Since keys then arrive in hash order,
   * the table grows ahead whenever the key count projected from the part of the hash range done
   * would pass the load limit, so the region filled so far is never denser than that limit (a
   * table grown only at its global limit would pile up the early region into long probe runs).
   *
   * @return the least {@code i} whose value's weight became negative, or -1
   */
  public int addAll(long[] keys, V[] values, long[] deltas, int n) {
    int bits = Math.max(1, Math.min(SORT_BITS, 31 - Integer.numberOfLeadingZeros(Math.max(1, n / 64))));
    int[] starts = new int[(1 << bits) + 1];
    for (int i = 0; i < n; i++) {
      starts[bucketOf(keys[i], bits) + 1]++;
    }
    for (int b = 0; b < 1 << bits; b++) {
      starts[b + 1] += starts[b];
    }
    // the entries copied into bucket order, so the pass below reads them in sequence
    long[] sk = new long[n];
    int[] sh = new int[n];
    int[] origin = new int[n];
    for (int i = 0; i < n; i++) {
      int j = starts[bucketOf(keys[i], bits)]++;
      sk[j] = keys[i];
      sh[j] = values[i].hashCode();
      origin[j] = i;
    }
    int negative = -1;
    int before = size;
    for (int j = 0; j < n; j++) {
      long projected = before + (long) (size + 1 - before) * (1 << bits) / (bucketOf(sk[j], bits) + 1);
      if (projected * 2 > bags.length) {
        growFor(Math.min(projected, (long) size + (n - j)));
      }
      int i = origin[j];
      if (add(sk[j], values[i], sh[j], deltas[i]) < 0 && (negative < 0 || i < negative)) {
        negative = i;
      }
    }
    return negative;
  }

  private static int bucketOf(long key, int bits) {
    return (int) ((key * GOLDEN) >>> (64 - bits));
  }

  /** Grows the table to hold {@code keys} keys (at least one more than now) within the load limit. */
  private void growFor(long keys) {
    long want = Math.max(keys, size + 1L) * 2;
    if (want > bags.length) {
      rehash((int) Math.min(1 << 30, Long.highestOneBit(want - 1) << 1));
    }
  }

  @SuppressWarnings("unchecked")
  private long add(long key, V value, int hash, long delta) {
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
    long w = b.add(value, hash, delta);
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
    return (int) ((key * GOLDEN) >>> shift);
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
