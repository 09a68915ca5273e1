package dev.rivulet.engine;

import java.util.HashMap;
import java.util.function.Supplier;

/**
 * Semi-join: the rows of the left relation {@code L} whose key is a key of the right relation
 * {@code R} (a key with a null value matches nothing), each with its left multiplicity times the
 * right key's multiplicity. Incrementally, with {@code L1 = L0 + dL}: {@code d = dL x R0 + L1 x
 * dR}, so a change of the left side is looked up in the right keys (a few: an include's active
 * buckets) and a new right key collects its rows from the left index.
 *
 * <p>Retains the right side as a map of key multiplicities and the left side in a {@link
 * SemiJoinIndex} (no object per row; a row of weight {@code w} is one entry, not {@code w}). The left side may start from a {@link RowSource} read when
 * the graph first runs instead of arriving as a delta: its input must then not also carry those
 * rows. A retraction of a left row that is not there is an {@link InvariantViolation}.
 *
 * <p>Confined to the thread that runs the graph.
 */
final class SemiJoinOperator extends Operator {
  private final int[] leftKeys;
  private final int[] rightKeys;
  private final Supplier<RowSource> initial;
  private final HashMap<Object, Long> right = new HashMap<>();
  private final SemiJoinIndex left = new SemiJoinIndex();

  /** A new {@code SemiJoinOperator} as an {@link Operator} (see {@link Stream}: no operator class is loaded until a graph uses it). */
  static Operator of(Operator leftOp, Operator rightOp, int[] leftKeys, int[] rightKeys, Supplier<RowSource> initial) {
    return new SemiJoinOperator(leftOp, rightOp, leftKeys, rightKeys, initial);
  }

  SemiJoinOperator(Operator leftOp, Operator rightOp, int[] leftKeys, int[] rightKeys, Supplier<RowSource> initial) {
    super("semi-join", leftOp.schema, leftOp, rightOp);
    this.leftKeys = leftKeys;
    this.rightKeys = rightKeys;
    this.initial = initial;
  }

  @Override
  void start() {
    RowSource source = initial == null ? null : initial.get();
    if (source != null) {
      left.reserve(source.size());
      source.forEachRow(this::addInitial);
    }
  }

  private void addInitial(Row row) {
    examined++;
    Object key = keyOf(row, leftKeys);
    if (key != null) {
      left.add(key, row);
    }
  }

  @Override
  void step() {
    Delta dl = inputs[0].consolidateIfRetracting();
    examined += dl.size;
    for (int i = 0; i < dl.size; i++) {
      Row row = dl.rows[i];
      Object key = keyOf(row, leftKeys);
      if (key != null) {
        stepLeft(key, row, dl.weights[i]);
      }
    }
    Delta dr = inputs[1].consolidate();
    examined += dr.size;
    for (int i = 0; i < dr.size; i++) {
      Object key = keyOf(dr.rows[i], rightKeys);
      if (key != null) {
        stepRight(key, dr.weights[i]);
      }
    }
  }

  /** dL x R0, and the left index updated to L1. */
  private void stepLeft(Object key, Row row, long w) {
    Long r = right.get(key);
    if (r != null) {
      emit(row, w * r);
    }
    if (w > 0) {
      left.add(key, row, w);
    } else if (w < 0 && (w == Long.MIN_VALUE || !left.remove(key, row, -w))) {
      throw new InvariantViolation(name + ": multiplicity of " + row + " would become negative");
    }
  }

  /** L1 x dR, and the right keys updated. */
  private void stepRight(Object key, long w) {
    for (int e = left.head(key); e != SemiJoinIndex.END; e = left.next(e)) {
      examined++;
      emit(left.row(e), left.weight(e) * w);
    }
    long after = right.getOrDefault(key, 0L) + w;
    if (after < 0) {
      throw new InvariantViolation(name + ": multiplicity of right key " + key + " would become " + after);
    }
    if (after == 0) {
      right.remove(key);
    } else {
      right.put(key, after);
    }
  }

  private static Object keyOf(Row row, int[] keys) {
    if (keys.length == 1) {
      return row.canonicalAt(keys[0]);
    }
    return row.anyNull(keys) ? null : row.project(keys);
  }

  @Override
  long retained() {
    return left.size() + right.size();
  }
}
