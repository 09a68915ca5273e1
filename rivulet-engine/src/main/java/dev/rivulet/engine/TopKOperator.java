package dev.rivulet.engine;

import dev.rivulet.engine.state.OrderStatisticTree;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
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
 * m log n).
 */
final class TopKOperator extends Operator {
  private final int[] partitionColumns;
  private final RowOrder order;
  private final long offset;
  private final long end;
  private final HashMap<Row, OrderStatisticTree<Row>> partitions = new HashMap<>();
  private final OrderStatisticTree<Row> whole;
  private long retainedRows;

  /** One row that may enter or leave the window, with its occurrences before and after. */
  private static final class Candidate {
    final Row row;
    long oldStart;
    long oldCount;
    long newStart;
    long newCount;

    Candidate(Row row) {
      this.row = row;
    }
  }

  TopKOperator(Operator in, int[] partitionColumns, RowOrder order, long offset, long limit) {
    super("top-k", in.schema, in);
    this.partitionColumns = partitionColumns;
    this.order = order;
    this.offset = offset;
    long e = offset + limit;
    this.end = (limit == Long.MAX_VALUE || e < 0) ? Long.MAX_VALUE : e;
    this.whole = partitionColumns.length == 0 ? new OrderStatisticTree<>(order, order) : null;
  }

