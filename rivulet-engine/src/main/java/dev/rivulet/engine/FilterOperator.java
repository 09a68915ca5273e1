package dev.rivulet.engine;

import java.util.function.Predicate;

/**
 * Keeps the rows a predicate accepts: {@code filter(p)(A + B) = filter(p)(A) + filter(p)(B)},
 * weights kept. Linear, so it retains nothing.
 */
final class FilterOperator extends Operator {
  private final Predicate<Row> predicate;

  FilterOperator(Operator in, Predicate<Row> predicate) {
    super("filter", in.schema, in);
    this.predicate = predicate;
  }

  @Override
  void step() {
    Delta in = inputs[0];
    examined += in.size;
    // In chunks: a hydration's batch is compiled after a few thousand rows (see SortedBatch).
    for (int from = 0; from < in.size; from += SortedBatch.CHUNK) {
      step(in, from, Math.min(in.size, from + SortedBatch.CHUNK));
    }
  }

  private void step(Delta in, int from, int to) {
    for (int i = from; i < to; i++) {
      if (predicate.test(in.rows[i])) {
        emit(in.rows[i], in.weights[i]);
      }
    }
  }

  @Override
  long retained() {
    return 0;
  }
}
