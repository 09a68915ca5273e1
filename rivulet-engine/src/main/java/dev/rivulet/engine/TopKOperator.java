package dev.rivulet.engine;

import dev.rivulet.engine.WindowDiff.Candidate;
import dev.rivulet.engine.state.OrderStatisticTree;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Order-by with offset and limit, per partition: the output relation is, for each partition, the
 * rows at ranks {@code [offset, offset + limit)} of the partition's rows in {@link RowOrder}.
 * Every output entry carries its position in its partition's window (see {@link ZSet}): the
 * retractions, at their old positions in descending order, then the insertions at their new
 * positions in ascending order. Rows that stay in the window but shift are not emitted; the
 * splice moves them.
 *
 * <p>Each partition's rows are retained in an {@link OrderStatisticTree}. A run that changes m
 * occurrences costs O(m log n): only the changed rows and the rows within m ranks of a window edge
 * can enter or leave the window, since an unchanged row's rank moves by at most m. When the
 * window is small next to m, the old and new windows are walked instead, which costs O(window +
 * m log n). The candidate bookkeeping and the positioned emission live in {@link WindowDiff}.
 *
 * <p>Without partitions and with a limit, a large first batch is not sorted whole: the tree takes
 * its first {@code end + slack} rows and the others stay unsorted in {@link DeferredBuckets} (ranges of
 * prefixes, each an unsorted log), beyond a boundary row (the tree's largest when it was last
 * filled). A refill looks at the first ranges only. A later change to a row after the
 * boundary only joins them; a run whose changes before the boundary could reach past the tree's
 * rows (the tree holding fewer than {@code end + m} occurrences) first moves the next rows over,
 * with a margin that doubles from one such refill to the next (up to {@code 8 * slack}).
 * The tree then holds exactly the rows up to the boundary, so its ranks are the true ranks of the
 * rows it holds, and every rank a run reads lies in it.
 *
 * <p>Concurrency: the operator, its trees and its deferred rows are confined to the thread that runs
 * its graph; the comparator and the scratch arrays it reuses between runs are never shared.
 */
final class TopKOperator extends Operator {
  private final int[] partitionColumns;
  private final RowOrder order;
  private final long offset;
  private final long end;
  private final HashMap<Row, OrderStatisticTree<Row>> partitions = new HashMap<>();
  private final OrderStatisticTree<Row> whole;
  private final WindowDiff diff;
  // An update's partitions: looked up without projecting a key, a few gathered in a reused batch.
  private static final int FEW = 8;
  private final Delta scratch = new Delta(FEW);
  private final boolean[] done = new boolean[FEW];
  /** The update runs' helpers, made on first use: a hydration needs none of them. */
  private Updates updates;
  /** Runs whose changes were all of one partition, stepped without grouping (for tests). */
  long onePartitionRuns;
  /** Runs whose changes, of a few partitions, were gathered without a map (for tests). */
  long fewPartitionRuns;
  /** Runs that replaced rows in their slots, without walking a window, and the rows so replaced (for tests). */
  long replacements;
  long replacedPairs;
  /** Whether a run replaces a row in its slot when it can, and gathers a few partitions' changes without a map (tests turn them off to compare). */
  boolean replaceInPlace = true;
  boolean gatherFew = true;
  /** Sorts of several changed rows by old rank that were not by insertion (for tests; see {@link WindowDiff#insertionSorts}). */
  long generalRankSorts;
  private Candidate[] changed = new Candidate[4];
  private long retainedRows;
  /** Rows beyond the whole tree's boundary, unsorted in ranges; null while the tree holds every row. */
  private DeferredBuckets rest;
  private Row boundary;
  private long boundary0;
  private long boundary1;
  static final int SLACK = 256;
  /** How many rows past the window's end a deferred tree takes in first (tests lower it); each refill doubles it, up to 8 times. */
  int slack = SLACK;
  private long refillSlack; // the next refill's
  /** How far the deferred rows may grow past twice their consolidated size (tests lower it). */
  int compactSlack = 1024;
  /** A refill splits a range of at least this many deferred entries before selecting from it (tests lower it). */
  int splitAt = 4096;
  /**
   * Hydrations that left rows unsorted (those of them whose batch had unit weights), the times rows
   * moved from there into the tree, their consolidations (for tests).
   */
  long deferredHydrations;
  long unitWeightHydrations;
  /** Of the deferring hydrations, those whose first rows were selected by {@link FirstRows} (for tests). */
  long selectingHydrations;
  long treeRefills;
  long deferredCompactions;
  /** Deferred ranges split, and the entries refills looked at after the hydration's (for tests). */
  long deferredSplits;
  long refillScanned;

