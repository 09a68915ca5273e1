package dev.rivulet.engine;

import java.util.Arrays;

/**
 * The rows of an unpartitioned top-K that order after every row its tree holds, left unsorted:
 * a log of (row, weight) entries in which a retraction is one more entry (it cancels its row's
 * insertion when the entries are consolidated). The rows' two {@link RowOrder} prefixes are not
 * kept: {@link #takeFirst} and {@link #compact} compute them in bulk when they run (both are O(n)
 * anyway), and drop them after, so the log costs a row reference per entry (plus a weight only once
 * an entry weighs other than one).
 * {@link TopKOperator} keeps only the first rows of a large hydration in its tree and these here
 * (one log per range of prefixes, see {@link DeferredBuckets}), so neither the hydration nor an
 * update that stays beyond the tree orders them.
 *
 * <p>{@link #takeFirst} moves the entries with the smallest prefixes out, sorted and consolidated:
 * every entry whose prefixes are at most those of the {@code want}-th smallest, so each entry left
 * orders after each one taken (equal prefixes never split, and rows with different prefixes order
 * by them). Its loops run over the prefix arrays in chunks of {@link SortedBatch#CHUNK} entries,
 * one call each, so that a fresh JVM compiles them early (see {@link SortedBatch}). {@link
 * #compact} consolidates the whole log once it has grown to twice what the last consolidation
 * left. A row whose weights sum below zero is found there, or when it is taken.
 *
 * <p>Owned by one {@link TopKOperator}; confined to the graph's thread.
 */
final class DeferredRows {
  private final int compactSlack;
  private Row[] rows;
  private long[] weights; // null while every entry weighs one
  private long[] p0; // the entries' prefixes while a selection or consolidation runs (or as given), else null
  private long[] p1;
  private int size;
  private int compactAt;
  // The selection's max-heap of entry indexes by (p0, p1), and the indexes it noted (ascending).
  private int[] heap = new int[0];
  private int[] noted;
  private int notedSize;

  /**
   * Takes the arrays' entries {@code [0, n)} as the log (the arrays become this object's; {@code
   * weights} may be null when every entry weighs one, and is dropped when every entry does); it is
   * {@link #crowded} beyond twice its consolidated size plus {@code compactSlack}. The prefixes
   * {@code p0}, {@code p1} of the entries serve the first {@link #takeFirst} or {@link #compact}
   * only (they may be null: computed then).
   */
  DeferredRows(Row[] rows, long[] weights, long[] p0, long[] p1, int n, int compactSlack) {
    this.compactSlack = compactSlack;
    this.rows = rows;
    this.weights = allOnes(weights, n) ? null : weights;
    this.p0 = p0;
    this.p1 = p1;
    this.size = n;
    this.compactAt = 2 * n + compactSlack;
  }

  /** Entries in the log (a row and a later retraction of it are two). */
  int size() {
    return size;
  }

  /** Appends one entry (amortized O(1): no prefixes are computed for it). */
  void add(Row row, long weight) {
    if (size == rows.length) {
      int cap = Math.max(16, size * 2);
      rows = Arrays.copyOf(rows, cap);
      weights = weights == null ? null : Arrays.copyOf(weights, cap);
    }
    p0 = null; // prefixes given at the start cover the entries then, no longer all of them
    p1 = null;
    rows[size] = row;
    if (weight != 1 || weights != null) {
      weights()[size] = weight;
    }
    size++;
  }

  /** Whether the log holds its entries' prefixes (for tests: they are dropped after each use). */
  boolean holdsPrefixes() {
    return p0 != null;
  }

  /** Whether the log keeps a weights array (for tests: not while every entry weighs one). */
  boolean holdsWeights() {
    return weights != null;
  }

  /** Whether the log has grown to twice what the last consolidation (or the start) left, and then some. */
  boolean crowded() {
    return size > compactAt;
  }

  /**
   * Consolidates the log: one entry per row, rows whose weights cancel dropped.
   *
   * @throws InvariantViolation, naming {@code owner}, when a row's weights sum below zero
   */
  void compact(RowOrder order, String owner) {
    prefixes(order);
    SortedBatch b = SortedBatch.of(rows, weights(), p0, p1, size, order, owner);
    rows = b.rows;
    weights = allOnes(b.counts, b.size) ? null : b.counts;
    p0 = null;
    p1 = null;
    size = b.size;
    compactAt = 2 * size + compactSlack;
  }

