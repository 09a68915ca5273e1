package dev.rivulet.engine.state;

import java.util.Arrays;

/**
 * The entries of one hydration-sized batch under {@code long} keys with positive weights, packed
 * by key into primitive arrays: a table of the distinct keys, each slot with its entry count and
 * the first and last of its entries, which are chained in batch order ({@code next}), beside the
 * batch's packed values and weights. Dense keys (their range less than twice the entries, as ids
 * are) take the slot {@code key - least key}, with no hashing; others a {@link LongSlots} table,
 * at most half full. A pass over the batch sizes it and one more builds it (backwards, so each
 * chain comes out in batch order); no object per key or entry and no value hash is made. A key's
 * entries are read only when it is {@link #open}ed, after which its slot is closed for good (the
 * caller holds the key's entries from then on). Until then a key may take more additions ({@link
 * #append}), at the end of its chain, and retractions ({@link #retract}): the retracted value's
 * entry is found in the chain and loses weight, or is unlinked from the chain when none is left; a
 * key whose last entry goes is closed, with no entries. A per-entry weight array is made only when
 * some weight is not 1.
 *
 * <p>Finding a retracted value. The very object first, as a retraction usually passes the row it
 * once added: a walk over the key's entries that reads no value. Else an equal one, by hash: a
 * side that takes equal copies (a join's output retracted through an upstream join is rebuilt)
 * would read every entry's value, its fields cold, on each such walk, so the first retraction that
 * misses by identity notes the hash of every live entry at once (a pass over the values, once per
 * side; appended entries are hashed when first compared), and later walks compare ints. When that
 * retraction is also the first change, the pass runs before the layout: over the values in batch
 * order, the order they were made in and mostly sit in memory (W3 at 1M rows: 70 -> 30 ms).
 *
 * <p>Layout. A chain walked entry by entry across the whole batch costs a cache miss per entry;
 * one whose entries are consecutive reads a few lines. A batch grouped by key (as under unique
 * keys) packs into such runs as it is. A scattered one is packed as it comes, so that hydration
 * does not pay for the layout, and the first change moves the live entries into one run per key
 * (a pass over the entries, once). When an append finds the arrays full and at most half their
 * entries live, the live entries are moved the same way to the front, so a packed side changed
 * for a long time grows its room only while more than half of it is live: within about three
 * times the most entries it ever held live.
 *
 * <p>Not thread-safe: owned by the index that uses it.
 *
 * @param <V> the values
 */
final class PackedBags<V> {
  private static final int CHUNK = 64;
  private LongSlots slots; // hashed table only
  private int[] counts; // per slot: its key's entries; 0 for an empty slot, -1 once opened or emptied
  private int[] heads; // per slot: its first entry
  private int[] tails; // per slot: its last entry
  private final long base; // dense table: the least key
  private final boolean dense;
  private int[] next; // per entry: the next entry of its key, or -1
  private Object[] values;
  private long[] weights; // per entry, or null while all are 1
  private int size; // entries, appended ones included
  private final int others;
  private long live;
  private int scanned; // entries the last retract compared
  private int[] hashes; // per entry, 0 while not known; made at the first identity miss
  private boolean scattered; // some key's entries are not one run of consecutive entries

  private PackedBags(long base, boolean dense, int capacity, Object[] values, long[] weights, int n, int others) {
    this.base = base;
    this.dense = dense;
    if (!dense) {
      slots = new LongSlots(capacity);
      capacity = slots.slots();
    }
    counts = new int[capacity];
    heads = new int[capacity];
    tails = new int[capacity];
    this.values = values;
    this.weights = weights;
    this.next = new int[n];
    this.others = others;
  }

  /**
   * Packs the entries of {@code keys[0..n)} whose key is a {@code Long} ({@code deltas} null: all
   * 1), or returns null when a delta among them is not positive (only additions to keys with no values are packed). Two
   * passes over the batch, in chunks of {@value #CHUNK} entries (one call each, so that a fresh JVM
   * compiles them early): one finds the packed entries' count and key range, the other chains
   * them; the arrays are sized to the packed entries, not to the batch.
   */
  static <V> PackedBags<V> of(Object[] keys, Object[] values, long[] deltas, int n) {
    Survey s = new Survey();
    for (int from = 0; from < n && s.ok; from += CHUNK) {
      s.scan(keys, deltas, from, Math.min(n, from + CHUNK));
    }
    if (!s.ok) {
      return null;
    }
    int m = s.packed;
    PackedBags<V> p = s.bags(new Object[m], s.ones ? null : new long[m]);
    for (int to = n, j = m; to > 0; to -= CHUNK) {
      j = p.pack(keys, values, deltas, Math.max(0, to - CHUNK), to, j);
    }
    return p;
  }