  /** A new {@code TopKOperator} as an {@link Operator} (see {@link Stream}: no operator class is loaded until a graph uses it). */
  static Operator of(Operator in, int[] partitionColumns, RowOrder order, long offset, long limit) {
    return new TopKOperator(in, partitionColumns, order, offset, limit);
  }

  TopKOperator(Operator in, int[] partitionColumns, RowOrder order, long offset, long limit) {
    super("top-k", in.schema, in);
    this.partitionColumns = partitionColumns;
    this.order = order;
    this.offset = offset;
    long e = offset + limit;
    this.end = (limit == Long.MAX_VALUE || e < 0) ? Long.MAX_VALUE : e;
    this.whole = partitionColumns.length == 0 ? new OrderStatisticTree<>(order, order) : null;
    this.diff = new WindowDiff(offset, end);
  }

  /**
   * The helpers of update runs, made once (a run allocates none) on the first run that needs them,
   * not with the operator: a fresh JVM then loads and links none of their classes and lambdas
   * before a first query's hydration is ready.
   */
  private final class Updates {
    final WindowDiff.Sink sink = TopKOperator.this::emit;
    final EdgeVisitor edgeVisitor = new EdgeVisitor();
    final KeyProbe probe = new KeyProbe();
    final SlotReplacements slots = new SlotReplacements(FEW);
    // The window walks' visitors.
    final OrderStatisticTree.RangeVisitor<Row> oldWindow = (row, start, count) -> {
      Candidate c = diff.addOrGet(row);
      c.oldStart = start;
      c.oldCount = count;
    };
    final OrderStatisticTree.RangeVisitor<Row> newWindow = (row, start, count) -> {
      Candidate c = diff.addOrGet(row);
      c.newStart = start;
      c.newCount = count;
    };
    // nearEdges' sort of many changed rows (a few are sorted by insertion).
    final java.util.Comparator<Candidate> byOldRank = TopKOperator.this::byOldRank;
  }

  private Updates updates() {
    Updates u = updates;
    return u != null ? u : (updates = new Updates());
  }

  /** The rank-keeping replacements (tests read their counters). */
  SlotReplacements slots() {
    return updates().slots;
  }

  @Override
  void step() {
    Delta in = inputs[0];
    examined += in.size;
    if (whole == null || rest != null || !whole.isEmpty()) {
      in.materialize(); // only a hydration's deferring path reads unit weights as they are
    }
    if (whole != null) {
      stepPartition(whole, in);
      return;
    }
    if (in.size == 0) {
      return;
    }
    if (samePartition(in)) {
      // One partition changed (a single-row update): its changes are the input itself.
      onePartitionRuns++;
      Row first = in.rows[0]; // stepPartition may consolidate the input away
      stepPartition(partition(first, true), in);
      dropIfEmpty(first);
      return;
    }
    if (in.size <= FEW && gatherFew) {
      stepFewPartitions(in);
      return;
    }
    Map<Row, Delta> byPartition = new LinkedHashMap<>();
    for (int i = 0; i < in.size; i++) {
      byPartition.computeIfAbsent(in.rows[i].project(partitionColumns), k -> new Delta(2))
          .add(in.rows[i], in.weights[i]);
    }
    for (Map.Entry<Row, Delta> e : byPartition.entrySet()) {
      OrderStatisticTree<Row> tree = partitions.computeIfAbsent(e.getKey(), k -> new OrderStatisticTree<>(order, order));
      stepPartition(tree, e.getValue());
      if (tree.isEmpty()) {
        partitions.remove(e.getKey());
      }
    }
  }

  /** Whether every row of {@code in} (not empty) is in the first row's partition. */
  private boolean samePartition(Delta in) {
    for (int i = 1; i < in.size; i++) {
      if (!samePartition(in.rows[i], in.rows[0])) {
        return false;
      }
    }
    return true;
  }