  /**
   * Removes and returns, sorted and consolidated, the {@code want} entries with the smallest
   * prefixes and every other entry with prefixes no larger than theirs (all entries when there are
   * no more than {@code want}). Every entry left orders after every row returned.
   *
   * <p>How: one pass keeps a max-heap of the {@code want} smallest entries by prefixes and notes
   * every entry that could end up taken (each that entered the heap, and each that tied with its
   * top); an entry it passed over orders after the final top. The taken entries are swapped out
   * with the log's last ones.
   *
   * @throws InvariantViolation, naming {@code owner}, when a returned row's weights sum below zero
   */
  SortedBatch takeFirst(int want, RowOrder order, String owner) {
    int n = size;
    prefixes(order);
    if (want >= n) {
      SortedBatch all = SortedBatch.of(rows, weights(), p0, p1, n, order, owner);
      rows = new Row[0];
      weights = null;
      p0 = null;
      p1 = null;
      size = 0;
      return all;
    }
    if (heap.length < want) {
      heap = new int[want];
    }
    noted = new int[Math.max(16, want * 2)];
    notedSize = 0;
    for (int i = 0; i < want; i++) {
      heap[i] = i;
      note(i);
    }
    for (int i = want / 2 - 1; i >= 0; i--) {
      siftDown(heap, p0, p1, i, want);
    }
    for (int from = want; from < n; from += SortedBatch.CHUNK) {
      offer(from, Math.min(n, from + SortedBatch.CHUNK), want);
    }
    long t0 = p0[heap[0]];
    long t1 = p1[heap[0]];
    int[] taken = new int[notedSize];
    int k = 0;
    for (int q = 0; q < notedSize; q++) { // ascending entry indexes
      int e = noted[q];
      if (p0[e] < t0 || (p0[e] == t0 && p1[e] <= t1)) {
        taken[k++] = e;
      }
    }
    noted = null;
    Row[] outRows = new Row[k];
    long[] outWeights = new long[k];
    long[] out0 = new long[k];
    long[] out1 = new long[k];
    for (int q = k - 1; q >= 0; q--) { // descending, so the last entry is never a taken one yet to go
      int e = taken[q];
      outRows[q] = rows[e];
      outWeights[q] = weights == null ? 1 : weights[e];
      out0[q] = p0[e];
      out1[q] = p1[e];
      int last = --size;
      rows[e] = rows[last];
      if (weights != null) {
        weights[e] = weights[last];
      }
      rows[last] = null;
    }
    p0 = null;
    p1 = null;
    return SortedBatch.of(outRows, outWeights, out0, out1, k, order, owner);
  }

  /**
   * Moves the entries into at most {@code parts} new logs by ranges of prefixes, ascending, and
   * leaves this log empty: entries with equal prefixes go to the same log, and every entry of a log
   * has smaller prefixes than every entry of the next. The ranges' splitters come from a sample of
   * the entries. {@code lo0}, {@code lo1} (length at least {@code parts}) receive each returned
   * log's smallest admissible prefixes (entry 0's are {@link Long#MIN_VALUE}). The new logs keep
   * no prefixes and grow crowded after {@code partSlack} entries past twice their size.
   */
  DeferredRows[] split(int parts, RowOrder order, int partSlack, long[] lo0, long[] lo1) {
    int n = size;
    prefixes(order);
    int k = splitters(Math.max(1, parts), lo0, lo1);
    int[] part = new int[n];
    int[] sizes = new int[k];
    for (int i = 0; i < n; i++) {
      int j = partOf(lo0, lo1, k, p0[i], p1[i], 0);
      part[i] = j;
      sizes[j]++;
    }
    Row[][] outRows = new Row[k][];
    long[][] outWeights = new long[k][];
    for (int j = 0; j < k; j++) {
      outRows[j] = new Row[Math.max(16, sizes[j])];
      outWeights[j] = weights == null ? null : new long[outRows[j].length];
      sizes[j] = 0;
    }
    for (int i = 0; i < n; i++) {
      int j = part[i];
      outRows[j][sizes[j]] = rows[i];
      if (weights != null) {
        outWeights[j][sizes[j]] = weights[i];
      }
      sizes[j]++;
    }
    DeferredRows[] out = new DeferredRows[k];
    for (int j = 0; j < k; j++) {
      out[j] = new DeferredRows(outRows[j], outWeights[j], null, null, sizes[j], partSlack);
    }
    rows = new Row[0];
    weights = null;
    p0 = null;
    p1 = null;
    size = 0;
    return out;
  }

