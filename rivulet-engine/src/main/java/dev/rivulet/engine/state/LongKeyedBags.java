package dev.rivulet.engine.state;

/**
 * An index from {@code long} keys to {@link Bag}s of weighted values, with the contract of {@link
 * KeyedBags} (empty bags are dropped, so only live keys are held) but no key objects: a {@link
 * LongSlots} table of primitive keys, at most half full, with the bags beside it. Every {@code
 * long}, including {@link Long#MIN_VALUE}, {@link Long#MAX_VALUE} and 0, is a valid key.
 *
 * <p>Not thread-safe: owned by the operator's run loop (the operator that uses it).
 *
 * @param <V> the values, compared with {@code equals} within a key's bag
 */
public final class LongKeyedBags<V> {
  private static final int MIN_CAPACITY = 16;
  private static final int SORT_BITS = 11; // 2048 regions: their write cursors stay cached
  private LongSlots slots = new LongSlots(MIN_CAPACITY);
  private Object[] bags = new Object[slots.slots()]; // per slot: its key's bag
  private long entries;

  /** The bag of {@code key}, or null when the key has no values. */
  @SuppressWarnings("unchecked")
  public Bag<V> get(long key) {
    int s = slots.find(key);
    return s < 0 ? null : (Bag<V>) bags[s];
  }

  /** Adds {@code delta} to {@code value} under {@code key}; returns the value's new weight. */
  public long add(long key, V value, long delta) {
    return add(key, value, value.hashCode(), delta);
  }

  /**
   * Adds {@code deltas[i]} to {@code values[i]} under {@code keys[i]} for every {@code i < n}: the
   * same index as adding them one by one in that order (each key sees its values in their order),
   * built region by region ({@link #addAll(long[], Object[], int[], long[], int[], int)}).
   *
   * @return the least {@code i} whose value's weight became negative, or -1
   */
  public int addAll(long[] keys, V[] values, long[] deltas, int n) {
    int[] hashes = new int[n];
    int[] origins = new int[n];
    for (int i = 0; i < n; i++) {
      hashes[i] = values[i].hashCode();
      origins[i] = i;
    }
    return addAll(keys, values, hashes, deltas, origins, n);
  }

  /**
   * Adds {@code weights[i]} (1 when {@code weights} is null) to {@code values[origins[i]]}, whose
   * hash code is {@code hashes[i]}, under {@code keys[i]} for every {@code i < n}: the same index as adding
   * them one by one in that order (each key sees its values in their order). The entries are taken
   * in the order of their keys' home slots (a counting sort on the hash's top bits into regions of
   * a few hundred entries), so each region's probes and bags hit memory already cached, and each
   * region is one {@link BagBatch} run: a new key's bag is made once, exactly sized. Since keys
   * arrive in hash order, the table grows ahead whenever the key count projected from the part of
   * the hash range done would pass the load limit, so the part filled so far is never denser than
   * that limit (a table grown only at its global limit would pile it up into long probe runs).
   *
   * @return the least {@code origins[i]} whose value's weight became negative, or -1
   */
  int addAll(long[] keys, Object[] values, int[] hashes, long[] weights, int[] origins, int n) {
    int bits = Math.max(1, Math.min(SORT_BITS, 31 - Integer.numberOfLeadingZeros(Math.max(1, n / 64))));
    int[] ends = new int[(1 << bits) + 1];
    for (int i = 0; i < n; i++) {
      ends[LongSlots.hash(keys[i], bits) + 1]++;
    }
    for (int b = 0; b < 1 << bits; b++) {
      ends[b + 1] += ends[b];
    }
    // the entries copied into region order
    long[] sk = new long[n];
    int[] sh = new int[n];
    int[] so = new int[n];
    long[] sw = weights == null ? null : new long[n];
    for (int i = 0; i < n; i++) {
      int j = ends[LongSlots.hash(keys[i], bits)]++;
      sk[j] = keys[i];
      sh[j] = hashes[i];
      so[j] = origins[i];
      if (sw != null) {
        sw[j] = weights[i];
      }
    }
    BagBatch<V> batch = new BagBatch<>();
    int negative = -1;
    int before = slots.size();
    for (int b = 0, from = 0; b < 1 << bits; from = ends[b++]) {
      int to = ends[b];
      for (int j = from; j < to; j++) {
        batch.entry(bagFor(sk[j]), sk[j]);
      }
      int bad = batch.build(values, sh, sw, so, from, to);
      if (bad >= 0 && (negative < 0 || bad < negative)) {
        negative = bad;
      }
      for (int g = 0; g < batch.groups(); g++) {
        settle(batch.longKey(g), batch.bag(g), batch.sizeBefore(g));
      }
      batch.clear();
      int size = slots.size();
      long projected = before + (long) (size - before) * (1 << bits) / (b + 1);
      if (projected * 2 > slots.capacity()) {
        growFor(Math.min(projected, (long) size + (n - to)));
      }
    }
    return negative;
  }

