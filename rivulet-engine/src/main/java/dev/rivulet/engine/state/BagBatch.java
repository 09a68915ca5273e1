package dev.rivulet.engine.state;

import java.util.Arrays;

/**
 * Adds a run of (key, value, weight) entries to their keys' bags at once, with the same result as
 * adding them one by one in order. The entries are given as parallel arrays ({@code so} their
 * places in the caller's batch, whose values are {@code values[so[j]]}; {@code sh} the values' hash
 * codes; {@code sw} weights, or null for all ones). Only primitives are sorted, so a
 * hydration-sized batch stores no references into large arrays (G1 makes each such store costly).
 * The table finds each entry's bag, making an empty one for a new key, and hands it to {@link
 * #entry}, which numbers the bags in the order they are first met (their groups) and counts each
 * group's entries. {@link #build} then sorts the run by group (a counting sort, so each group keeps
 * its entries' order) and fills each new bag once from its slice ({@link Bag#load}: arrays of
 * exactly its size, no growth), while a bag that held values before takes its slice one by one.
 * Afterwards the table settles each group ({@link #bag}, {@link #sizeBefore}, {@link #key}, {@link
 * #longKey}): counts its entries and drops a bag left empty; then {@link #clear} readies the batch
 * for the next run.
 *
 * <p>Not thread-safe: lives within one call of a table's bulk add.
 *
 * @param <V> the values
 */
final class BagBatch<V> {
  private int[] groupOf = new int[16]; // per entry of the run: its group
  private Bag<V>[] bags; // per group
  private int[] sizeBefore = new int[16]; // per group: its bag's size before (0 for a new key)
  private int[] counts = new int[16]; // per group: its entries, then where its slice ends
  private Object[] keys; // per group, for a table of object keys
  private long[] longKeys; // per group, for a table of long keys
  private int groups;
  private int entries;
  // the run sorted by group (values stay where the caller has them: a bag reads values[go[j]])
  private int[] gh = new int[16];
  private int[] go = new int[16];
  private long[] gw;

  @SuppressWarnings("unchecked")
  BagBatch() {
    bags = new Bag[16];
  }

  /** Puts the run's next entry into {@code bag}, the bag of {@code key}. */
  void entry(Bag<V> bag, Object key) {
    if (bag.batchGroup == 0) {
      int g = open(bag);
      if (keys == null || keys.length < bags.length) {
        keys = keys == null ? new Object[bags.length] : Arrays.copyOf(keys, bags.length);
      }
      keys[g] = key;
    }
    add(bag);
  }

  /** Puts the run's next entry into {@code bag}, the bag of {@code key}. */
  void entry(Bag<V> bag, long key) {
    if (bag.batchGroup == 0) {
      int g = open(bag);
      if (longKeys == null || longKeys.length < bags.length) {
        longKeys = longKeys == null ? new long[bags.length] : Arrays.copyOf(longKeys, bags.length);
      }
      longKeys[g] = key;
    }
    add(bag);
  }

  private void add(Bag<V> bag) {
    if (entries == groupOf.length) {
      groupOf = Arrays.copyOf(groupOf, entries * 2);
    }
    int g = bag.batchGroup - 1;
    groupOf[entries++] = g;
    counts[g]++;
  }

  /** Numbers a bag not yet in the run; returns its group. */
  private int open(Bag<V> bag) {
    int g = groups++;
    if (g == bags.length) {
      bags = Arrays.copyOf(bags, g * 2);
      sizeBefore = Arrays.copyOf(sizeBefore, g * 2);
      counts = Arrays.copyOf(counts, g * 2);
    }
    bags[g] = bag;
    sizeBefore[g] = bag.size();
    counts[g] = 0;
    bag.batchGroup = g + 1;
    return g;
  }

  /**
   * Adds the run's entries, {@code from} to {@code to - 1} of the arrays (given to {@link #entry}
   * in that order), to their bags.
   *
   * @return the least {@code so[j]} whose value's weight became negative, or -1
   */
  int build(Object[] values, int[] sh, long[] sw, int[] so, int from, int to) {
    int n = to - from;
    if (gh.length < n) {
      int capacity = Math.max(n, gh.length * 2);
      gh = new int[capacity];
      go = new int[capacity];
      gw = null;
    }
    if (sw != null && (gw == null || gw.length < n)) {
      gw = new long[gh.length];
    }
    for (int g = 0, m = 0; g < groups; g++) {
      int c = counts[g];
      counts[g] = m;
      m += c;
    }
    for (int j = from; j < to; j++) {
      int p = counts[groupOf[j - from]]++;
      gh[p] = sh[j];
      go[p] = so[j];
      if (sw != null) {
        gw[p] = sw[j];
      }
    }
    long[] w = sw == null ? null : gw;
    int negative = -1;
    for (int g = 0, start = 0; g < groups; start = counts[g++]) {
      Bag<V> b = bags[g];
      b.batchGroup = 0;
      int bad = sizeBefore[g] == 0 ? b.load(values, gh, w, go, start, counts[g]) : b.addRange(values, gh, w, go, start, counts[g]);
      if (bad >= 0 && (negative < 0 || bad < negative)) {
        negative = bad;
      }
    }
    entries = 0;
    return negative;
  }

  /** Number of bags of the run last built; {@link #clear} before the next run. */
  int groups() {
    return groups;
  }

  /** Forgets the groups of the run last built (after the table settled them). */
  void clear() {
    Arrays.fill(bags, 0, groups, null);
    groups = 0;
  }

  Bag<V> bag(int g) {
    return bags[g];
  }

  /** The size of group {@code g}'s bag before the run (0 for a bag made for it). */
  int sizeBefore(int g) {
    return sizeBefore[g];
  }

  /** The key of group {@code g}, given to {@link #entry(Bag, Object)}. */
  Object key(int g) {
    return keys[g];
  }

  /** The key of group {@code g}, given to {@link #entry(Bag, long)}. */
  long longKey(int g) {
    return longKeys[g];
  }
}
