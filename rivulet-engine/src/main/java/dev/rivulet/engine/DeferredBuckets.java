package dev.rivulet.engine;

/**
 * The deferred rows of an unpartitioned top-K ({@link TopKOperator}) as consecutive ranges of
 * prefixes, each an unsorted {@link DeferredRows} log: every entry of a range has smaller
 * prefixes than every entry of the next, and entries with equal prefixes share a range. An
 * appended entry goes to its range by a binary search over the ranges' splitters (its prefixes
 * come from the caller, which has them).
 *
 * <p>Why: a refill selects the next rows in O(entries it looks at). One log makes every refill
 * look at all deferred rows (and compute their prefixes); here a refill looks at the first ranges
 * only, and a consolidation at a crowded range only. The hydration's log starts as the only range
 * (its first selection, the hydration's own, runs as before, or ran before the log was made:
 * {@link #selectedOnce}, {@link FirstRows}); the first later selection that
 * meets a range of at least {@code splitAt} entries splits that range first, into ranges of about
 * the size that selection wants.
 *
 * <p>Owned by one {@link TopKOperator}; confined to the graph's thread.
 */
final class DeferredBuckets {
  private static final int MAX_PARTS = 256;
  private final int compactSlack;
  private final int splitAt;
  private DeferredRows[] parts;
  // The smallest prefixes each range admits (the first live range's are not read).
  private long[] lo0;
  private long[] lo1;
  private int first; // ranges before it are taken
  private int count;
  private int size;
  private boolean selected; // the first selection (the hydration's) does not split
  private boolean crowded;
  private int lastScanned;
  /** Ranges split (for tests). */
  long splits;

  /**
   * Takes {@code all} as the only range; a later selection splits a range of at least {@code
   * splitAt} entries; the log is {@link #crowded} as {@link DeferredRows} says, with {@code
   * compactSlack} shared among the ranges a split makes.
   */
  DeferredBuckets(DeferredRows all, int compactSlack, int splitAt) {
    this.compactSlack = compactSlack;
    this.splitAt = Math.max(2, splitAt);
    this.parts = new DeferredRows[] {all};
    this.lo0 = new long[] {Long.MIN_VALUE};
    this.lo1 = new long[] {Long.MIN_VALUE};
    this.count = 1;
    this.size = all.size();
  }

  /** Notes that the first selection, the hydration's, was made before the log was given (a later one may split). */
  void selectedOnce() {
    selected = true;
  }

  /** Entries over all ranges. */
  int size() {
    return size;
  }

  /** Live ranges (for tests). */
  int ranges() {
    return count - first;
  }

  /** Entries the last {@link #takeFirst} looked at (the range it selected from). */
  int lastScanned() {
    return lastScanned;
  }

  /** Appends an entry whose row has prefixes {@code (q0, q1)} to its range. */
  void add(Row row, long weight, long q0, long q1) {
    int j = first + DeferredRows.partOf(lo0, lo1, count - first, q0, q1, first);
    DeferredRows p = parts[j];
    p.add(row, weight);
    size++;
    crowded |= p.crowded();
  }

  /** Whether some range grew crowded since the last {@link #compact}. */
  boolean crowded() {
    return crowded;
  }

  /** Consolidates each crowded range; returns the entries it looked at. */
  int compact(RowOrder order, String owner) {
    int scanned = 0;
    for (int j = first; j < count; j++) {
      DeferredRows p = parts[j];
      if (p.crowded()) {
        scanned += p.size();
        size -= p.size();
        p.compact(order, owner);
        size += p.size();
      }
    }
    crowded = false;
    return scanned;
  }

  /** Whether some range holds prefixes (for tests: none between runs). */
  boolean holdsPrefixes() {
    for (int j = first; j < count; j++) {
      if (parts[j].holdsPrefixes()) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@link DeferredRows#takeFirst} on the first non-empty range: at most its entries, sorted and
   * consolidated; every entry left orders after every row returned. Callers repeat it until they
   * have what they want. A large range is split first (see the class comment).
   */
  SortedBatch takeFirst(int want, RowOrder order, String owner) {
    skipEmpty();
    if (selected && parts[first].size() >= splitAt && parts[first].size() > want) {
      split(want, order);
      skipEmpty();
    }
    selected = true;
    DeferredRows p = parts[first];
    int before = p.size();
    lastScanned = before;
    SortedBatch b = p.takeFirst(want, order, owner);
    size -= before - p.size();
    return b;
  }

  private void skipEmpty() {
    while (first < count - 1 && parts[first].size() == 0) {
      first++;
    }
  }

  /** Splits the first range into ranges of about {@code want} entries each. */
  private void split(int want, RowOrder order) {
    DeferredRows p = parts[first];
    int k = (int) Math.min(MAX_PARTS, Math.max(2, p.size() / Math.max(64, want)));
    long[] s0 = new long[k];
    long[] s1 = new long[k];
    DeferredRows[] sub = p.split(k, order, Math.max(1, compactSlack / k), s0, s1);
    int rest = count - first - 1;
    DeferredRows[] np = new DeferredRows[sub.length + rest + 4];
    long[] n0 = new long[np.length];
    long[] n1 = new long[np.length];
    System.arraycopy(sub, 0, np, 0, sub.length);
    System.arraycopy(s0, 0, n0, 0, sub.length);
    System.arraycopy(s1, 0, n1, 0, sub.length);
    System.arraycopy(parts, first + 1, np, sub.length, rest);
    System.arraycopy(lo0, first + 1, n0, sub.length, rest);
    System.arraycopy(lo1, first + 1, n1, sub.length, rest);
    parts = np;
    lo0 = n0;
    lo1 = n1;
    first = 0;
    count = sub.length + rest;
    splits++;
  }
}
