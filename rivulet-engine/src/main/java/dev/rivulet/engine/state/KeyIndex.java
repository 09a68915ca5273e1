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
 * <p>A lazy index ({@link #KeyIndex(boolean)}) does not index a hydration-sized batch of positive
 * weights given to it while its primitive half is empty: the batch's entries under {@code Long}
 * keys wait in a {@link PendingLog} (parallel primitive arrays, no object per entry), and a key
 * is indexed on the first {@link #get}, {@link #prepare} or retraction that needs it, by a scan
 * of the log; later positive additions under a key not indexed yet are appended to the log.
 * Scans are paid from a budget of {@value #SCAN_BUDGET} reads of the whole log; a scan that would
 * pass it, or a {@link #prepare} of many keys, indexes the whole log at once instead (as {@link
 * #addAll} would have) and the index is eager from then on. So a join that looks up few keys of a
 * large side (an include's child semi-joined with its ~50 active buckets) never indexes the rest,
 * and one that looks up many pays at most the budget's scans more than an eager index. The
 * contents seen through {@link #get} are always those of the eager index.
 *
 * <p>Not thread-safe: owned by the operator's run loop (the operator that uses it).
 *
 * @param <V> the values, compared with {@code equals} within a key's bag
 */
public final class KeyIndex<V> {
  /** The least batch that {@link #addAll} sorts by key region instead of adding row by row. */
  public static final int BULK_AT = 4096;
  /** Whole-log reads a lazy index's scans may take before it indexes the whole log instead. */
  public static final int SCAN_BUDGET = 32;
  /** A {@link #prepare} of more than the log's live entries over this many keys indexes the whole log. */
  private static final int PREPARE_SHARE = 64;
  private static final int NOT_STARTED = -2;
  private final LongKeyedBags<V> longs = new LongKeyedBags<>();
  private final KeyedBags<Object, V> others = new KeyedBags<>();
  private final boolean lazy;
  private PendingLog<V> log; // null while eager
  private LongSet indexed; // with a log: the Long keys taken out of it (their entries are in longs)
  private int bulkLoads;
  private long bulkBags;
  private int scans;
  private long scanned;
  private int drains;

  /** An eager index. */
  public KeyIndex() {
    this(false);
  }

  /** @param lazy whether a hydration-sized batch may wait in a log until its keys are looked up (see the class comment) */
  public KeyIndex(boolean lazy) {
    this.lazy = lazy;
  }

  /** The bag of {@code key}, or null when the key has no values. */
  public Bag<V> get(Object key) {
    if (key instanceof Long l) {
      if (log != null && !indexed.contains(l)) {
        indexKey(l);
      }
      return longs.get(l);
    }
    return others.get(key);
  }

  /**
   * Adds {@code delta} to {@code value} under {@code key}; returns the value's new weight, except
   * that a positive {@code delta} under a key still in the log is appended to it and {@code delta}
   * is returned (a lower bound of the new weight: no weight can become negative by it).
   */
  public long add(Object key, V value, long delta) {
    if (key instanceof Long l) {
      if (log != null && !indexed.contains(l)) {
        if (delta > 0) {
          log.append(l, value, delta);
          return delta;
        }
        indexKey(l);
      }
      return longs.add(l, value, delta);
    }
    return others.add(key, value, delta);
  }

  /**
   * Makes sure the {@code Long} keys among {@code keys[0..n)} are indexed, with one scan of the log
   * for all of them (or by indexing the whole log, when they are many or the scan budget is spent).
   * Only a lazy index with a log does anything; {@link #get} would index each key alone.
   */
  public void prepare(Object[] keys, int n) {
    if (log == null) {
      return;
    }
    LongSet wanted = new LongSet();
    long[] list = new long[16];
    for (int i = 0; i < n; i++) {
      if (keys[i] instanceof Long l && !indexed.contains(l) && wanted.add(l)) {
        if ((long) wanted.size() * PREPARE_SHARE > log.live()) {
          drain(); // many keys: one bulk build costs less than their scans
          return;
        }
        if (wanted.size() > list.length) {
          list = java.util.Arrays.copyOf(list, list.length * 2);
        }
        list[wanted.size() - 1] = l;
      }
    }
    if (wanted.size() == 0) {
      return;
    }
    if (budgetSpent()) {
      drain();
      return;
    }
    int[] at = log.matching(wanted, list, wanted.size());
    countScan();
    take(at);
    for (int j = 0; j < wanted.size(); j++) {
      indexed.add(list[j]);
    }
  }

  /** Indexes the log's entries under {@code key} (a scan), or the whole log when the budget is spent. */
  private void indexKey(long key) {
    if (budgetSpent()) {
      drain();
      return;
    }
    int[] at = log.matching(key);
    countScan();
    take(at);
    indexed.add(key);
  }

  private boolean budgetSpent() {
    return scanned + log.size() > (long) SCAN_BUDGET * log.size();
  }

  private void countScan() {
    scans++;
    scanned += log.size();
  }

  /** Moves the log's entries at {@code at} (of keys not indexed, positive weights) into the primitive half. */
  private void take(int[] at) {
    for (int i : at) {
      longs.add(log.key(i), log.value(i), log.weight(i));
    }
    log.died(at.length);
  }

  /** Indexes every live entry of the log in one bulk build; the index is eager from then on. */
  @SuppressWarnings("unchecked")
  private void drain() {
    PendingLog<V> l = log;
    LongSet done = indexed;
    log = null;
    indexed = null;
    drains++;
    int m = l.live();
    long[] lk = new long[m];
    int[] lh = new int[m];
    int[] lo = new int[m];
    Object[] vs = new Object[m];
    long[] lw = null;
    boolean dead = l.live() < l.size();
    for (int i = 0, j = 0; i < l.size(); i++) {
      long k = l.key(i);
      if (dead && done.contains(k)) {
        continue;
      }
      lk[j] = k;
      vs[j] = l.value(i);
      lh[j] = vs[j].hashCode();
      lo[j] = j;
      long w = l.weight(i);
      if (w != 1 && lw == null) {
        lw = new long[m];
        java.util.Arrays.fill(lw, 0, j, 1);
      }
      if (lw != null) {
        lw[j] = w;
      }
      j++;
    }
    long before = longs.keys();
    longs.addAll(lk, vs, lh, lw, lo, m); // positive weights under keys with no bag: never negative
    bulkLoads++;
    bulkBags += longs.keys() - before;
  }

  /**
   * Adds {@code deltas[i]} to {@code values[i]} under {@code keys[i]} for every {@code i < n}
   * whose key is not null, with the same resulting index as adding them one by one in order. A
   * batch of at least {@value #BULK_AT} (a hydration) is built as one {@link BagBatch} over both
   * halves: each new key's bag is made once, exactly sized; a smaller one is added row by row.
   *
   * @return the least {@code i} whose value's weight became negative, or -1
   */
  public int addAll(Object[] keys, V[] values, long[] deltas, int n) {
    if (lazy && n >= BULK_AT && log == null && longs.keys() == 0) {
      int started = startLog(keys, values, deltas, n);
      if (started != NOT_STARTED) {
        return started;
      }
    }
    if (log != null && n >= BULK_AT && !allPositive(deltas, n)) {
      drain();
    }
    if (n < BULK_AT || log != null) {
      int negative = -1;
      for (int i = 0; i < n; i++) {
        if (keys[i] != null && add(keys[i], values[i], deltas[i]) < 0 && negative < 0) {
          negative = i;
        }
      }
      return negative;
    }
    bulkLoads++;
    boolean ones = true;
    for (int i = 0; i < n && ones; i++) {
      ones = deltas[i] == 1;
    }
    // the entries of Long keys, with their values' hashes, read once in order
    long[] lk = new long[n];
    int[] lh = new int[n];
    int[] lo = new int[n];
    long[] lw = ones ? null : new long[n];
    int m = 0;
    int otherCount = 0;
    for (int i = 0; i < n; i++) {
      Object key = keys[i];
      if (key instanceof Long l) {
        lk[m] = l;
        lh[m] = values[i].hashCode();
        lo[m] = i;
        if (lw != null) {
          lw[m] = deltas[i];
        }
        m++;
      } else if (key != null) {
        otherCount++;
      }
    }
    long before = longs.keys() + (long) others.keys();
    int negative = longs.addAll(lk, values, lh, lw, lo, m);
    int bad = otherCount == 0 ? -1 : addOthers(keys, values, deltas, n, otherCount);
    bulkBags += longs.keys() + (long) others.keys() - before;
    return bad >= 0 && (negative < 0 || bad < negative) ? bad : negative;
  }

  private static boolean allPositive(long[] deltas, int n) {
    for (int i = 0; i < n; i++) {
      if (deltas[i] <= 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * Starts the log with a batch whose {@code Long} keys' deltas are all positive: their entries wait
   * there, the others are indexed one by one.
   *
   * @return {@link #NOT_STARTED}, changing nothing, when a {@code Long} key's delta is not positive;
   *     else the least {@code i} whose value's weight became negative (a key of another kind), or -1
   */
  private int startLog(Object[] keys, V[] values, long[] deltas, int n) {
    PendingLog<V> l = PendingLog.of(keys, values, deltas, n);
    if (l == null) {
      return NOT_STARTED;
    }
    log = l;
    indexed = new LongSet();
    int negative = -1;
    for (int i = 0; i < n; i++) {
      Object key = keys[i];
      if (key != null && !(key instanceof Long) && others.add(key, values[i], deltas[i]) < 0 && negative < 0) {
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
        sw[j] = deltas[i];
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
   * Number of (key, value) entries: the indexed ones, and the log's live entries each counted as
   * one (exact while the log holds no value twice under one key, as a batch of distinct rows).
   */
  public long entries() {
    return longs.entries() + others.entries() + (log == null ? 0 : log.live());
  }

  /** Live entries waiting in the log (0 when eager), for tests. */
  public long pending() {
    return log == null ? 0 : log.live();
  }

  /** How many scans of the log indexed keys. */
  public int scans() {
    return scans;
  }

  /** Log entries read by scans, in total (the work a lazy index did instead of indexing them). */
  public long scanned() {
    return scanned;
  }

  /** How many times the whole log was indexed at once, for tests. */
  public int drains() {
    return drains;
  }
}
