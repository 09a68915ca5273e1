package dev.rivulet.engine;

import java.util.Arrays;

/**
 * {@link PrefixSort}'s path for an order whose first key is a STRING column: a most-significant-
 * digit string sort that reads each string's characters a chunk at a time instead of comparing
 * whole rows. Stateless.
 *
 * <p>How: the rows with a NULL first key are set apart (first or last, as the key says) and
 * ordered by the rest of the order. The others form one group; a group's strings agree on their
 * first {@code known} units. Its common prefix beyond {@code known} is skipped (one pass), then
 * the next units of each string are packed into a long, as many as fit beside the row's index in
 * the group (8 bits a unit while they are below U+00FF: 5 or 6 units a round; else 17 bits), in
 * code-point order (the remap of {@link Values#compareCodePoints}) with 0 for the end of the
 * string; the longs are sorted (radix passes over the bits that differ, from {@value
 * PrefixSort#SMALL} rows) and each run of equal longs is a smaller group, agreeing on more units.
 * The per-row loops run in chunks, as {@link SortedBatch}'s do (so a fresh JVM compiles them early). A run whose strings ended inside
 * the chunk holds equal strings: it is ordered by the next sort key's prefix, then the full order,
 * through {@link PrefixSort}'s integer paths. A group still unsplit after {@value #MAX_ROUNDS}
 * rounds (long, nested shared prefixes) goes to the comparator.
 */
final class TextSort {
  static final int MAX_ROUNDS = 12;
  private static final int NARROW_WIDTH = 8; // units 1..255 (U+0000..U+00FE) and the end (0)

  private TextSort() {}

  /**
   * What one sort did: {@code rounds} of packed units (one per group split), {@code
   * equalTextGroups} groups of equal first keys (NULLs included) ordered by the rest of the order,
   * {@code comparatorRows} rows ordered by the comparator fallback.
   */
  record Stats(int rounds, int equalTextGroups, int comparatorRows) {}

  /** Sorts {@code perm[0..n)} (the identity on entry) by {@code order}, whose first key is text. */
  static Stats sort(int[] perm, Row[] rows, RowOrder order) {
    int n = perm.length;
    String[] text = new String[n];
    int nulls = 0;
    for (int i = 0; i < n; i += SortedBatch.CHUNK) {
      nulls += texts(rows, text, i, Math.min(n, i + SortedBatch.CHUNK), order);
    }
    // NULL first keys first or last; the other rows keep their index order (the identity).
    int nullsAt = order.firstNullsFirst() ? 0 : n - nulls;
    int valuesAt = order.firstNullsFirst() ? nulls : 0;
    for (int i = 0, v = valuesAt, z = nullsAt; i < n; i++) {
      if (text[i] == null) {
        perm[z++] = i;
      } else {
        perm[v++] = i;
      }
    }
    Run run = new Run(perm, rows, text, order);
    if (nulls > 1) {
      run.byRest(nullsAt, nullsAt + nulls);
    }
    run.groups(valuesAt, valuesAt + n - nulls);
    return new Stats(run.rounds, run.equalGroups, run.comparatorRows);
  }

  /** The first keys of {@code rows[from..to)} into {@code text}; returns how many are NULL. */
  private static int texts(Row[] rows, String[] text, int from, int to, RowOrder order) {
    int nulls = 0;
    for (int i = from; i < to; i++) {
      text[i] = order.text(rows[i]);
      nulls += text[i] == null ? 1 : 0;
    }
    return nulls;
  }

  /** One sort's state, confined to it: the work list of groups (explicit, so nested prefixes cannot overflow the stack). */
  private static final class Run {
    final int[] perm;
    final Row[] rows;
    final String[] text;
    final RowOrder order;
    final boolean descending;
    int rounds;
    int equalGroups;
    int comparatorRows;
    int[] stack = new int[48];
    int top;
    // the current round's scratch, kept in fields so its chunked loops can share it
    int lcp;
    boolean allEqual;
    long min;
    long max;
    long diff;
    long first;
    int maxUnit;

