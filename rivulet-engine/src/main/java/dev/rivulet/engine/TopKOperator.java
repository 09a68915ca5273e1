package dev.rivulet.engine;

import dev.rivulet.engine.state.OrderStatisticTree;
import java.util.ArrayList;
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
    this.whole = partitionColumns.length == 0 ? new OrderStatisticTree<>(order) : null;
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
      OrderStatisticTree<Row> tree = partitions.computeIfAbsent(e.getKey(), k -> new OrderStatisticTree<>(order));
      stepPartition(tree, e.getValue());
      if (tree.isEmpty()) {
        partitions.remove(e.getKey());
      }
    }
  }

  private void stepPartition(OrderStatisticTree<Row> tree, Delta changes) {
    long m = 0;
    for (int i = 0; i < changes.size; i++) {
      long after = tree.count(changes.rows[i]) + changes.weights[i];
      if (after < 0) {
        throw new InvariantViolation(name + ": multiplicity of " + changes.rows[i] + " would become " + after);
      }
      m += Math.abs(changes.weights[i]);
    }
    long n0 = tree.size();
    long oldWindow = Math.max(0, Math.min(end, n0) - Math.min(offset, n0));
    long newWindowBound = Math.min(end - offset, n0 + m);
    Map<Row, Candidate> cands = new LinkedHashMap<>();
    if (oldWindow + newWindowBound <= 4 * m + 8) {
      tree.visitRange(offset, end, (row, start, count) -> {
        Candidate c = candidate(cands, row);
        c.oldStart = start;
        c.oldCount = count;
      });
      apply(tree, changes);
      tree.visitRange(offset, end, (row, start, count) -> {
        Candidate c = candidate(cands, row);
        c.newStart = start;
        c.newCount = count;
      });
    } else {
      for (int i = 0; i < changes.size; i++) {
        Candidate c = candidate(cands, changes.rows[i]);
        c.oldCount = tree.count(c.row);
        c.oldStart = tree.rank(c.row);
      }
      OrderStatisticTree.RangeVisitor<Row> before = (row, start, count) -> {
        Candidate c = candidate(cands, row);
        c.oldStart = start;
        c.oldCount = count;
      };
      tree.visitRange(offset - m, offset + m, before);
      if (end != Long.MAX_VALUE) {
        tree.visitRange(end - m, end + m, before);
      }
      apply(tree, changes);
      for (Candidate c : cands.values()) {
        c.newCount = tree.count(c.row);
        c.newStart = tree.rank(c.row);
      }
    }
    examined += cands.size();
    emitDiff(cands);
  }

  private static Candidate candidate(Map<Row, Candidate> cands, Row row) {
    Candidate c = cands.get(row);
    if (c == null) {
      c = new Candidate(row);
      cands.put(row, c);
    }
    return c;
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

  private void emitDiff(Map<Row, Candidate> cands) {
    List<Candidate> removed = new ArrayList<>(2);
    List<Candidate> inserted = new ArrayList<>(2);
    for (Candidate c : cands.values()) {
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