  /**
   * Packs the entries noted in {@code batch}, whose deltas must be positive, as {@link #of} packs
   * a batch with those keys boxed; the noted key range spares the survey pass, and the noted values
   * and deltas are taken over (trimmed to the entries).
   */
  static <V> PackedBags<V> of(LongBatch batch) {
    int m = batch.size;
    Survey s = new Survey();
    s.packed = m;
    s.min = batch.min;
    s.max = batch.max;
    Object[] vs = m == batch.values.length ? batch.values : Arrays.copyOf(batch.values, m);
    long[] ws = batch.deltas == null ? null : Arrays.copyOf(batch.deltas, m);
    PackedBags<V> p = s.bags(vs, ws);
    for (int to = m; to > 0; to -= CHUNK) {
      p.pack(batch.keys, Math.max(0, to - CHUNK), to);
    }
    return p;
  }

  /** What the first pass of {@link #of} finds: the packed entries' count, key range and weights. */
  private static final class Survey {
    int packed;
    int others;
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    boolean ones = true;
    boolean ok = true;

    void scan(Object[] keys, long[] deltas, int from, int to) {
      for (int i = from; i < to; i++) {
        if (keys[i] instanceof Long l) {
          long w = deltas == null ? 1 : deltas[i];
          if (w != 1) {
            ok &= w > 0;
            ones = false;
          }
          long k = l;
          min = Math.min(min, k);
          max = Math.max(max, k);
          packed++;
        } else if (keys[i] != null) {
          others++;
        }
      }
    }

    /** Packed bags with no chains yet over the surveyed entries' {@code values} and {@code weights} (dense when their key range allows). */
    <V> PackedBags<V> bags(Object[] values, long[] weights) {
      int m = packed;
      long range = max - min;
      boolean dense = m > 0 && range >= 0 && range < 2L * m;
      int capacity = dense ? (int) (range + 1) : Math.max(16, Integer.highestOneBit(Math.max(1, m / 4)) * 2);
      PackedBags<V> p = new PackedBags<>(min, dense, capacity, values, weights, m, others);
      p.live = m;
      p.size = m;
      return p;
    }
  }

  /**
   * Chains the packed entries of batch rows {@code [from, to)}, last first, so that every chain
   * runs in batch order; {@code j} is the entry index after the chunk's last packed entry. Returns
   * the chunk's first packed entry index.
   */
  private int pack(Object[] keys, Object[] vs, long[] deltas, int from, int to, int j) {
    for (int i = to - 1; i >= from; i--) {
      if (keys[i] instanceof Long l) {
        j--;
        values[j] = vs[i];
        if (weights != null) {
          weights[j] = deltas[i];
        }
        link(j, l);
      }
    }
    return j;
  }

  /** Chains the entries {@code [from, to)}, whose keys are {@code keys}, last first. */
  private void pack(long[] keys, int from, int to) {
    if (!dense) {
      for (int j = to - 1; j >= from; j--) {
        link(j, keys[j]);
      }
      return;
    }
    // link's dense case, over locals: a hydration's first chunks run interpreted, where each call
    // and field read costs
    int[] c = counts;
    int[] h = heads;
    int[] t = tails;
    int[] nx = next;
    long b = base;
    boolean sc = scattered;
    for (int j = to - 1; j >= from; j--) {
      int s = (int) (keys[j] - b);
      if (c[s] == 0) {
        nx[j] = -1;
        t[s] = j;
      } else {
        sc |= h[s] != j + 1;
        nx[j] = h[s];
      }
      h[s] = j;
      c[s]++;
    }
    scattered = sc;
  }

