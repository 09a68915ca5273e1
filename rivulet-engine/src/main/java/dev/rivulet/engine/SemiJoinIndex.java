package dev.rivulet.engine;

import dev.rivulet.engine.state.LongSlots;
import java.util.Arrays;

/**
 * The left side of a {@link SemiJoinOperator}: rows by key, each key with a chain of entries (a
 * row and its positive weight) in flat arrays, so adding a row allocates nothing but amortized
 * array growth, whatever its weight. A plain chain may hold one row in several entries (their
 * weights add up); an indexed one (below) holds each row once. Where a key's chain starts depends on the keys seen so far, each form given up for good
 * for the next when a key does not fit it:
 *
 * <ol>
 *   <li>dense: every key a canonical integer ({@link Long}) in a range not much wider than the
 *       entries (ids): the chain heads in an array indexed by key minus the range's start, no
 *       hashing and no key stored;
 *   <li>primitive: every key a canonical integer: the keys as primitives in a {@link LongSlots}
 *       table with their heads beside it, compared without reading a key object;
 *   <li>object: an open-addressing table of key objects.
 * </ol>
 *
 * A key whose chain empties keeps its slot until a table is next rebuilt.
 *
 * <p>Removing a row walks its key's chain until it finds it. A key whose removal walked past
 * {@value #INDEX_AT} entries is indexed from then on: its chain becomes doubly linked and its
 * entries are found by their rows ({@link RowEntries}), so a removal from a long chain (an
 * active bucket of thousands of children) takes the same few steps as from a short one. The mark
 * is kept in the key's head ({@link #indexedHead}), so it moves with the key when a table is rebuilt.
 *
 * <p>Confined to the thread that runs the graph.
 */
final class SemiJoinIndex {
  /** No entry: the end of a chain. */
  static final int END = -1;
  private static final int FREE_SLOT = -2; // a hashed table's heads value: the slot holds no key
  // an indexed chain's head value: INDEXED_EMPTY - 1 - first entry, so INDEXED_EMPTY when empty
  private static final int INDEXED_EMPTY = -3;
  private static final int MIN_SLOTS = 16;
  private static final int DENSE_SLACK = 1024; // a dense range may be this much wider than 4 x the entry capacity
  /** A removal that walks more entries than this indexes its key. */
  static final int INDEX_AT = 32;

  private enum Form { DENSE, PRIMITIVE, OBJECT }

  private final int indexAt;
  private Form form = Form.DENSE;
  private long base; // dense: the key at heads[0]
  private LongSlots longKeys; // primitive
  private Object[] keys; // object
  private int[] heads = new int[0]; // dense: per key in range (END: none); hashed: per slot; indexed: indexedHead
  private int bits; // object: log2 of the slots
  private int usedSlots; // object
  private Row[] rows = new Row[MIN_SLOTS];
  private long[] weights = new long[MIN_SLOTS];
  private int[] next = new int[MIN_SLOTS];
  private int[] prev; // indexed keys' entries: the previous entry of the chain (END: the head); null until one is
  private RowEntries indexed; // indexed keys' entries by row; null until a key is indexed
  private int highWater;
  private int free = END;
  private int size;

  SemiJoinIndex() {
    this(INDEX_AT);
  }

  /** An index whose keys are indexed after a removal walks past {@code indexAt} entries (tests: never, to compare). */
  SemiJoinIndex(int indexAt) {
    this.indexAt = indexAt;
  }

  /** The current form: {@code "DENSE"}, {@code "PRIMITIVE"} or {@code "OBJECT"} (for tests). */
  String form() {
    return form.name();
  }

  /** Whether {@code key}'s chain is indexed by row (for tests). */
  boolean indexed(Object key) {
    int s = find(key);
    return s >= 0 && heads[s] <= INDEXED_EMPTY;
  }

  /** Entries held (a row added twice to a plain chain may hold two). */
  int size() {
    return size;
  }

  /** Makes room for {@code n} more entries (a hydration of known size; the keys still grow as they come). */
  void reserve(int n) {
    if (highWater + n > rows.length) {
      grow(highWater + n);
    }
  }

  private void grow(int capacity) {
    rows = Arrays.copyOf(rows, capacity);
    weights = Arrays.copyOf(weights, capacity);
    next = Arrays.copyOf(next, capacity);
    prev = prev == null ? null : Arrays.copyOf(prev, capacity);
  }

  /** The first entry of {@code key}'s chain, or {@link #END}. */
  int head(Object key) {
    int s = find(key);
    return s < 0 ? END : chainHead(heads[s]);
  }

  int next(int entry) {
    return next[entry];
  }

