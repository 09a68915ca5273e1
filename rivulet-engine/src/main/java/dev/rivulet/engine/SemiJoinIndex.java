package dev.rivulet.engine;

import java.util.Arrays;

/**
 * The left side of a {@link SemiJoinOperator}: rows by key, each key with a chain of entries (one
 * per unit of multiplicity) in flat arrays, so adding a row allocates nothing but amortized array
 * growth. Where a key's chain starts depends on the keys seen so far, each form given up for good
 * for the next when a key does not fit it:
 *
 * <ol>
 *   <li>dense: every key a canonical integer ({@link Long}) in a range not much wider than the
 *       entries (ids): the chain heads in an array indexed by key minus the range's start, no
 *       hashing and no key stored;
 *   <li>primitive: every key a canonical integer: an open-addressing table of the keys as
 *       primitives with their heads, compared without reading a key object;
 *   <li>object: an open-addressing table of key objects.
 * </ol>
 *
 * A key whose chain empties keeps its slot until a table is next rebuilt.
 *
 * <p>Confined to the thread that runs the graph.
 */
final class SemiJoinIndex {
  /** No entry: the end of a chain. */
  static final int END = -1;
  private static final int FREE_SLOT = -2; // a hashed table's heads value: the slot holds no key
  private static final long GOLDEN = 0x9E3779B97F4A7C15L;
  private static final int MIN_SLOTS = 16;
  private static final int DENSE_SLACK = 1024; // a dense range may be this much wider than 4 x the entry capacity

  private enum Form { DENSE, PRIMITIVE, OBJECT }

  private Form form = Form.DENSE;
  private long base; // dense: the key at heads[0]
  private long[] longKeys; // primitive
  private Object[] keys; // object
  private int[] heads = new int[0]; // dense: per key in range (END: none); hashed: per slot
  private int shift;
  private int usedSlots;
  private Row[] rows = new Row[MIN_SLOTS];
  private int[] next = new int[MIN_SLOTS];
  private int highWater;
  private int free = END;
  private int size;

  /** The current form: {@code "DENSE"}, {@code "PRIMITIVE"} or {@code "OBJECT"} (for tests). */
  String form() {
    return form.name();
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
    int s = slotFor(key);
    int e = entry();
    rows[e] = row;
    next[e] = heads[s];
    heads[s] = e;
    size++;
  }

  /** Removes one unit of {@code row} under {@code key}; false when there is none. */
  boolean remove(Object key, Row row) {
    int s = find(key);
    // by identity first (a retraction usually carries the stored row itself: no row is read),
    // then by equality
    return s >= 0 && (unlink(s, row, true) || unlink(s, row, false));
  }

  private boolean unlink(int s, Row row, boolean identity) {
    int prev = END;
    for (int e = heads[s]; e != END; prev = e, e = next[e]) {
      if (identity ? rows[e] == row : rows[e].equals(row)) {
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

  /** The slot (dense: the index) of {@code key}, or -1. */
  private int find(Object key) {
    switch (form) {
      case DENSE: {
        if (!(key instanceof Long l)) {
          return -1;
        }
        long i = l - base;
        return i >= 0 && i < heads.length ? (int) i : -1;
      }
      case PRIMITIVE: {
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
      default:
        for (int s = slot(key.hashCode()), mask = heads.length - 1; heads[s] != FREE_SLOT; s = (s + 1) & mask) {
          if (keys[s].equals(key)) {
            return s;
          }
        }
        return -1;
    }
  }

  /** The slot of {@code key}, taken (with an empty chain) if it has none; the form changes if the key needs it. */
  private int slotFor(Object key) {
    if (form != Form.OBJECT && !(key instanceof Long)) {
      toHashed(Form.OBJECT);
    }
    if (form == Form.DENSE) {
      long k = (Long) key;
      long i = k - base;
      if (i >= 0 && i < heads.length) {
        return (int) i;
      }
      if (widen(k)) {
        return (int) (k - base);
      }
      toHashed(Form.PRIMITIVE);
    }
    if ((usedSlots + 1) * 2L > heads.length) {
      rebuild(usedSlots + 1);
    }
    return form == Form.PRIMITIVE ? slotForLong((Long) key) : slotForObject(key);
  }

  /** Widens the dense range to hold {@code k} (with room to grow that way); false when it would be too wide. */
  private boolean widen(long k) {
    long limit = 4L * rows.length + DENSE_SLACK;
    long lo = heads.length == 0 ? k : Math.min(base, k);
    long hi = heads.length == 0 ? k + 1 : Math.max(base + heads.length, k + 1);
    if (hi - lo <= 0 || hi - lo > limit) {
      return false; // overflowed or too wide
    }
    long slack = Math.min(Math.max(heads.length, MIN_SLOTS), limit - (hi - lo));
    if (heads.length > 0 && k < base && lo - slack < lo) {
      lo -= slack;
    } else if (hi + slack > hi) {
      hi += slack;
    }
    int[] wider = new int[(int) (hi - lo)];
    Arrays.fill(wider, END);
    if (heads.length > 0) {
      System.arraycopy(heads, 0, wider, (int) (base - lo), heads.length);
    }
    heads = wider;
    base = lo;
    return true;
  }

  private int slotForLong(long k) {
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

  private int slotForObject(Object key) {
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
    longKeys = form == Form.PRIMITIVE ? new long[capacity] : null;
    keys = form == Form.OBJECT ? new Object[capacity] : null;
    shift = 64 - Integer.numberOfTrailingZeros(capacity);
    usedSlots = 0;
  }

  /** Moves every key with entries into a new table of form {@code to}, with room for {@code extra} more keys. */
  private void rehash(Form to, int extra) {
    Form from = form;
    long[] oldLongs = longKeys;
    Object[] oldKeys = keys;
    int[] oldHeads = heads;
    long oldBase = base;
    int live = 0;
    for (int h : oldHeads) {
      live += h >= 0 ? 1 : 0;
    }
    form = to;
    int need = Math.max(MIN_SLOTS, (live + extra) * 2);
    allocate(Integer.highestOneBit(need - 1) << 1);
    for (int s = 0; s < oldHeads.length; s++) {
      if (oldHeads[s] >= 0) {
        long k = from == Form.DENSE ? oldBase + s : from == Form.PRIMITIVE ? oldLongs[s] : 0;
        int t = to == Form.PRIMITIVE ? slotForLong(k) : slotForObject(from == Form.OBJECT ? oldKeys[s] : Long.valueOf(k));
        heads[t] = oldHeads[s];
      }
    }
  }

  private void rebuild(int wanted) {
    rehash(form, Math.max(1, wanted - usedSlots));
  }

  /** Gives up the current form for good for hashed form {@code to}. */
  private void toHashed(Form to) {
    rehash(to, 1);
  }
}
