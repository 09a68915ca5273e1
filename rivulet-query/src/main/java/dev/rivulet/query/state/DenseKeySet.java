package dev.rivulet.query.state;

import dev.rivulet.engine.Row;

/**
 * A set of integer keys within 32 bits that lie in a dense range: a bitmap over {@code [base, base
 * + 64 * words.length)}. A load's batch adds its rows' keys as it writes them, so that the table
 * it goes into can take the rows without its slot table ({@link RowTable#putLoad}) and still hold
 * each key once. It takes a key only while the range its keys span stays within eight bits for
 * each key it holds, and 64 K bits more: ids, as a key column holds them, fit. A key present
 * already, spread wider, not within 32 bits, or not an integer is refused.
 *
 * <p>Not thread-safe: owned by the batch that fills it.
 */
public final class DenseKeySet {
  private static final long SLACK_BITS = 1 << 16;
  private long[] words = new long[0];
  private long base; // a multiple of 64: bit i of words stands for key base + i
  private int size;

  /** How many keys it holds. */
  public int size() {
    return size;
  }

  /** Adds {@code key}; false when it refuses it (see the class comment), and then holds the same keys. */
  public boolean add(Object key) {
    long k = key instanceof Long l ? l : 1L << 32; // not an integer: not within 32 bits either
    long d = k - base;
    if (d < 0 || d >= (long) words.length << 6 || (int) k != k) {
      return (int) k == k && cover(k, size + 1L) && add(key);
    }
    long bit = 1L << d; // shifts by d mod 64
    int at = (int) (d >>> 6);
    if ((words[at] & bit) != 0) {
      return false;
    }
    words[at] |= bit;
    size++;
    return true;
  }

  /**
   * Adds the keys of {@code batch[from, to)}, held at column {@code column}, in order; returns the
   * index of the first row whose key it refused (see the class comment), or {@code to}. The keys
   * before that row are added.
   */
  public int addAll(Row[] batch, int from, int to, int column) {
    for (int i = from; i < to; i++) {
      if (!add(batch[i].get(column))) {
        return i;
      }
    }
    return to;
  }

  /**
   * Widens the bitmap to cover key {@code k}: to the keys' range and as much again beyond it, in
   * the direction it grows (the first time: bits for {@code keys} keys), unless the keys' range
   * would exceed eight bits for each of {@code keys} keys and {@value #SLACK_BITS} more; false then.
   */
  private boolean cover(long k, long keys) {
    int first = 0; // the words that hold keys: [first, last]
    int last = words.length - 1;
    while (first <= last && words[first] == 0) {
      first++;
    }
    while (last >= first && words[last] == 0) {
      last--;
    }
    boolean empty = first > last;
    long lo = empty ? k : Math.min(base + ((long) first << 6), k);
    long hi = empty ? k : Math.max(base + ((long) last << 6) + 63, k);
    long reach = 8 * keys + SLACK_BITS;
    if (hi - lo >= reach) {
      return false;
    }
    long bottom = lo & -64L;
    long top = (hi & -64L) + 64;
    long bits = Math.max(top - bottom, Math.min(reach + 63 & -64L, empty ? keys + 63 & -64L : 2 * (top - bottom)));
    long newBase = empty || k == hi ? bottom : top - bits; // room above when growing up, below when down
    long[] grown = new long[(int) (bits >>> 6)];
    if (!empty) { // every key lies in [lo, hi], within both ranges
      long from = Math.max(base, newBase);
      long to = Math.min(base + ((long) words.length << 6), newBase + bits);
      System.arraycopy(words, (int) ((from - base) >>> 6), grown, (int) ((from - newBase) >>> 6), (int) ((to - from) >>> 6));
    }
    words = grown;
    base = newBase;
    return true;
  }
}