  Row row(int entry) {
    return rows[entry];
  }

  /** The weight of {@code entry}'s row in it (positive). */
  long weight(int entry) {
    return weights[entry];
  }

  /**
   * Adds one unit of {@code row} under {@code key} (not null). The key is a function of the row
   * (the semi-join's key columns): equal rows are never added under different keys, as an indexed
   * key's rows are found among all indexed rows by their values alone.
   */
  void add(Object key, Row row) {
    add(key, row, 1);
  }

  /** Adds {@code w} (positive) units of {@code row} under {@code key} (not null): at most one entry, whatever {@code w}. */
  void add(Object key, Row row, long w) {
    int s = slotFor(key);
    int h = heads[s];
    if (h <= INDEXED_EMPTY) {
      int held = indexed.find(row, rows);
      if (held >= 0) {
        weights[held] += w;
        return;
      }
    }
    int e = entry();
    rows[e] = row;
    weights[e] = w;
    if (h > INDEXED_EMPTY) {
      next[e] = h;
      heads[s] = e;
    } else {
      int first = chainHead(h);
      next[e] = first;
      prev[e] = END;
      if (first != END) {
        prev[first] = e;
      }
      heads[s] = indexedHead(e);
      indexed.add(e, rows);
    }
    size++;
  }

  /** Removes one unit of {@code row} under {@code key}; false when there is none. */
  boolean remove(Object key, Row row) {
    return remove(key, row, 1);
  }

  /**
   * Removes {@code w} (positive) units of {@code row} under {@code key}; false, and nothing
   * removed, when fewer are held.
   */
  boolean remove(Object key, Row row, long w) {
    int s = find(key);
    if (s < 0) {
      return false;
    }
    if (heads[s] <= INDEXED_EMPTY) {
      int e = indexed.find(row, rows);
      if (e < 0 || weights[e] < w) {
        return false;
      }
      weights[e] -= w;
      if (weights[e] == 0) {
        unlinkIndexed(s, e);
      }
      return true;
    }
    long steps = w == 1 ? unlinkOne(s, row) : held(s, row, w);
    boolean enough = steps >= 0;
    if (w == 1) {
      w = 0; // taken by unlinkOne
    }
    if (enough && w > 0) {
      // by identity first (a retraction usually carries the stored row itself: no row is read),
      // then by equality
      long rest = take(s, row, w, true);
      if (rest > 0) {
        take(s, row, rest, false);
      }
    }
    if ((enough ? steps : ~steps) > indexAt) {
      index(s);
    }
    return enough;
  }

  /**
   * Takes one unit of {@code row} from slot {@code s}'s plain chain: from the entry holding the
   * row itself, else from the first holding an equal row; the entries walked, negated (~) when
   * neither is there.
   */
  private long unlinkOne(int s, Row row) {
    long steps = unitFrom(s, row, true);
    return steps >= 0 ? steps : unitFrom(s, row, false);
  }

  private long unitFrom(int s, Row row, boolean identity) {
    int before = END;
    long steps = 0;
    for (int e = heads[s]; e != END; before = e, e = next[e], steps++) {
      if (identity ? rows[e] == row : rows[e].equals(row)) {
        if (--weights[e] == 0) {
          if (before == END) {
            heads[s] = next[e];
          } else {
            next[before] = next[e];
          }
          release(e);
        }
        return steps;
      }
    }
    return ~steps;
  }

  /**
   * Whether slot {@code s}'s plain chain holds {@code w} units of {@code row}: the entries walked
   * until it was seen to, else the whole chain's length negated (~).
   */
  private long held(int s, Row row, long w) {
    long have = 0;
    long steps = 0;
    for (int e = heads[s]; e != END; e = next[e], steps++) {
      if (rows[e] == row || rows[e].equals(row)) {
        if (weights[e] >= w - have) {
          return steps;
        }
        have += weights[e];
      }
    }
    return ~steps;
  }

  /** Takes up to {@code w} units of {@code row} from slot {@code s}'s plain chain, unlinking emptied entries; the units not found. */
  private long take(int s, Row row, long w, boolean identity) {
    int before = END;
    for (int e = heads[s]; e != END && w > 0; ) {
      int after = next[e];
      if (identity ? rows[e] == row : rows[e].equals(row)) {
        long t = Math.min(w, weights[e]);
        w -= t;
        weights[e] -= t;
        if (weights[e] == 0) {
          if (before == END) {
            heads[s] = after;
          } else {
            next[before] = after;
          }
          release(e);
          e = after;
          continue;
        }
      }
      before = e;
      e = after;
    }
    return w;
  }