  /**
   * Picks up to {@code parts - 1} distinct splitters from a sorted sample of the held prefixes
   * into {@code lo0[1..]}, {@code lo1[1..]}; returns the number of parts.
   */
  private int splitters(int parts, long[] lo0, long[] lo1) {
    int n = size;
    int samples = Math.min(n, parts * 16);
    long[][] sample = new long[samples][];
    for (int s = 0; s < samples; s++) {
      int i = (int) ((long) s * n / samples);
      sample[s] = new long[] {p0[i], p1[i]};
    }
    Arrays.sort(sample, (a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
    lo0[0] = Long.MIN_VALUE;
    lo1[0] = Long.MIN_VALUE;
    int k = 1;
    for (int j = 1; j < parts; j++) {
      long[] c = sample[(int) ((long) j * samples / parts)];
      long a = lo0[k - 1];
      long b = lo1[k - 1];
      if (c[0] > a || (c[0] == a && c[1] > b)) {
        lo0[k] = c[0];
        lo1[k] = c[1];
        k++;
      }
    }
    return k;
  }

  /**
   * The last of parts {@code [0, k)} whose smallest admissible prefixes are at most {@code (q0,
   * q1)}, the parts' splitters stored from index {@code at} on.
   */
  static int partOf(long[] lo0, long[] lo1, int k, long q0, long q1, int at) {
    int lo = 1;
    int hi = k;
    while (lo < hi) {
      int m = (lo + hi) >>> 1;
      int mid = at + m;
      if (lo0[mid] < q0 || (lo0[mid] == q0 && lo1[mid] <= q1)) {
        lo = m + 1;
      } else {
        hi = m;
      }
    }
    return lo - 1;
  }

  /** Computes the entries' prefixes into {@code p0}, {@code p1} unless they are held. */
  private void prefixes(RowOrder order) {
    if (p0 != null) {
      return;
    }
    p0 = new long[size];
    p1 = new long[size];
    order.prefixes(rows, size, p0, p1);
  }

  /** Whether entries {@code [0, n)} of {@code weights} (null: all) are all one. */
  private static boolean allOnes(long[] weights, int n) {
    if (weights == null) {
      return true;
    }
    for (int i = 0; i < n; i++) {
      if (weights[i] != 1) {
        return false;
      }
    }
    return true;
  }

  /** The weights array, allocated (entries {@code [0, size)} weighing one) if it was not. */
  private long[] weights() {
    if (weights == null) {
      weights = new long[rows.length];
      Arrays.fill(weights, 0, size, 1);
    }
    return weights;
  }

  /**
   * Offers entries {@code [from, to)} to the heap of the {@code k} smallest (one chunk), noting
   * each that enters it or ties with its top.
   */
  private void offer(int from, int to, int k) {
    int top = heap[0];
    long r0 = p0[top];
    long r1 = p1[top];
    for (int i = from; i < to; i++) {
      long a = p0[i];
      if (a < r0 || (a == r0 && p1[i] <= r1)) {
        note(i);
        if (a == r0 && p1[i] == r1) {
          continue; // a tie with the top: taken if the top does not move below it
        }
        heap[0] = i;
        siftDown(heap, p0, p1, 0, k);
        top = heap[0];
        r0 = p0[top];
        r1 = p1[top];
      }
    }
  }

  private void note(int i) {
    if (notedSize == noted.length) {
      noted = Arrays.copyOf(noted, notedSize * 2);
    }
    noted[notedSize++] = i;
  }

  /**
   * Restores the max-heap property below slot {@code i} of {@code heap[0, k)}, a heap of indexes
   * into {@code a0}, {@code a1} ordered by {@code (a0, a1)} (also {@link FirstRows}'s heap).
   */
  static void siftDown(int[] heap, long[] a0, long[] a1, int i, int k) {
    int e = heap[i];
    long e0 = a0[e];
    long e1 = a1[e];
    while (true) {
      int c = 2 * i + 1;
      if (c >= k) {
        break;
      }
      if (c + 1 < k) {
        int x = heap[c];
        int y = heap[c + 1];
        if (a0[y] > a0[x] || (a0[y] == a0[x] && a1[y] > a1[x])) {
          c++;
        }
      }
      int h = heap[c];
      long c0 = a0[h];
      if (c0 < e0 || (c0 == e0 && a1[h] <= e1)) {
        break; // the larger child is not larger
      }
      heap[i] = h;
      i = c;
    }
    heap[i] = e;
  }
}
