package dev.rivulet.engine;

import java.util.HashMap;

/**
 * Set semantics: {@code distinct(A)} holds each row of positive multiplicity in {@code A} once.
 * Incrementally, a row is emitted +1 when its multiplicity rises from zero and -1 when it falls
 * back to zero. Retains each distinct row's multiplicity; a negative multiplicity is an {@link
 * InvariantViolation}.
 */
final class DistinctOperator extends Operator {
  private final HashMap<Row, Long> counts = new HashMap<>();

  /** A new {@code DistinctOperator} as an {@link Operator} (see {@link Stream}: no operator class is loaded until a graph uses it). */
  static Operator of(Operator in) {
    return new DistinctOperator(in);
  }

  DistinctOperator(Operator in) {
    super("distinct", in.schema, in);
  }

  @Override
  void step() {
    Delta in = inputs[0].consolidate();
    examined += in.size;
    for (int i = 0; i < in.size; i++) {
      Row r = in.rows[i];
      long before = counts.getOrDefault(r, 0L);
      long after = before + in.weights[i];
      if (after < 0) {
        throw new InvariantViolation(name + ": multiplicity of " + r + " would become " + after);
      }
      if (after == 0) {
        counts.remove(r);
      } else {
        counts.put(r, after);
      }
      if (before == 0 && after > 0) {
        emit(r, 1);
      } else if (before > 0 && after == 0) {
        emit(r, -1);
      }
    }
  }

  @Override
  long retained() {
    return counts.size();
  }
}