  /** Makes entry {@code j} the first of key {@code k}'s chain (entries are linked last first). */
  private void link(int j, long k) {
    int s = dense ? (int) (k - base) : slotFor(k);
    if (counts[s] == 0) {
      next[j] = -1;
      tails[s] = j;
    } else {
      scattered |= heads[s] != j + 1;
      next[j] = heads[s];
    }
    heads[s] = j;
    counts[s]++;
  }

  /** The slot of {@code key} in the hashed table, claimed when new (the table grows at half full). */
  private int slotFor(long key) {
    int s = slots.claim(key);
    if (s >= 0) {
      return s;
    }
    if (slots.crowded()) {
      rehash();
      return slots.find(key);
    }
    return ~s;
  }

  /** The slot of {@code key}, or -1 when the batch had no entry under it. */
  int slot(long key) {
    if (dense) {
      long s = key - base;
      return s >= 0 && s < counts.length && counts[(int) s] != 0 ? (int) s : -1;
    }
    return slots.find(key);
  }

  /** The number of entries of slot {@code s} still packed (0 once opened). */
  int count(int s) {
    return Math.max(0, counts[s]);
  }

  /** The first entry of slot {@code s}, which must have entries still packed. */
  int first(int s) {
    return heads[s];
  }

  /** The entry after {@code e} under the same key, or -1. */
  int next(int e) {
    return next[e];
  }

  @SuppressWarnings("unchecked")
  V value(int e) {
    return (V) values[e];
  }

  long weight(int e) {
    return weights == null ? 1 : weights[e];
  }

  /**
   * Appends {@code value} with {@code weight > 0} to the entries of slot {@code s}, which must have
   * entries still packed (the first change after a scattered batch's packing lays them out first).
   */
  void append(int s, Object value, long weight) {
    if (scattered || size == next.length && live <= size >> 1) {
      compact(); // the first change, or most entries were retracted or opened: reuse their room
    }
    if (size == next.length) {
      int capacity = size + (size >> 1) + 16;
      next = Arrays.copyOf(next, capacity);
      values = Arrays.copyOf(values, capacity);
      if (hashes != null) {
        hashes = Arrays.copyOf(hashes, capacity);
      }
      if (weights != null) {
        weights = Arrays.copyOf(weights, capacity);
      }
    }
    if (weight != 1) {
      weights();
    }
    int e = size++;
    values[e] = value;
    if (weights != null) {
      weights[e] = weight;
    }
    next[e] = -1;
    next[tails[s]] = e;
    tails[s] = e;
    counts[s]++;
    live++;
  }

  /**
   * Takes {@code weight > 0} from the first entry of slot {@code s}, which must have entries still
   * packed, that holds {@code value}: the very object if an entry holds it, else the first entry
   * holding a value {@code equals} to it (hashes compared first, see the class comment). An entry
   * left with no weight is unlinked from the chain (the slot is closed when it was the last).
   * {@link #scanned} tells how many entries were compared. The first change after a scattered
   * batch's packing lays the entries out first.
   *
   * @return the entry's weight left (0 or more); or -1, changing nothing, when no entry holds the
   *     value or the one found holds less than {@code weight}
   */
  long retract(int s, Object value, long weight) {
    if (scattered) {
      if (hashes == null && !holds(s, value)) {
        hashAll(); // before the layout: the values still in batch order, as they were made
      }
      compact();
    }
    scanned = 0;
    int prev = -1;
    int e = heads[s];
    while (e >= 0 && values[e] != value) { // identity first: no equals on the key's other values
      scanned++;
      prev = e;
      e = next[e];
    }
    if (e < 0) {
      if (hashes == null) {
        hashAll();
      }
      int h = value.hashCode();
      prev = -1;
      e = heads[s];
      while (e >= 0 && (hash(e) != h || !value.equals(values[e]))) {
        scanned++;
        prev = e;
        e = next[e];
      }
    }
    if (e < 0) {
      return -1;
    }
    scanned++;
    long left = weight(e) - weight;
    if (left < 0) {
      return -1;
    }
    if (left > 0) {
      weights()[e] = left;
      return left;
    }
    unlink(s, prev, e);
    return 0;
  }