  private boolean samePartition(Row a, Row b) {
    for (int c : partitionColumns) {
      if (!java.util.Objects.equals(a.canonicalAt(c), b.canonicalAt(c))) {
        return false;
      }
    }
    return true;
  }

  /** The tree of {@code row}'s partition (looked up without projecting its key), made when {@code make} and absent. */
  private OrderStatisticTree<Row> partition(Row row, boolean make) {
    KeyProbe probe = updates().probe;
    OrderStatisticTree<Row> tree = partitions.get(probe.of(row, partitionColumns));
    if (tree == null && make) {
      tree = new OrderStatisticTree<>(order, order);
      partitions.put(probe.project(), tree);
    }
    probe.clear();
    return tree;
  }

  private void dropIfEmpty(Row row) {
    KeyProbe probe = updates().probe;
    if (partitions.get(probe.of(row, partitionColumns)).isEmpty()) {
      partitions.remove(probe);
    }
    probe.clear();
  }

  /**
   * The changes of a few partitions (an update that moves a row between partitions): each
   * partition's entries gathered into a reused scratch batch, in input order, with no map of
   * partitions; a new partition's first contents get a batch of their own (a hydration may keep it).
   */
  private void stepFewPartitions(Delta in) {
    fewPartitionRuns++;
    for (int i = 0; i < in.size; i++) {
      done[i] = false;
    }
    for (int i = 0; i < in.size; i++) {
      if (done[i]) {
        continue;
      }
      Row first = in.rows[i];
      OrderStatisticTree<Row> tree = partition(first, true);
      Delta group = tree.isEmpty() ? new Delta(2) : scratch;
      group.clear();
      for (int j = i; j < in.size; j++) {
        if (!done[j] && (j == i || samePartition(in.rows[j], first))) {
          done[j] = true;
          group.add(in.rows[j], in.weights[j]);
        }
      }
      stepPartition(tree, group);
      group.clear();
      dropIfEmpty(first);
    }
  }

  /** Applies one partition's unconsolidated changes and emits its window's change. */
  private void stepPartition(OrderStatisticTree<Row> tree, Delta changes) {
    if (rest != null) {
      deferBeyondBoundary(changes);
      long m = 0;
      for (int i = 0; i < changes.size; i++) {
        m += Math.abs(changes.weights[i]);
      }
      fillTree(tree, m);
      if (changes.size == 0) {
        return;
      }
      if (rest == null && tree.isEmpty()) {
        hydrate(tree, changes); // every deferred row cancelled out
        return;
      }
    } else if (tree.isEmpty()) {
      hydrate(tree, changes);
      return;
    }
    if (changes.size % 2 == 0 && changes.size <= FEW && rest == null && replaceInPlace && replaced(tree, changes)) {
      return;
    }
    // Summing equal rows matters to the walk only when a row is both retracted and inserted (an
    // unconsolidated retraction could come before its row's insertion); the edge path needs it.
    boolean oneSign = oneSign(changes);
    if (!oneSign) {
      changes.consolidate();
    }
    diff.clear();
    long m = 0;
    for (int i = 0; i < changes.size; i++) {
      m += Math.abs(changes.weights[i]);
    }
    long n0 = tree.size();
    long oldWindow = Math.max(0, Math.min(end, n0) - Math.min(offset, n0));
    long newWindowBound = Math.min(end - offset, n0 + m);
    if (oldWindow + newWindowBound <= 4 * m + 8) {
      walkWindows(tree, changes); // needs no ranks of the changed rows
    } else {
      if (oneSign) {
        changes.consolidate();
      }
      rankChanged(tree, changes);
      nearEdges(tree, changes, m);
      Arrays.fill(changed, 0, changes.size, null);
    }
    examined += diff.size();
    diff.emit(updates().sink);
  }

  /**
   * Rows replaced by rows that keep their ranks ({@link SlotReplacements}): swapped in their tree
   * slots, the window's change emitted without walking a window or making candidates.
   */
  private boolean replaced(OrderStatisticTree<Row> tree, Delta changes) {
    Updates u = updates();
    if (!u.slots.replace(tree, changes)) {
      return false;
    }
    replacements++;
    replacedPairs += u.slots.pairs();
    examined += changes.size;
    u.slots.emit(offset, end, u.sink);
    return true;
  }

