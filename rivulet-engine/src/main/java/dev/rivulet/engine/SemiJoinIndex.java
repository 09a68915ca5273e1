package dev.rivulet.engine;

import java.util.Arrays;

/**
 * The left side of a {@link SemiJoinOperator}: rows by key, each key with a chain of entries (one
 * per unit of multiplicity) in flat arrays, so adding a row allocates nothing but amortized array
 * growth. How: an open-addressing table of keys with the head of each chain; while every key is a
 * canonical integer ({@link Long}) the keys are kept as primitives and compared without reading a
 * key object, and the first other key switches the table for good to key objects. A key whose
 * chain empties keeps its slot until the table is next rebuilt.
 *
 * <p>Confined to the thread that runs the graph.
 */
final class SemiJoinIndex {
  /** No entry: the end of a chain. */
  static final int END = -1;
  private static final int FREE_SLOT = -2; // a heads value: the slot holds no key
  private static final long GOLDEN = 0x9E3779B97F4A7C15L;
  private static final int MIN_SLOTS = 16;

  private boolean primitive = true;
  private long[] longKeys; // primitive mode
  private Object[] keys; // object mode
  private int[] heads;
  private int shift;
  private int usedSlots;
  private Row[] rows = new Row[MIN_SLOTS];
  private int[] next = new int[MIN_SLOTS];
  private int highWater;
  private int free = END;
  private int size;

  SemiJoinIndex() {
    allocate(MIN_SLOTS);
  }

  /** Entries held (rows counted by multiplicity). */
  int size() {
    return size;
  }

  /** Makes room for {@code n} more entries (a hydration of known size; the keys still grow as they come). */
  void reserve(int n) {
    if (highWater + n > rows.length) {
      rows = Arrays.copyOf(rows, highWater + n);
      next = Arrays.copyOf(next, highWater + n);
    }
  }

  /** The first entry of {@code key}'s chain, or {@link #END}. */
  int head(Object key) {
    int s = find(key);
    return s < 0 ? END : heads[s];
  }

  int next(int entry) {
    return next[entry];
  }

  Row row(int entry) {
    return rows[entry];
  }

  /** Adds one unit of {@code row} under {@code key} (not null). */
  void add(Object key, Row row) {
    if (primitive && !(key instanceof Long)) {
      toObjects();
    }
    if ((usedSlots + 1) * 2L > heads.length) {
      rebuild(usedSlots + 1);
    }
    int s = primitive ? slotFor((long) (Long) key) : slotFor(key);
    int e = entry();
    rows[e] = row;
    next[e] = heads[s];
    heads[s] = e;
    size++;
  }

  /** Removes one unit of {@code row} under {@code key}; false when there is none. */
  boolean remove(Object key, Row row) {
    int s = find(key);
    int prev = END;
    for (int e = s < 0 ? END : heads[s]; e != END; prev = e, e = next[e]) {
      if (rows[e].equals(row)) {
        if (prev == END) {
          heads[s] = next[e];
        } else {
          next[prev] = next[e];
        }
        rows[e] = null;
        next[e] = free;
        free = e;
        size--;
        return true;
      }
    }
    return false;
  }

  private int entry() {
    if (free != END) {
      int e = free;
      free = next[e];
      return e;
    }
    if (highWater == rows.length) {
      rows = Arrays.copyOf(rows, rows.length * 2);
      next = Arrays.copyOf(next, next.length * 2);
    }
    return highWater++;
  }

  /** The slot of {@code key}, or -1. */
  private int find(Object key) {
    if (primitive) {
      if (!(key instanceof Long l)) {
        return -1; // every key held is a Long
      }
      long k = l;
      for (int s = slot(k), mask = heads.length - 1; heads[s] != FREE_SLOT; s = (s + 1) & mask) {
        if (longKeys[s] == k) {
          return s;
        }
      }
      return -1;
    }
    for (int s = slot(key.hashCode()), mask = heads.length - 1; heads[s] != FREE_SLOT; s = (s + 1) & mask) {
      if (keys[s].equals(key)) {
        return s;
      }
    }
    return -1;
  }

  /** The slot of primitive key {@code k}, taken (with an empty chain) if it has none. */
  private int slotFor(long k) {
    int mask = heads.length - 1;
    int s = slot(k);
    for (; heads[s] != FREE_SLOT; s = (s + 1) & mask) {
      if (longKeys[s] == k) {
        return s;
      }
    }
    longKeys[s] = k;
    heads[s] = END;
    usedSlots++;
    return s;
  }

  /** The slot of key object {@code key}, taken (with an empty chain) if it has none. */
  private int slotFor(Object key) {
    int mask = heads.length - 1;
    int s = slot(key.hashCode());
    for (; heads[s] != FREE_SLOT; s = (s + 1) & mask) {
      if (keys[s].equals(key)) {
        return s;
      }
    }
    keys[s] = key;
    heads[s] = END;
    usedSlots++;
    return s;
  }

  private int slot(long k) {
    return (int) ((k * GOLDEN) >>> shift);
  }

  private void allocate(int capacity) {
    heads = new int[capacity];
    Arrays.fill(heads, FREE_SLOT);
    if (primitive) {
      longKeys = new long[capacity];
    } else {
      keys = new Object[capacity];
    }
    shift = 64 - Integer.numberOfTrailingZeros(capacity);
    usedSlots = 0;
  }

  /** Rehashes the keys that still have entries into a table with room for {@code keys} keys at half load. */
  private void rebuild(int wanted) {
    long[] oldLongs = longKeys;
    Object[] oldKeys = keys;
    int[] oldHeads = heads;
    boolean wasPrimitive = primitive && oldLongs != null;
    int live = 0;
    for (int h : oldHeads) {
      live += h >= 0 ? 1 : 0;
    }
    int need = Math.max(wanted - usedSlots + live, live) * 2;
    allocate(Math.max(MIN_SLOTS, Integer.highestOneBit(Math.max(1, need - 1)) << 1));
    for (int s = 0; s < oldHeads.length; s++) {
      if (oldHeads[s] >= 0) {
        int t = wasPrimitive ? slotFor(oldLongs[s]) : slotFor(oldKeys[s]);
        heads[t] = oldHeads[s];
      }
    }
  }

  /** Switches for good to key objects (a key that is not a canonical integer arrived). */
  private void toObjects() {
    long[] oldLongs = longKeys;
    int[] oldHeads = heads;
    primitive = false;
    longKeys = null;
    allocate(heads.length);
    for (int s = 0; s < oldHeads.length; s++) {
      if (oldHeads[s] >= 0) {
        heads[slotFor((Object) Long.valueOf(oldLongs[s]))] = oldHeads[s];
      }
    }
  }
}
