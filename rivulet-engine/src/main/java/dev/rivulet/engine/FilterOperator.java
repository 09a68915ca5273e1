package dev.rivulet.engine;

import java.util.Arrays;
import java.util.function.Predicate;

/**
 * Keeps the rows a predicate accepts: {@code filter(p)(A + B) = filter(p)(A) + filter(p)(B)},
 * weights kept. Linear, so it retains nothing.
 */
final class FilterOperator extends Operator {
  private final Predicate<Row> predicate;

  /** A new {@code FilterOperator} as an {@link Operator} (see {@link Stream}: no operator class is loaded until a graph uses it). */
  static Operator of(Operator in, Predicate<Row> predicate) {
    return new FilterOperator(in, predicate);
  }

  FilterOperator(Operator in, Predicate<Row> predicate) {
    super("filter", in.schema, in);
    this.predicate = predicate;
  }

  @Override
  void step() {
    Delta in = inputs[0];
    examined += in.size;
    // In chunks: a hydration's batch is compiled after a few thousand rows (see SortedBatch).
    if (canHandOff()) {
      // The kept entries move to the front of the input, which then goes on without a copy (unit
      // weights, a hydration's, stay unit weights: only rows move).
      boolean ones = in.unitWeights();
      int kept = 0;
      for (int from = 0; from < in.size; from += SortedBatch.CHUNK) {
        int to = Math.min(in.size, from + SortedBatch.CHUNK);
        kept = ones ? keepRows(in.rows, from, to, kept) : keep(in, from, to, kept);
      }
      Arrays.fill(in.rows, kept, in.size, null);
      in.size = kept;
      handOff(in);
      return;
    }
    in.materialize();
    for (int from = 0; from < in.size; from += SortedBatch.CHUNK) {
      step(in, from, Math.min(in.size, from + SortedBatch.CHUNK));
    }
  }

  /** {@link #keep} of entries with unit weights: only their rows move. */
  private int keepRows(Row[] rows, int from, int to, int kept) {
    for (int i = from; i < to; i++) {
      Row r = rows[i];
      if (predicate.test(r)) {
        rows[kept++] = r;
      }
    }
    return kept;
  }

  /** Moves the accepted entries of {@code [from, to)} to {@code kept, kept + 1, ...}; the new count. */
  private int keep(Delta in, int from, int to, int kept) {
    Row[] rows = in.rows;
    long[] weights = in.weights;
    for (int i = from; i < to; i++) {
      Row r = rows[i];
      if (predicate.test(r)) {
        rows[kept] = r;
        weights[kept] = weights[i];
        kept++;
      }
    }
    return kept;
  }

  private void step(Delta in, int from, int to) {
    for (int i = from; i < to; i++) {
      if (predicate.test(in.rows[i])) {
        emit(in.rows[i], in.weights[i]);
      }
    }
  }

  @Override
  boolean readsUnitWeights() {
    return true;
  }

  @Override
  long retained() {
    return 0;
  }
}