  private static boolean oneSign(Delta d) {
    for (int i = 1; i < d.size; i++) {
      if ((d.weights[i] < 0) != (d.weights[0] < 0)) {
        return false;
      }
    }
    return true;
  }

  /** Old rank and count of every changed row, in one descent each; validates before mutating. */
  private void rankChanged(OrderStatisticTree<Row> tree, Delta changes) {
    if (changed.length < changes.size) {
      changed = new Candidate[Math.max(changes.size, changed.length * 2)];
    }
    for (int i = 0; i < changes.size; i++) {
      Candidate c = diff.add(changes.rows[i]);
      c.oldStart = tree.rankAndCount(c.row);
      c.oldCount = tree.lastCount();
      c.newCount = c.oldCount + changes.weights[i];
      if (c.newCount < 0) {
        throw new InvariantViolation(name + ": multiplicity of " + c.row + " would become " + c.newCount);
      }
      changed[i] = c;
    }
  }

  /**
   * Candidates = the old window and the new window, walked before and after applying: a changed
   * row matters only if a walk meets it, so no changed row is looked up. A retraction of a row the
   * tree lacks fails while applying (the graph then fails, see {@link Graph#run}).
   */
  private void walkWindows(OrderStatisticTree<Row> tree, Delta changes) {
    Updates u = updates();
    tree.visitRange(offset, end, u.oldWindow);
    apply(tree, changes);
    tree.visitRange(offset, end, u.newWindow);
  }

  /**
   * Candidates = the changed rows and the rows within m ranks of either window edge. New ranks
   * follow arithmetically: a row's start moves by the net weight of the changed rows ordered
   * before it. Which changed rows those are is read off the old ranks, so after the changes are
   * applied no further descent, and for an unchanged row no row comparison, is needed.
   */
  private void nearEdges(OrderStatisticTree<Row> tree, Delta changes, long m) {
    int k = changes.size;
    // A changed row c precedes an unchanged row starting at s iff bound(c) <= s, where bound(c)
    // is its old rank, plus one if it was present. Sort by (old rank, absent first); two rows
    // absent from the same gap need the row order.
    Updates u = updates();
    sortByOldRank(k);
    EdgeVisitor v = u.edgeVisitor;
    v.reset(k);
    for (int i = 0; i < k; i++) {
      Candidate c = changed[i];
      v.bound[i] = c.oldStart + (c.oldCount > 0 ? 1 : 0);
      v.prefix[i + 1] = v.prefix[i] + (c.newCount - c.oldCount);
      c.newStart = c.oldStart + v.prefix[i];
    }
    v.minStart = Long.MIN_VALUE;
    tree.visitRange(offset - m, offset + m, v);
    if (end != Long.MAX_VALUE) {
      // A row starting below offset + m was met at the first edge (it may span both edges).
      v.minStart = offset + m;
      tree.visitRange(end - m, end + m, v);
    }
    apply(tree, changes);
  }

  /**
   * Sorts {@code changed[0..k)} by {@link #byOldRank}: by insertion for the few of a single-row
   * update, so that it runs no shared JDK sort (see {@link WindowDiff#SMALL_SORT}).
   */
  private void sortByOldRank(int k) {
    if (k > WindowDiff.SMALL_SORT || !diff.insertionSorts) {
      generalRankSorts += k > 1 ? 1 : 0;
      Arrays.sort(changed, 0, k, updates().byOldRank);
      return;
    }
    Candidate[] a = changed;
    for (int i = 1; i < k; i++) {
      Candidate c = a[i];
      int j = i - 1;
      for (; j >= 0 && byOldRank(a[j], c) > 0; j--) {
        a[j + 1] = a[j];
      }
      a[j + 1] = c;
    }
  }

  /** nearEdges' order of the changed rows: old rank, then absent first, then row order. */
  private int byOldRank(Candidate a, Candidate b) {
    if (a.oldStart != b.oldStart) {
      return Long.compare(a.oldStart, b.oldStart);
    }
    if ((a.oldCount > 0) != (b.oldCount > 0)) {
      return a.oldCount > 0 ? 1 : -1;
    }
    return order.compare(a.row, b.row);
  }