  /** Grows the table to hold {@code keys} keys within the load limit. */
  private void growFor(long keys) {
    long want = Math.max(keys, slots.size()) * 2;
    if (want > slots.capacity()) {
      rehash((int) Math.min(1 << 30, Long.highestOneBit(want - 1) << 1));
    }
  }

  /**
   * The bag of {@code key}, made empty when the key has none, for a {@link BagBatch}: the batch
   * fills it, then {@link #settle} counts it and drops it if it stayed empty.
   */
  @SuppressWarnings("unchecked")
  Bag<V> bagFor(long key) {
    int s = slots.claim(key);
    if (s >= 0) {
      return (Bag<V>) bags[s];
    }
    Bag<V> b = new Bag<>();
    bags[~s] = b;
    if (slots.crowded()) {
      rehash(slots.capacity() * 2);
    }
    return b;
  }

  /** Counts the entries a batch gave {@code key}'s bag {@code b} (of {@code sizeBefore} before); drops it if empty. */
  void settle(long key, Bag<V> b, int sizeBefore) {
    entries += b.size() - sizeBefore;
    if (b.isEmpty()) {
      remove(slots.find(key));
    }
  }

  @SuppressWarnings("unchecked")
  private long add(long key, V value, int hash, long delta) {
    int s = slots.claim(key);
    Bag<V> b;
    if (s >= 0) {
      b = (Bag<V>) bags[s];
    } else if (delta == 0) {
      remove(~s);
      return 0;
    } else {
      b = new Bag<>();
      bags[s = ~s] = b;
    }
    int before = b.size();
    long w = b.add(value, hash, delta);
    entries += b.size() - before;
    if (b.isEmpty()) {
      remove(s);
    } else if (slots.crowded()) {
      rehash(slots.capacity() * 2);
    }
    return w;
  }

  /** Number of keys. */
  public int keys() {
    return slots.size();
  }

  /** Number of (key, value) entries. */
  public long entries() {
    return entries;
  }

  /** The number of slots probed (a power of two at least twice {@link #keys}), for tests. */
  int capacity() {
    return slots.capacity();
  }

  /** The slot where a probe for {@code key} starts, for tests that build collisions. */
  int home(long key) {
    return slots.home(key);
  }

  /** Empties slot {@code s}, moving back the bags whose probe run passes it. */
  private void remove(int s) {
    for (int from; (from = slots.vacate(s)) >= 0; s = from) {
      bags[s] = bags[from];
    }
    bags[s] = null;
  }

  private void rehash(int capacity) {
    LongSlots old = slots;
    Object[] was = bags;
    slots = new LongSlots(capacity);
    bags = new Object[slots.slots()];
    for (int i = 0; i < was.length; i++) {
      if (old.used(i)) {
        bags[~slots.claim(old.key(i))] = was[i];
      }
    }
  }
}
