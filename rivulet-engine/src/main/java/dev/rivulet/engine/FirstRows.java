package dev.rivulet.engine;

/**
 * A large hydration's first rows in a {@link RowOrder}, selected from a batch of unit weights in
 * one pass that computes a row's prefixes only while it could still be selected: the {@code want}
 * entries with the smallest prefixes and every other entry whose prefixes are no larger than
 * theirs, as {@link DeferredRows#takeFirst} selects them, sorted and consolidated; the entries left
 * are moved to the front of the batch ({@link #left}), unsorted, each ordering after every row
 * taken.
 *
 * <p>How: a max-heap of the {@code want} smallest entries seen so far by (first prefix, second
 * prefix). A row whose first prefix is above the heap's top's is passed over after one read of
 * its first sort key (an INT key without a call); the others get their second prefix, and each
 * that enters the heap or ties with its top is noted with both prefixes. The top only falls, so
 * every entry whose prefixes end up at most the final top's was noted. The pass runs in chunks of
 * {@value #CHUNK} rows, one call each, so that a fresh JVM compiles it early (see {@link
 * SortedBatch}). One use; confined to the graph's thread.
 */
final class FirstRows {
  static final int CHUNK = 16;
  private final RowOrder order;
  private final int want;
  private final boolean intFirst;
  private final int column0;
  private final long flip0;
  // The heap: noted slots by (n0, n1), largest on top.
  private final int[] heap;
  private int heapSize;
  private long top0 = Long.MAX_VALUE;
  private long top1 = Long.MAX_VALUE;
  // The noted entries: batch index and prefixes, in batch order.
  private int[] noted;
  private long[] n0;
  private long[] n1;
  private int notedSize;
  private int left;
  /** Rows whose second prefix was computed (for tests: the rows that could matter). */
  int secondPrefixes;

  private FirstRows(RowOrder order, int want) {
    this.order = order;
    this.want = want;
    this.intFirst = order.intFirst();
    this.column0 = intFirst ? order.firstColumn() : -1;
    this.flip0 = intFirst && order.firstDescending() ? -1L : 0L; // ~x is x ^ -1
    this.heap = new int[want];
    int cap = Math.max(16, 2 * want);
    this.noted = new int[cap];
    this.n0 = new long[cap];
    this.n1 = new long[cap];
  }

  /**
   * Selects from {@code rows[0, n)} (each of weight one; {@code 1 <= want < n}) the first rows
   * as the class comment says; {@link #take} returns them.
   */
  static FirstRows select(Row[] rows, int n, int want, RowOrder order) {
    if (want < 1 || want >= n) {
      throw new IllegalArgumentException("select " + want + " of " + n + " rows");
    }
    FirstRows s = new FirstRows(order, want);
    for (int from = 0; from < n; from += CHUNK) {
      int to = Math.min(n, from + CHUNK);
      if (s.intFirst) {
        s.scanInt(rows, from, to);
      } else {
        s.scan(rows, from, to);
      }
    }
    s.left = n;
    return s;
  }

  /** {@link #select}'s pass over {@code rows[from, to)} for an INT first key. */
  private void scanInt(Row[] rows, int from, int to) {
    int c0 = column0; // fields in locals: the first chunks of a fresh JVM run interpreted
    long flip = flip0;
    long t0 = top0;
    for (int i = from; i < to; i++) {
      Row r = rows[i];
      long p0 = r.values[c0] instanceof Long l ? l ^ flip : order.first(r);
      if (p0 <= t0) {
        offer(i, r, p0);
        t0 = top0;
      }
    }
  }

  /** {@link #select}'s pass over {@code rows[from, to)} for a first key of another type. */
  private void scan(Row[] rows, int from, int to) {
    long t0 = top0;
    for (int i = from; i < to; i++) {
      Row r = rows[i];
      long p0 = order.first(r);
      if (p0 <= t0) {
        offer(i, r, p0);
        t0 = top0;
      }
    }
  }

  /** Row {@code i} with first prefix {@code p0}, at most the top's: into the heap, or noted as a tie, or passed over. */
  private void offer(int i, Row r, long p0) {
    long p1 = intFirst ? order.secondAfterInt(r, p0) : order.second(r); // few rows get here
    secondPrefixes++;
    if (heapSize == want && (p0 == top0 && p1 >= top1)) {
      if (p1 == top1) {
        note(i, p0, p1); // a tie with the top: taken if the top does not fall below it
      }
      return;
    }
    int slot = note(i, p0, p1);
    if (heapSize < want) {
      heap[heapSize] = slot;
      siftUp(heapSize++);
    } else {
      heap[0] = slot;
      DeferredRows.siftDown(heap, n0, n1, 0, want);
    }
    if (heapSize == want) {
      top0 = n0[heap[0]];
      top1 = n1[heap[0]];
    }
  }

  private int note(int i, long p0, long p1) {
    if (notedSize == noted.length) {
      int cap = 2 * notedSize;
      noted = java.util.Arrays.copyOf(noted, cap);
      n0 = java.util.Arrays.copyOf(n0, cap);
      n1 = java.util.Arrays.copyOf(n1, cap);
    }
    noted[notedSize] = i;
    n0[notedSize] = p0;
    n1[notedSize] = p1;
    return notedSize++;
  }

  private void siftUp(int i) {
    int[] h = heap; // locals: this runs interpreted at first
    long[] a0 = n0;
    long[] a1 = n1;
    int e = h[i];
    long e0 = a0[e];
    long e1 = a1[e];
    while (i > 0) {
      int p = (i - 1) >>> 1;
      int q = h[p];
      if (a0[q] > e0 || (a0[q] == e0 && a1[q] >= e1)) {
        break; // the parent is not smaller
      }
      h[i] = q;
      i = p;
    }
    h[i] = e;
  }

  /**
   * The selected entries, sorted and consolidated; the others are moved to {@code rows[0,
   * left())} (the batch {@link #select} read), the array's tail cleared.
   */
  SortedBatch take(Row[] rows, String owner) {
    long t0 = top0;
    long t1 = top1;
    int k = 0;
    for (int q = 0; q < notedSize; q++) {
      if (n0[q] < t0 || (n0[q] == t0 && n1[q] <= t1)) {
        noted[k] = noted[q]; // ascending batch indexes, compacted in place
        n0[k] = n0[q];
        n1[k] = n1[q];
        k++;
      }
    }
    Row[] out = new Row[k];
    long[] weights = new long[k];
    for (int q = k - 1; q >= 0; q--) { // descending, so the last entry is never a taken one yet to go
      int e = noted[q];
      out[q] = rows[e];
      weights[q] = 1;
      int last = --left;
      rows[e] = rows[last];
      rows[last] = null;
    }
    return SortedBatch.of(out, weights, java.util.Arrays.copyOf(n0, k), java.util.Arrays.copyOf(n1, k), k, order, owner);
  }

  /** Entries left in the batch after {@link #take}. */
  int left() {
    return left;
  }
}