  private void unlinkIndexed(int s, int e) {
    indexed.remove(e, rows);
    int after = next[e];
    int before = prev[e];
    if (before == END) {
      heads[s] = indexedHead(after);
    } else {
      next[before] = after;
    }
    if (after != END) {
      prev[after] = before;
    }
    release(e);
  }

  private void release(int e) {
    rows[e] = null;
    next[e] = free;
    free = e;
    size--;
  }

  /**
   * Indexes slot {@code s}'s plain chain: links it back and puts its entries in the row table,
   * an entry of a row already there merged into that row's first entry (an indexed chain holds
   * each row once).
   */
  private void index(int s) {
    if (prev == null) {
      prev = new int[next.length];
      indexed = new RowEntries();
    }
    int first = heads[s];
    int before = END;
    for (int e = first; e != END; ) {
      int after = next[e];
      int held = indexed.find(rows[e], rows);
      if (held >= 0) {
        weights[held] += weights[e];
        next[before] = after; // not the first entry: an earlier one holds its row
        release(e);
      } else {
        prev[e] = before;
        indexed.add(e, rows);
        before = e;
      }
      e = after;
    }
    heads[s] = indexedHead(first);
  }

  /** The head value marking an indexed chain that starts at {@code first} (END: empty): below {@link #INDEXED_EMPTY}'s. */
  private static int indexedHead(int first) {
    return INDEXED_EMPTY - 1 - first;
  }

  /** The first entry of the chain whose head value is {@code h} (plain or indexed), or END. */
  private static int chainHead(int h) {
    return h > INDEXED_EMPTY ? h : INDEXED_EMPTY - 1 - h;
  }

  private int entry() {
    if (free != END) {
      int e = free;
      free = next[e];
      return e;
    }
    if (highWater == rows.length) {
      grow(rows.length * 2);
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
      case PRIMITIVE:
        return key instanceof Long l ? longKeys.find(l) : -1; // every key held is a Long
      default:
        for (int s = LongSlots.hash(key.hashCode(), bits), mask = heads.length - 1; heads[s] != FREE_SLOT; s = (s + 1) & mask) {
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
      rehash(Form.OBJECT);
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
      rehash(Form.PRIMITIVE);
    }
    if (form == Form.PRIMITIVE) {
      if ((longKeys.size() + 1) * 2L > longKeys.capacity()) {
        rehash(form);
      }
      int s = longKeys.claim((Long) key);
      if (s < 0) {
        s = ~s;
        heads[s] = END; // a new key: an empty chain
      }
      return s;
    }
    if ((usedSlots + 1) * 2L > heads.length) {
      rehash(form);
    }
    return slotForObject(key);
  }

  /** Widens the dense range to hold {@code k} (with room to grow that way); false when it would be too wide. */
  private boolean widen(long k) {
    if (k == Long.MAX_VALUE) {
      return false; // k + 1 would overflow: the primitive form takes every long
    }
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

  private int slotForObject(Object key) {
    int mask = heads.length - 1;
    int s = LongSlots.hash(key.hashCode(), bits);
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

  private void allocate(int capacity) {
    longKeys = form == Form.PRIMITIVE ? new LongSlots(capacity) : null;
    keys = form == Form.OBJECT ? new Object[capacity] : null;
    heads = new int[form == Form.PRIMITIVE ? longKeys.slots() : capacity];
    Arrays.fill(heads, FREE_SLOT);
    bits = Integer.numberOfTrailingZeros(capacity);
    usedSlots = 0;
  }

  /**
   * Moves every key with entries into a new table of hashed form {@code to} (the current form
   * given up for good when it is another), with room for one more key.
   */
  private void rehash(Form to) {
    Form from = form;
    LongSlots oldLongs = longKeys;
    Object[] oldKeys = keys;
    int[] oldHeads = heads;
    long oldBase = base;
    int live = 0;
    for (int h : oldHeads) {
      live += h >= 0 || h < INDEXED_EMPTY ? 1 : 0; // a key with entries
    }
    form = to;
    int need = Math.max(MIN_SLOTS, (live + 1) * 2);
    allocate(Integer.highestOneBit(need - 1) << 1);
    for (int s = 0; s < oldHeads.length; s++) {
      if (oldHeads[s] >= 0 || oldHeads[s] < INDEXED_EMPTY) {
        long k = from == Form.DENSE ? oldBase + s : from == Form.PRIMITIVE ? oldLongs.key(s) : 0;
        int t = to == Form.PRIMITIVE ? ~longKeys.claim(k) : slotForObject(from == Form.OBJECT ? oldKeys[s] : Long.valueOf(k));
        heads[t] = oldHeads[s];
      }
    }
  }
}
