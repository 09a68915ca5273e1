package dev.rivulet.engine;

/**
 * Sums the weights of equal rows within one run and drops zero sums: the output is the same
 * Z-set as the input, in its smallest form. Retains nothing between runs.
 */
final class ConsolidateOperator extends Operator {
  /** A new {@code ConsolidateOperator} as an {@link Operator} (see {@link Stream}: no operator class is loaded until a graph uses it). */
  static Operator of(Operator in) {
    return new ConsolidateOperator(in);
  }

  ConsolidateOperator(Operator in) {
    super("consolidate", in.schema, in);
  }

  @Override
  void step() {
    Delta in = inputs[0];
    examined += in.size;
    emitAll(in.consolidate());
  }

  @Override
  long retained() {
    return 0;
  }
}