  @Override
  void step() {
    Delta in = inputs[0].consolidate();
    examined += in.size;
    if (whole != null) {
      stepPartition(whole, in);
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

  private void stepPartition(OrderStatisticTree<Row> tree, Delta changes) {
    if (tree.isEmpty()) {
      hydrate(tree, changes);
      return;
    }
    // Old rank and count of every changed row, in one descent each; validates before mutating.
    Candidate[] changed = new Candidate[changes.size];
    long m = 0;
    for (int i = 0; i < changes.size; i++) {
      Candidate c = new Candidate(changes.rows[i]);
      c.oldStart = tree.rankAndCount(c.row);
      c.oldCount = tree.lastCount();
      c.newCount = c.oldCount + changes.weights[i];
      if (c.newCount < 0) {
        throw new InvariantViolation(name + ": multiplicity of " + c.row + " would become " + c.newCount);
      }
      changed[i] = c;
      m += Math.abs(changes.weights[i]);
    }
    long n0 = tree.size();
    long oldWindow = Math.max(0, Math.min(end, n0) - Math.min(offset, n0));
    long newWindowBound = Math.min(end - offset, n0 + m);
    List<Candidate> cands;
    if (oldWindow + newWindowBound <= 4 * m + 8) {
      cands = walkWindows(tree, changes);
    } else {
      cands = nearEdges(tree, changes, changed, m);
    }
    examined += cands.size();
    emitDiff(cands);
  }

  /** Candidates = the old window and the new window, walked before and after applying. */
  private List<Candidate> walkWindows(OrderStatisticTree<Row> tree, Delta changes) {
    Map<Row, Candidate> byRow = new LinkedHashMap<>();
    tree.visitRange(offset, end, (row, start, count) -> {
      Candidate c = new Candidate(row);
      c.oldStart = start;
      c.oldCount = count;
      byRow.put(row, c);
    });
    apply(tree, changes);
    tree.visitRange(offset, end, (row, start, count) -> {
      Candidate c = byRow.computeIfAbsent(row, Candidate::new);
      c.newStart = start;
      c.newCount = count;
    });
    return new ArrayList<>(byRow.values());
  }

  /**
   * Candidates = the changed rows and the rows within m ranks of either window edge. New ranks
   * follow arithmetically: a row's start moves by the net weight of the changes ordered before
   * it, so after the changes are applied no further descent is needed.
   */
  private List<Candidate> nearEdges(OrderStatisticTree<Row> tree, Delta changes, Candidate[] changed, long m) {
    Arrays.sort(changed, (a, b) -> order.compare(a.row, b.row));
    long[] prefix = new long[changed.length + 1];
    for (int i = 0; i < changed.length; i++) {
      prefix[i + 1] = prefix[i] + (changed[i].newCount - changed[i].oldCount);
    }
    List<Candidate> cands = new ArrayList<>(changed.length + 8);
    for (Candidate c : changed) {
      c.newStart = c.oldStart + prefix[shiftIndex(changed, c.row)];
      cands.add(c);
    }
    OrderStatisticTree.RangeVisitor<Row> edge = (row, start, count) -> {
      int at = shiftIndex(changed, row);
      if (at < changed.length && changed[at].row.equals(row)) {
        return; // a changed row, already a candidate
      }
      Candidate c = new Candidate(row);
      c.oldStart = start;
      c.oldCount = count;
      c.newStart = start + prefix[at];
      c.newCount = count;
      cands.add(c);
    };
    tree.visitRange(offset - m, offset + m, edge);
    if (end != Long.MAX_VALUE) {
      // A row starting below offset + m was met at the first edge (it may span both edges).
      tree.visitRange(end - m, end + m, (row, start, count) -> {
        if (start >= offset + m) {
          edge.visit(row, start, count);
        }
      });
    }
    apply(tree, changes);
    return cands;
  }

  /** Number of changed rows ordered strictly before {@code row} (binary search). */
  private int shiftIndex(Candidate[] sorted, Row row) {
    int lo = 0;
    int hi = sorted.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (order.compare(sorted[mid].row, row) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /**
   * First contents of an empty partition: sort once and build the tree balanced instead of n
   * descents, then emit the window in order.
   */
  private void hydrate(OrderStatisticTree<Row> tree, Delta changes) {
    int n = changes.size;
    Row[] rows = Arrays.copyOf(changes.rows, n);
    long[] counts = new long[n];
    boolean allOnes = true;
    for (int i = 0; i < n; i++) {
      if (changes.weights[i] < 0) {
        throw new InvariantViolation(name + ": multiplicity of " + rows[i] + " would become " + changes.weights[i]);
      }
      allOnes &= changes.weights[i] == 1;
    }
    if (allOnes) {
      Arrays.sort(rows, order);
      Arrays.fill(counts, 1);
    } else {
      Integer[] idx = new Integer[n];
      for (int i = 0; i < n; i++) {
        idx[i] = i;
      }
      Arrays.sort(idx, (a, b) -> order.compare(changes.rows[a], changes.rows[b]));
      for (int i = 0; i < n; i++) {
        rows[i] = changes.rows[idx[i]];
        counts[i] = changes.weights[idx[i]];
      }
    }
    tree.bulkLoad(rows, counts, n);
    retainedRows += n;
    examined += n;
    tree.visitRange(offset, end, (row, start, count) -> {
      long k = inWindow(start, count);
      emit(row, k, (int) (Math.max(start, offset) - offset));
    });
  }

  private void apply(OrderStatisticTree<Row> tree, Delta changes) {
    for (int i = 0; i < changes.size; i++) {
      long before = tree.distinct();
      tree.add(changes.rows[i], changes.weights[i]);
      retainedRows += tree.distinct() - before;
    }
  }

  private long inWindow(long start, long count) {
    return count == 0 ? 0 : Math.max(0, Math.min(start + count, end) - Math.max(start, offset));
  }

  private void emitDiff(List<Candidate> cands) {
    List<Candidate> removed = new ArrayList<>(2);
    List<Candidate> inserted = new ArrayList<>(2);
    for (Candidate c : cands) {
      long before = inWindow(c.oldStart, c.oldCount);
      long after = inWindow(c.newStart, c.newCount);
      if (before > after) {
        c.oldCount = before - after; // reused: copies leaving
        removed.add(c);
      } else if (after > before) {
        c.newCount = after - before; // reused: copies entering
        inserted.add(c);
      }
    }
    removed.sort((a, b) -> Long.compare(b.oldStart, a.oldStart));
    inserted.sort((a, b) -> Long.compare(a.newStart, b.newStart));
    for (Candidate c : removed) {
      emit(c.row, -c.oldCount, (int) (Math.max(c.oldStart, offset) - offset));
    }
    for (Candidate c : inserted) {
      emit(c.row, c.newCount, (int) (Math.max(c.newStart, offset) - offset));
    }
  }

  @Override
  long retained() {
    return retainedRows;
  }
}