  /** Adds the unchanged rows met near an edge, with their arithmetically shifted new start. */
  private final class EdgeVisitor implements OrderStatisticTree.RangeVisitor<Row> {
    long[] bound = new long[4];
    long[] prefix = new long[5];
    int k;
    long minStart;

    void reset(int k) {
      this.k = k;
      if (bound.length < k) {
        bound = new long[k * 2];
        prefix = new long[k * 2 + 1];
      }
      prefix[0] = 0;
    }

    @Override
    public void visit(Row row, long start, long count) {
      if (start < minStart) {
        return;
      }
      int before = upperBound(bound, k, start);
      if (before < k && changed[before].oldCount > 0 && changed[before].oldStart == start) {
        return; // a changed row, already a candidate
      }
      Candidate c = diff.add(row);
      c.oldStart = start;
      c.oldCount = count;
      c.newStart = start + prefix[before];
      c.newCount = count;
    }
  }

  /** Number of entries of ascending {@code a[0..n)} that are {@code <= x}. */
  private static int upperBound(long[] a, int n, long x) {
    int lo = 0;
    int hi = n;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (a[mid] <= x) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /**
   * First contents of an empty partition: sorted and consolidated once ({@link SortedBatch}),
   * then the tree built balanced instead of n descents, and the window emitted in order. A large
   * batch under a small limit is only split: its first rows sorted into the tree, the others
   * deferred (see the class comment).
   */
  private void hydrate(OrderStatisticTree<Row> tree, Delta changes) {
    int n = changes.size;
    boolean defer = tree == whole && end != Long.MAX_VALUE && end >= 1 && end <= n / 2 - slack;
    if (defer && changes.unitWeights()) {
      hydrateSelecting(tree, changes);
    } else if (defer) {
      long[] first = new long[n];
      long[] second = new long[n];
      order.prefixes(changes.rows, n, first, second);
      long[] weights = Arrays.copyOf(changes.weights, n); // not unit weights: see hydrateSelecting
      rest = new DeferredBuckets(new DeferredRows(Arrays.copyOf(changes.rows, n), weights, first, second, n, compactSlack),
          compactSlack, splitAt);
      deferredHydrations++;
      examined += n;
      fillTree(tree, 0);
    } else {
      changes.materialize();
      SortedBatch sorted = SortedBatch.of(changes, order, name);
      tree.bulkLoad(sorted.rows, sorted.counts, sorted.p0, sorted.p1, sorted.size);
      retainedRows += sorted.size;
      examined += sorted.size;
    }
    tree.visitRange(offset, end, new WindowEmission());
  }

  /**
   * Emits a hydrated window's rows at their positions. A class, not a lambda: a fresh JVM links a
   * lambda at a cost of about a millisecond, and every ordered first query hydrates.
   */
  private final class WindowEmission implements OrderStatisticTree.RangeVisitor<Row> {
    @Override
    public void visit(Row row, long start, long count) {
      emit(row, diff.inWindow(start, count), (int) (Math.max(start, offset) - offset));
    }
  }

  /**
   * The deferring hydration of a batch of unit weights: its first {@code end + slack} rows are
   * selected in one pass that computes prefixes only for rows that could be among them ({@link
   * FirstRows}) and go into the tree; the others become the deferred rows without prefixes. The
   * same tree, deferred rows and counters as the general path's first refill ({@link #fillTree}).
   */
  private void hydrateSelecting(OrderStatisticTree<Row> tree, Delta changes) {
    int n = changes.size;
    long target = end + slack;
    Row[] rows = Arrays.copyOf(changes.rows, n);
    FirstRows first = FirstRows.select(rows, n, (int) target, order);
    SortedBatch next = first.take(rows, name);
    rest = new DeferredBuckets(new DeferredRows(rows, null, null, null, first.left(), compactSlack), compactSlack, splitAt);
    rest.selectedOnce();
    selectingHydrations++;
    unitWeightHydrations++;
    deferredHydrations++;
    examined += 2L * n; // the batch, and the selection's look at it
    refillSlack = slack;
    treeRefills++;
    append(tree, next); // at least target occurrences: every entry taken weighs one
    if (rest.size() == 0) {
      rest = null;
      boundary = null;
    }
  }

  /**
   * Moves the changes to rows after the boundary into the deferred rows; the others stay in
   * {@code changes}, in their order.
   */
  private void deferBeyondBoundary(Delta changes) {
    int kept = 0;
    for (int i = 0; i < changes.size; i++) {
      Row r = changes.rows[i];
      long q0 = order.first(r);
      long q1 = order.second(r);
      if (q0 < boundary0 || (q0 == boundary0 && (q1 < boundary1 || (q1 == boundary1 && order.compare(r, boundary) <= 0)))) {
        changes.rows[kept] = r;
        changes.weights[kept] = changes.weights[i];
        kept++;
      } else {
        rest.add(r, changes.weights[i], q0, q1);
      }
    }
    Arrays.fill(changes.rows, kept, changes.size, null);
    changes.size = kept;
  }

  /**
   * While the tree holds fewer than {@code end + m} occurrences (so that m changes before the
   * boundary could reach past its rows), moves the next deferred rows into it, {@code slack} more
   * than needed; they all order after its rows, and the last becomes the boundary. Consolidates
   * the deferred rows when they have grown crowded.
   */
  private void fillTree(OrderStatisticTree<Row> tree, long m) {
    if (rest != null && tree.size() < end + m) {
      // A run that needs rows moved over may well be one of many (rows leaving the window one by
      // one): each refill takes twice the last one's margin, so they grow rarer.
      refillSlack = refillSlack == 0 ? slack : Math.min(8L * slack, 2 * refillSlack);
      treeRefills++;
      moveOver(tree, end + m + refillSlack);
    }
    if (rest != null && rest.crowded()) {
      int scanned = rest.compact(order, name);
      examined += scanned;
      deferredCompactions++;
    }
  }

  /** Moves the next deferred rows into the tree until it holds {@code target} occurrences or none are left. */
  private void moveOver(OrderStatisticTree<Row> tree, long target) {
    while (rest != null && tree.size() < target) {
      long want = Math.min(Integer.MAX_VALUE - 8, target - tree.size());
      long splits = rest.splits;
      SortedBatch next = rest.takeFirst((int) want, order, name);
      deferredSplits += rest.splits - splits;
      examined += rest.lastScanned();
      refillScanned += treeRefills > 1 ? rest.lastScanned() : 0;
      append(tree, next);
      if (rest.size() == 0) {
        rest = null;
        boundary = null;
      }
    }
  }

  /** Adds rows that order after every row of the tree; the last becomes the boundary. */
  private void append(OrderStatisticTree<Row> tree, SortedBatch next) {
    if (tree.isEmpty()) {
      tree.bulkLoad(next.rows, next.counts, next.p0, next.p1, next.size);
    } else {
      for (int i = 0; i < next.size; i++) {
        tree.add(next.rows[i], next.counts[i]); // after every row of the tree: appended
      }
    }
    retainedRows += next.size;
    if (next.size > 0) {
      boundary = next.rows[next.size - 1];
      boundary0 = next.p0[next.size - 1];
      boundary1 = next.p1[next.size - 1];
    }
  }

  private void apply(OrderStatisticTree<Row> tree, Delta changes) {
    for (int i = 0; i < changes.size; i++) {
      long before = tree.distinct();
      try {
        tree.add(changes.rows[i], changes.weights[i]);
      } catch (IllegalStateException e) {
        throw new InvariantViolation(name + ": " + e.getMessage());
      }
      retainedRows += tree.distinct() - before;
    }
  }

  @Override
  boolean readsUnitWeights() {
    return true; // see step
  }

  /** Whether the partitions are by exactly {@code columns}, in that order. */
  boolean partitionedBy(int[] columns) {
    return partitionColumns.length > 0 && Arrays.equals(partitionColumns, columns);
  }

  boolean partitioned() {
    return whole == null;
  }

  @Override
  long retained() {
    return retainedRows + (rest == null ? 0 : rest.size());
  }

  /** Entries left unsorted beyond the boundary (for tests). */
  int deferred() {
    return rest == null ? 0 : rest.size();
  }

  /** The rows left unsorted beyond the boundary, or null (for tests). */
  DeferredBuckets deferredRows() {
    return rest;
  }

  /** Window walks whose candidates outgrew a scan and went into a map (for tests). */
  long mappedWalks() {
    return diff.mappedWalks;
  }

  /** The window's change (tests switch its sorts). */
  WindowDiff diff() {
    return diff;
  }
}