    Run(int[] perm, Row[] rows, String[] text, RowOrder order) {
      this.perm = perm;
      this.rows = rows;
      this.text = text;
      this.order = order;
      this.descending = order.firstDescending();
    }

    void groups(int from, int to) {
      push(from, to, 0, 0);
      while (top > 0) {
        top -= 4;
        int f = stack[top];
        int t = stack[top + 1];
        int known = stack[top + 2];
        int depth = stack[top + 3];
        if (depth >= MAX_ROUNDS) {
          comparatorRows += t - f;
          PrefixSort.sortByComparator(perm, f, t, rows, order);
        } else {
          split(f, t, known, depth);
        }
      }
    }

    private void push(int from, int to, int known, int depth) {
      if (to - from < 2) {
        return;
      }
      if (top + 4 > stack.length) {
        stack = Arrays.copyOf(stack, stack.length * 2);
      }
      stack[top++] = from;
      stack[top++] = to;
      stack[top++] = known;
      stack[top++] = depth;
    }

    /** One round on the group {@code perm[from..to)}, whose strings agree on their first {@code known} units. */
    private void split(int from, int to, int known, int depth) {
      rounds++;
      String s0 = text[perm[from]];
      lcp = s0.length();
      allEqual = true;
      for (int i = from + 1; i < to; i += SortedBatch.CHUNK) {
        lcpChunk(s0, i, Math.min(to, i + SortedBatch.CHUNK), known);
      }
      if (allEqual) {
        byRest(from, to);
        return;
      }
      int size = to - from;
      int indexBits = 64 - Long.numberOfLeadingZeros(size - 1);
      int avail = 63 - indexBits;
      long[] keys = new long[size];
      int width = NARROW_WIDTH;
      int units = avail / width;
      keys(keys, from, units, width);
      if (maxUnit >= 1 << NARROW_WIDTH) { // a unit from U+00FF up: wider units, fewer of them
        width = 17;
        units = avail / width;
        keys(keys, from, units, width);
      }
      // Bits below the lowest differing one are shared by every key (padding past shorter strings).
      int shift = Long.numberOfTrailingZeros(diff);
      int keyBits = 64 - Long.numberOfLeadingZeros((max - min) >>> shift);
      for (int i = 0; i < size; i += SortedBatch.CHUNK) {
        pack(keys, i, Math.min(size, i + SortedBatch.CHUNK), shift, indexBits);
      }
      PrefixSort.sortLongs(keys, keyBits, indexBits, size >= PrefixSort.SMALL);
      int[] old = Arrays.copyOfRange(perm, from, to);
      for (int i = 0; i < size; i += SortedBatch.CHUNK) {
        reorder(keys, old, from, i, Math.min(size, i + SortedBatch.CHUNK), (1L << indexBits) - 1);
      }
      for (int s = 0; s < size; ) {
        s = runs(keys, from, s, Math.min(size, s + SortedBatch.CHUNK), indexBits, lcp + units, depth);
      }
    }

    private void reorder(long[] keys, int[] old, int base, int from, int to, long mask) {
      for (int i = from; i < to; i++) {
        perm[base + i] = old[(int) (keys[i] & mask)];
      }
    }

    /**
     * The runs of equal keys that start in sorted positions {@code [s, limit)}: each a group agreeing
     * on units up to {@code end}, or of equal strings; returns where the next run starts.
     */
    private int runs(long[] keys, int base, int s, int limit, int indexBits, int end, int depth) {
      int size = keys.length;
      while (s < limit) {
        int e = s + 1;
        while (e < size && keys[e] >>> indexBits == keys[s] >>> indexBits) {
          e++;
        }
        if (e - s > 1) {
          if (text[perm[base + s]].length() < end) {
            byRest(base + s, base + e); // ended inside the chunk: equal strings
          } else {
            push(base + s, base + e, end, depth + 1);
          }
        }
        s = e;
      }
      return s;
    }