  /** Notes the hash of every entry held: once, at the first identity miss (see the class doc). */
  private void hashAll() {
    hashes = new int[next.length];
    for (int e = 0; e < size; e++) {
      if (values[e] != null) {
        hashes[e] = values[e].hashCode();
      }
    }
  }

  /** Whether slot {@code s}'s chain holds the very object {@code value}. */
  private boolean holds(int s, Object value) {
    for (int e = heads[s]; e >= 0; e = next[e]) {
      if (values[e] == value) {
        return true;
      }
    }
    return false;
  }

  /** The hash of entry {@code e}'s value, noted on first need. */
  private int hash(int e) {
    int h = hashes[e];
    if (h == 0) {
      h = hashes[e] = values[e].hashCode();
    }
    return h;
  }

  /**
   * Moves the live entries to the front of new arrays of the same length, each key's chain made one
   * run of consecutive entries in its order: on the first change after a scattered batch's
   * packing, and so that a packed side changed for a long time (each change appends an entry and
   * unlinks one) reuses the room of its dead entries instead of growing, and no opened value stays
   * reachable.
   */
  private void compact() {
    int capacity = next.length;
    int[] nx = new int[capacity];
    Object[] vs = new Object[capacity];
    long[] ws = weights == null ? null : new long[capacity];
    int[] hs = hashes == null ? null : new int[capacity];
    int j = 0;
    for (int s = 0; s < counts.length; s++) {
      if (counts[s] > 0) {
        int e = heads[s];
        heads[s] = j;
        for (; e >= 0; e = next[e]) {
          vs[j] = values[e];
          if (ws != null) {
            ws[j] = weights[e];
          }
          if (hs != null) {
            hs[j] = hashes[e];
          }
          nx[j] = j + 1;
          j++;
        }
        nx[j - 1] = -1;
        tails[s] = j - 1;
      }
    }
    next = nx;
    values = vs;
    weights = ws;
    hashes = hs;
    size = j;
    scattered = false;
  }

  /** Whether some key's entries are not one run of consecutive entries (until the first change). */
  boolean scattered() {
    return scattered;
  }

  /** Whether the entries' hashes are noted (since the first retraction that missed by identity). */
  boolean hashed() {
    return hashes != null;
  }

  /** How many entries the last {@link #retract} compared with its value. */
  int scanned() {
    return scanned;
  }

  /** Removes entry {@code e}, which follows {@code prev} (-1 for the head), from slot {@code s}'s chain. */
  private void unlink(int s, int prev, int e) {
    int after = next[e];
    if (prev < 0) {
      heads[s] = after;
    } else {
      next[prev] = after;
    }
    if (tails[s] == e) {
      tails[s] = prev;
    }
    values[e] = null; // not reachable from the chain any more; let the value go
    live--;
    if (--counts[s] == 0) {
      counts[s] = -1; // no entries: closed, so that a hashed table's probes still pass the slot
    }
  }

  /** The per-entry weights, made (all 1 so far) on the first weight that is not 1. */
  private long[] weights() {
    if (weights == null) {
      weights = new long[next.length];
      Arrays.fill(weights, 0, size, 1);
    }
    return weights;
  }

  /** Closes slot {@code s}: its entries are the caller's from now on. */
  void open(int s) {
    live -= count(s);
    counts[s] = -1;
  }

  /** The room for entries: live, appended, retracted and opened ones until the next compaction. */
  int capacity() {
    return next.length;
  }

  /** Number of entries not opened yet. */
  long live() {
    return live;
  }

  /** Number of entries of the batch under keys neither null nor {@code Long} (not packed). */
  int others() {
    return others;
  }

  /** Doubles the hashed table, keeping each slot's count and entries. */
  private void rehash() {
    LongSlots old = slots;
    int[] oldCounts = counts;
    int[] oldHeads = heads;
    int[] oldTails = tails;
    slots = new LongSlots(old.capacity() * 2);
    counts = new int[slots.slots()];
    heads = new int[slots.slots()];
    tails = new int[slots.slots()];
    for (int i = 0; i < oldCounts.length; i++) {
      if (old.used(i)) {
        int s = ~slots.claim(old.key(i));
        counts[s] = oldCounts[i];
        heads[s] = oldHeads[i];
        tails[s] = oldTails[i];
      }
    }
  }
}
