package dev.rivulet.engine;

/**
 * A batch of changes sorted in a {@link RowOrder} and consolidated: its distinct rows in order,
 * each with its summed weight (rows whose weights sum to zero left out) and its two prefixes.
 * What a top-K's first contents become before the tree is built from them ({@link
 * dev.rivulet.engine.state.OrderStatisticTree#bulkLoad}).
 *
 * <p>How: the prefixes of every row, then {@link PrefixSort}, which also brings equal rows
 * together (they share their prefixes), so they consolidate in one pass without hashing. The
 * per-row loops run in chunks of {@value #CHUNK} entries, one call each: a fresh JVM compiles
 * such a method after about a hundred calls, whereas a loop that runs once is interpreted until
 * on-stack replacement, tens of thousands of iterations in (a hydration's first run is mostly in
 * such loops). Immutable once made.
 */
final class SortedBatch {
  static final int CHUNK = 64;
  final Row[] rows;
  final long[] counts;
  final long[] p0;
  final long[] p1;
  final int size;

  private SortedBatch(Row[] rows, long[] counts, long[] p0, long[] p1, int size) {
    this.rows = rows;
    this.counts = counts;
    this.p0 = p0;
    this.p1 = p1;
    this.size = size;
  }

  /**
   * Sorts and consolidates {@code changes}.
   *
   * @throws InvariantViolation, naming {@code owner}, when a row's weights sum below zero
   */
  static SortedBatch of(Delta changes, RowOrder order, String owner) {
    int n = changes.size;
    long[] first = new long[n];
    long[] second = new long[n];
    order.prefixes(changes.rows, n, first, second);
    return of(changes.rows, changes.weights, first, second, n, order, owner);
  }

  /**
   * Sorts and consolidates entries {@code [0, n)} of {@code rows} with their {@code weights} and
   * their prefixes ({@link RowOrder#first}, {@link RowOrder#second}) already computed.
   *
   * @throws InvariantViolation, naming {@code owner}, when a row's weights sum below zero
   */
  static SortedBatch of(Row[] rows, long[] weights, long[] first, long[] second, int n, RowOrder order, String owner) {
    int[] perm = PrefixSort.permutation(rows, first, second, n, order);
    Consolidation c = new Consolidation(rows, weights, perm, first, second, owner);
    for (int i = 0; i < n; ) {
      i = c.chunk(i, Math.min(n, i + CHUNK));
    }
    return new SortedBatch(c.rows, c.counts, c.p0, c.p1, c.kept);
  }

  /** The consolidation pass over the sorted entries, one chunk per call. */
  private static final class Consolidation {
    final Row[] in;
    final long[] weights;
    final int[] perm;
    final long[] first;
    final long[] second;
    final String owner;
    final Row[] rows;
    final long[] counts;
    final long[] p0;
    final long[] p1;
    int kept;

    Consolidation(Row[] in, long[] weights, int[] perm, long[] first, long[] second, String owner) {
      int n = perm.length;
      this.in = in;
      this.weights = weights;
      this.perm = perm;
      this.first = first;
      this.second = second;
      this.owner = owner;
      this.rows = new Row[n];
      this.counts = new long[n];
      this.p0 = new long[n];
      this.p1 = new long[n];
    }

    /** Consolidates the runs of equal rows that start in sorted positions {@code [i, to)}; returns where the next starts. */
    int chunk(int i, int to) {
      int n = perm.length;
      while (i < to) {
        int at = perm[i];
        Row row = in[at];
        long weight = weights[at];
        // Equal rows are adjacent and share their prefixes; differing prefixes need no row compare.
        for (i++; i < n && first[perm[i]] == first[at] && second[perm[i]] == second[at] && in[perm[i]].equals(row); i++) {
          weight += weights[perm[i]];
        }
        if (weight < 0) {
          throw new InvariantViolation(owner + ": multiplicity of " + row + " would become " + weight);
        }
        if (weight > 0) {
          rows[kept] = row;
          counts[kept] = weight;
          p0[kept] = first[at];
          p1[kept] = second[at];
          kept++;
        }
      }
      return i;
    }
  }
}