    /** Narrows {@link #lcp} over {@code perm[from..to)} against {@code s0}; clears {@link #allEqual} on a difference. */
    private void lcpChunk(String s0, int from, int to, int known) {
      int l = lcp;
      boolean equal = allEqual;
      for (int i = from; i < to; i++) {
        String s = text[perm[i]];
        l = mismatch(s0, s, known, l);
        equal &= l == s0.length() && s.length() == l;
      }
      lcp = l;
      allEqual = equal;
    }

    /** Each string's units {@code [lcp, lcp + units)} at {@code width} bits into {@code keys}, with their min, max, differing bits and widest unit. */
    private void keys(long[] keys, int from, int units, int width) {
      min = Long.MAX_VALUE;
      max = Long.MIN_VALUE;
      diff = 0;
      maxUnit = 0;
      first = chunk(text[perm[from]], lcp, units, width);
      for (int i = 0; i < keys.length; i += SortedBatch.CHUNK) {
        keysChunk(keys, from, i, Math.min(keys.length, i + SortedBatch.CHUNK), units, width);
      }
    }

    private void keysChunk(long[] keys, int base, int from, int to, int units, int width) {
      long lo = min;
      long hi = max;
      long d = diff;
      int widest = maxUnit;
      for (int i = from; i < to; i++) {
        String s = text[perm[base + i]];
        long key = 0;
        for (int j = lcp, stop = lcp + units; j < stop; j++) {
          int u = j < s.length() ? RowOrder.unit(s.charAt(j)) : 0;
          widest = Math.max(widest, u);
          key = key << width | (u & (1 << width) - 1);
        }
        keys[i] = key;
        lo = Math.min(lo, key);
        hi = Math.max(hi, key);
        d |= key ^ first;
      }
      min = lo;
      max = hi;
      diff = d;
      maxUnit = widest;
    }

    /** Turns keys {@code [from, to)} into (order-preserving key bits above {@code indexBits}, index). */
    private void pack(long[] keys, int from, int to, int shift, int indexBits) {
      for (int i = from; i < to; i++) {
        long k = descending ? max - keys[i] : keys[i] - min;
        keys[i] = k >>> shift << indexBits | i;
      }
    }

    /** Rows of {@code perm[from..to)} that tie on the first key, ordered by the rest of the order. */
    void byRest(int from, int to) {
      equalGroups++;
      int n = to - from;
      Row[] sub = new Row[n];
      long[] p0 = new long[n];
      long[] p1 = new long[n];
      for (int i = 0; i < n; i++) {
        sub[i] = rows[perm[from + i]];
        p0[i] = order.keyPrefix(sub[i], 1);
      }
      // The first keys are equal, so the second key's prefix is a valid first prefix here.
      int[] local = PrefixSort.permutation(sub, p0, p1, n, order, false);
      int[] old = Arrays.copyOfRange(perm, from, to);
      for (int i = 0; i < n; i++) {
        perm[from + i] = old[local[i]];
      }
    }
  }

  /** The first index from {@code known} up to {@code limit} where {@code a} and {@code b} differ, or where one ends. */
  static int mismatch(String a, String b, int known, int limit) {
    int stop = Math.min(limit, b.length());
    int i = known;
    while (i < stop && a.charAt(i) == b.charAt(i)) {
      i++;
    }
    return i;
  }

  /** Units {@code [at, at + units)} of {@code s}, {@code width} bits each, 0 past its end. */
  static long chunk(String s, int at, int units, int width) {
    long key = 0;
    for (int j = at; j < at + units; j++) {
      key = key << width | (j < s.length() ? RowOrder.unit(s.charAt(j)) : 0);
    }
    return key;
  }
}
