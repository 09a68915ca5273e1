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
 * <p>A lazy index ({@link #KeyIndex(boolean)}) does not build bags for a batch of at least {@link
 * #PACK_AT} positive weights given to it while its primitive half is empty (a hydration's): the
 * batch's entries under {@code Long} keys are packed by key into primitive arrays ({@link
 * PackedBags}: no object per key or entry, no value hash), and a key's bag is made from its packed entries when the key is first
 * looked up ({@link #opened} counts the entries moved). A change to a key still packed stays
 * packed: an addition is appended to its entries, a retraction takes weight from the entry that
 * holds the value, found by a scan of the key's entries ({@link #compared} counts the entries
 * compared); only a retraction of more than that entry holds (a value the key does not hold: an
 * invariant violation, as on an eager index) makes the key's bag first. So a join whose other side
 * looks up few keys of a large side (an include's child semi-joined with its ~50 active buckets)
 * never makes the other keys' bags, and every lookup stays one probe. The contents seen through
 * {@link #get} are always those of an eager index given the same changes; a reader that must not make
 * bags (a join's hydration, probing every key of the other side) reads {@link #bagOf} and the
 * packed entries ({@link #packedFirst}) instead.
 *
 * <p>Not thread-safe: owned by the operator's run loop (the operator that uses it).
 *
 * @param <V> the values, compared with {@code equals} within a key's bag
 */
public final class KeyIndex<V> {
  /** The least batch that {@link #addAll} sorts by key region instead of adding row by row. */
  public static final int BULK_AT = 4096;
  /**
   * The least first batch a lazy index packs: a first batch (a hydration's) packs cheaper than
   * bags are made row by row (no bag, no value hash), even the small side of a join.
   */
  public static final int PACK_AT = 64;
  private static final int NOT_PACKED = -2;
  private final LongKeyedBags<V> longs = new LongKeyedBags<>();
  private final KeyedBags<Object, V> others = new KeyedBags<>();
  private final boolean lazy;
  private PackedBags<V> packed; // a lazy index's packed batch while some of its keys are not opened
  private int bulkLoads;
  private long bulkBags;
  private int packs;
  private long opened;
  private long compared;

  /** An eager index. */
  public KeyIndex() {
    this(false);
  }

  /** @param lazy whether a hydration-sized batch is packed until its keys are looked up (see the class comment) */
  public KeyIndex(boolean lazy) {
    this.lazy = lazy;
  }

  /** The bag of {@code key}, or null when the key has no values. */
  public Bag<V> get(Object key) {
    if (key instanceof Long l) {
      if (packed != null) {
        open(l);
      }
      return longs.get(l);
    }
    return others.get(key);
  }

  /**
   * The bag of {@code key} when one was made, else null (then the key's values may still be packed,
   * see {@link #packedFirst}): a read that makes no bag.
   */
  public Bag<V> bagOf(Object key) {
    return key instanceof Long l ? longs.get(l) : others.get(key);
  }

  /**
   * The first of {@code key}'s entries still packed, or -1 when it has none (then its values, if
   * any, are in {@link #bagOf}): with {@link #packedNext}, {@link #packedValue} and {@link
   * #packedWeight}, a read of a packed key's values in the order they were added, without making
   * its bag. An entry index is valid until the index is next changed.
   */
  public int packedFirst(Object key) {
    if (packed == null || !(key instanceof Long l)) {
      return -1;
    }
    int s = packed.slot(l);
    return s >= 0 && packed.count(s) > 0 ? packed.first(s) : -1;
  }

  /** The packed entry after {@code e} under the same key, or -1 (see {@link #packedFirst}). */
  public int packedNext(int e) {
    return packed.next(e);
  }

  /** The value of packed entry {@code e} (see {@link #packedFirst}). */
  public V packedValue(int e) {
    return packed.value(e);
  }

  /** The weight of packed entry {@code e} (see {@link #packedFirst}). */
  public long packedWeight(int e) {
    return packed.weight(e);
  }

  /**
   * Adds {@code delta} to {@code value} under {@code key}; returns the value's new weight, except on
   * a lazy index for a change under a key whose entries are still packed and that stays packed (the
   * key's bag is not made): then a lower bound of the new weight that is not negative is returned
   * ({@code delta} for an addition; for a retraction the weight left in the entry it took from).
   */
  public long add(Object key, V value, long delta) {
    if (key instanceof Long l) {
      if (packed != null) {
        int s = packed.slot(l);
        if (delta != 0 && s >= 0 && packed.count(s) > 0) {
          if (delta > 0) {
            packed.append(s, value, delta);
            return delta;
          }
          long left = retractPacked(s, value, -delta);
          if (left >= 0) {
            return left;
          }
        }
        open(l);
      }
      return longs.add(l, value, delta);
    }
    return others.add(key, value, delta);
  }

  /**
   * Retracts {@code weight} of {@code value} from packed slot {@code s}; returns the weight left in
   * the entry it took from, or -1, changing nothing, when no single entry holds that much of it.
   */
  private long retractPacked(int s, V value, long weight) {
    long left = packed.retract(s, value, weight);
    compared += packed.scanned();
    if (packed.live() == 0) {
      packed = null;
    }
    return left;
  }

  /** Makes the bag of {@code key} from its packed entries, if it has any not opened yet. */
  private void open(long key) {
    int s = packed.slot(key);
    int n = s < 0 ? 0 : packed.count(s);
    if (n == 0) {
      return;
    }
    for (int e = packed.first(s); e >= 0; e = packed.next(e)) {
      longs.add(key, packed.value(e), packed.weight(e)); // positive, to a key with no bag
    }
    packed.open(s);
    opened += n;
    if (packed.live() == 0) {
      packed = null;
    }
  }

  /**
   * Adds {@code deltas[i]} to {@code values[i]} under {@code keys[i]} for every {@code i < n}
   * whose key is not null, with the same resulting index as adding them one by one in order. A
   * batch of at least {@value #BULK_AT} (a hydration) is built as one {@link BagBatch} over both
   * halves: each new key's bag is made once, exactly sized; a smaller one is added row by row. A
   * lazy index packs a first batch of at least {@link #PACK_AT} instead (see the class comment).
   * {@code deltas} null means every delta is 1 (a batch of unit weights).
   *
   * @return the least {@code i} whose value's weight became negative, or -1
   */
  public int addAll(Object[] keys, V[] values, long[] deltas, int n) {
    if (lazy && n >= PACK_AT && packed == null && longs.keys() == 0) {
      int done = pack(keys, values, deltas, n);
      if (done != NOT_PACKED) {
        return done;
      }
    }
    if (n < BULK_AT) {
      int negative = -1;
      for (int i = 0; i < n; i++) {
        if (keys[i] != null && add(keys[i], values[i], deltas == null ? 1 : deltas[i]) < 0 && negative < 0) {
          negative = i;
        }
      }
      return negative;
    }
    // the entries of Long keys, read once in order
    long[] lk = new long[n];
    int[] lo = new int[n];
    int m = 0;
    int otherCount = 0;
    for (int i = 0; i < n; i++) {
      Object key = keys[i];
      if (key instanceof Long l) {
        lk[m] = l;
        lo[m++] = i;
      } else if (key != null) {
        otherCount++;
      }
    }
    long before = longs.keys() + (long) others.keys();
    int negative = addLongs(lk, lo, m, values, deltas);
    int bad = otherCount == 0 ? -1 : addOthers(keys, values, deltas, n, otherCount);
    bulkBags += longs.keys() + (long) others.keys() - before;
    return bad >= 0 && (negative < 0 || bad < negative) ? bad : negative;
  }

  /**
   * {@link #addAll} of the entries of a hydration-sized batch noted in {@code batch}, whose values
   * must be {@code V}s: the same resulting index as {@link #addAll} of those entries with their
   * keys boxed, without the boxed keys' array. Unlike {@link #addAll}, it packs a lazy, empty
   * index's batch of additions whatever its size (its callers pass only hydration-sized batches,
   * far above {@link #PACK_AT}).
   *
   * @return the least entry index (see {@link LongBatch#value}) whose value's weight became negative, or -1
   */
  @SuppressWarnings("unchecked")
  public int addAll(LongBatch batch) {
    if (lazy && packed == null && longs.keys() == 0 && batch.positive) {
      PackedBags<V> p = PackedBags.of(batch);
      packs++;
      packed = p.live() == 0 ? null : p;
      return -1;
    }
    int m = batch.size;
    int[] lo = new int[m];
    for (int j = 0; j < m; j++) {
      lo[j] = j;
    }
    long before = longs.keys() + (long) others.keys();
    int negative = addLongs(batch.keys, lo, m, (V[]) batch.values, batch.deltas);
    bulkBags += longs.keys() + (long) others.keys() - before;
    return negative;
  }

  /**
   * The bulk add of the entries {@code values[lo[j]]} under {@code lk[j]}, with the deltas {@code
   * deltas[lo[j]]} (all 1 when {@code deltas} is null), {@code j < m}: one {@link LongKeyedBags} run.
   */
  private int addLongs(long[] lk, int[] lo, int m, V[] values, long[] deltas) {
    for (int j = 0; packed != null && j < m; j++) {
      open(lk[j]); // a bulk batch meets bags, as on an eager index
    }
    bulkLoads++;
    boolean ones = true;
    for (int j = 0; j < m && ones && deltas != null; j++) {
      ones = deltas[lo[j]] == 1;
    }
    int[] lh = new int[m];
    long[] lw = ones ? null : new long[m];
    for (int j = 0; j < m; j++) {
      lh[j] = values[lo[j]].hashCode();
      if (lw != null) {
        lw[j] = deltas[lo[j]];
      }
    }
    return longs.addAll(lk, values, lh, lw, lo, m);
  }

  /**
   * Packs a batch whose {@code Long} keys' deltas are all positive ({@link PackedBags}); entries
   * under other keys are indexed one by one.
   *
   * @return {@link #NOT_PACKED}, changing nothing, when a {@code Long} key's delta is not positive;
   *     else the least {@code i} whose value's weight became negative (a key of another kind), or -1
   */
  private int pack(Object[] keys, V[] values, long[] deltas, int n) {
    PackedBags<V> p = PackedBags.of(keys, values, deltas, n);
    if (p == null) {
      return NOT_PACKED;
    }
    packs++;
    packed = p.live() == 0 ? null : p;
    int negative = -1;
    for (int i = 0; i < n && p.others() > 0; i++) {
      Object key = keys[i];
      if (key != null && !(key instanceof Long) && others.add(key, values[i], deltas == null ? 1 : deltas[i]) < 0
          && negative < 0) {
        negative = i;
      }
    }
    return negative;
  }

  /** The bulk add of the {@code m} entries whose key is neither null nor a {@code Long}: one {@link BagBatch} run. */
  private int addOthers(Object[] keys, V[] values, long[] deltas, int n, int m) {
    int[] sh = new int[m];
    int[] so = new int[m];
    long[] sw = new long[m];
    BagBatch<V> batch = new BagBatch<>();
    for (int i = 0, j = 0; i < n; i++) {
      Object key = keys[i];
      if (key != null && !(key instanceof Long)) {
        sh[j] = values[i].hashCode();
        sw[j] = deltas == null ? 1 : deltas[i];
        so[j++] = i;
        batch.entry(others.bagFor(key), key);
      }
    }
    int negative = batch.build(values, sh, sw, so, 0, m);
    for (int g = 0; g < batch.groups(); g++) {
      others.settle(batch.key(g), batch.bag(g), batch.sizeBefore(g));
    }
    return negative;
  }

  /** How many batches {@link #addAll} built as a {@link BagBatch} (for tests). */
  public int bulkLoads() {
    return bulkLoads;
  }

  /** How many keys batches of {@link #addAll} added, net (each one's bag built whole; for tests). */
  public long bulkBags() {
    return bulkBags;
  }

  /** Number of keys in the primitive half. */
  public int longKeys() {
    return longs.keys();
  }

  /** Number of keys in the general half. */
  public int otherKeys() {
    return others.keys();
  }

  /**
   * Number of (key, value) entries: those in bags, and the packed ones not opened yet, each counted
   * as one (exact while a packed batch holds no value twice under one key, as a batch of distinct rows).
   */
  public long entries() {
    return longs.entries() + others.entries() + packed();
  }

  /** Packed entries whose keys were not opened yet (0 on an eager index). */
  public long packed() {
    return packed == null ? 0 : packed.live();
  }

  /** How many batches were packed instead of built into bags, for tests. */
  public int packs() {
    return packs;
  }

  /** Packed entries moved into bags so far, as their keys were looked up or changed (work done late). */
  public long opened() {
    return opened;
  }

  /** Packed entries compared with a retracted value so far, by retractions on keys still packed. */
  public long compared() {
    return compared;
  }

  /** The room for packed entries, retracted and opened ones included (0 with none packed), for tests. */
  int packedCapacity() {
    return packed == null ? 0 : packed.capacity();
  }

  /** Whether {@code key} has entries still packed (no bag made for them yet), for tests. */
  boolean isPacked(Object key) {
    if (packed == null || !(key instanceof Long l)) {
      return false;
    }
    int s = packed.slot(l);
    return s >= 0 && packed.count(s) > 0;
  }

}
