package dev.rivulet.engine;

import dev.rivulet.engine.state.Bag;
import dev.rivulet.engine.state.KeyIndex;

/**
 * The step of an inner {@link JoinOperator}. Law: {@code d(L x R) = dL x R0 + L1 x dR}; an inner
 * join has no null-extended part, so neither side is grouped by key.
 *
 * <p>Confined, with its join, to the thread that runs the graph.
 */
final class InnerJoinStep {
  private final JoinOperator join;

  InnerJoinStep(JoinOperator join) {
    this.join = join;
  }

  /**
   * An inner join has no null-extended part, so it needs no per-key grouping: {@code dL x R0},
   * then {@code dL} goes into the left index, then {@code L1 x dR}, then {@code dR} into the
   * right index. Each side's matches are emitted before its changes go into its index (they read
   * only the other index), so a hydration-sized batch is indexed in bulk ({@link
   * KeyIndex#addAll}); its pairs are collected by {@link InnerJoinHydration}, which reads the
   * other index without making bags, with the smaller side going first ({@link #pairSide}), and
   * handed on as one batch. (Right and full joins group a run's changes by key to see each key's
   * side turn empty or non-empty.)
   */
  void step(Delta dl, Delta dr) {
    if (!bulk(dl, dr)) { // chosen on the consolidated sizes: only the bulk path reads unit weights
      dl.materialize();
      dr.materialize();
      stepInnerRows(dl, join.leftKeys, join.right, join.left, true);
      stepInnerRows(dr, join.rightKeys, join.left, join.right, false);
      return;
    }
    join.innerBulkSteps++;
    InnerJoinHydration pairs = new InnerJoinHydration(join.rows, Math.max(dl.size, dr.size));
    // The smaller change is indexed first and the larger one probes it: short chains per probe, and
    // a fresh JVM compiles the probe loop (called per chunk of the larger side) early.
    if (dl.size >= dr.size) {
      pairSide(pairs, dr, join.rightKeys, join.left, join.right, false);
      pairSide(pairs, dl, join.leftKeys, join.right, join.left, true);
    } else {
      pairSide(pairs, dl, join.leftKeys, join.right, join.left, true);
      pairSide(pairs, dr, join.rightKeys, join.left, join.right, false);
    }
    join.examined += pairs.size(); // one entry of the other index read per pair
    handOn(pairs);
  }

  /**
   * One side's change {@code d} of a hydration-sized inner step: its pairs with {@code other}
   * (none while that is empty), then into {@code own} in bulk. Either side may go first: {@code
   * L0 x dR + dL x R1} and {@code dL x R0 + L1 x dR} are the same change.
   */
  private void pairSide(InnerJoinHydration pairs, Delta d, int[] keyColumns, KeyIndex<Row> other,
      KeyIndex<Row> own, boolean isLeft) {
    Object[] keys = join.keysOf(d, keyColumns);
    if (other.entries() > 0) { // a hydration's first batch meets nothing: no lookups
      pairs.pair(d, keys, other, isLeft);
    }
    join.addAllChecked(own, keys, d);
  }

  /** Whether an inner step takes the hydration-sized path ({@link InnerJoinHydration}, indexes built in bulk). */
  private boolean bulk(Delta dl, Delta dr) {
    return dl.size >= join.bulkAt || dr.size >= join.bulkAt;
  }

  /** Emits the pairs collected: a batch of unit weights as it is, without a copy where the target allows. */
  private void handOn(InnerJoinHydration pairs) {
    if (pairs.unitWeights()) {
      Delta out = new Delta(0);
      out.adopt(pairs.rows(), pairs.size());
      join.handOff(out);
      return;
    }
    join.reserveOutput(pairs.size());
    for (int i = 0; i < pairs.size(); i++) {
      join.emit(pairs.rows()[i], pairs.weight(i));
    }
  }

  /** One side of an update-sized inner step, row by row: its matches in {@code other}, then into {@code own}. */
  private void stepInnerRows(Delta d, int[] keys, KeyIndex<Row> other, KeyIndex<Row> own, boolean isLeft) {
    for (int i = 0; i < d.size; i++) {
      Row row = d.rows[i];
      Object key = join.keyOf(row, keys);
      if (key == null) {
        continue;
      }
      Bag<Row> match = other.get(key);
      if (match != null) {
        join.examined += match.size();
        for (int j = 0; j < match.size(); j++) {
          Row out = isLeft ? join.rows.pair(row, match.value(j)) : join.rows.pair(match.value(j), row);
          join.emit(out, d.weights[i] * match.weight(j));
        }
      }
      long w = own.add(key, row, d.weights[i]);
      if (w < 0) {
        throw new InvariantViolation(join.name + ": multiplicity of " + row + " would become " + w);
      }
    }
  }
}
