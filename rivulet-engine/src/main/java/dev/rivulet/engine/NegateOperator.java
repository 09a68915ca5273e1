package dev.rivulet.engine;

/** Negates every weight: {@code negate(A) = -A}, so {@code A + negate(A) = 0}. Retains nothing. */
final class NegateOperator extends Operator {
  /** A new {@code NegateOperator} as an {@link Operator} (see {@link Stream}: no operator class is loaded until a graph uses it). */
  static Operator of(Operator in) {
    return new NegateOperator(in);
  }

  NegateOperator(Operator in) {
    super("negate", in.schema, in);
  }

  @Override
  void step() {
    Delta in = inputs[0];
    examined += in.size;
    for (int i = 0; i < in.size; i++) {
      emit(in.rows[i], -in.weights[i]);
    }
  }

  @Override
  long retained() {
    return 0;
  }
}
