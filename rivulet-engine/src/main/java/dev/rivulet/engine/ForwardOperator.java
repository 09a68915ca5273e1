package dev.rivulet.engine;

/**
 * A stream declared before its source exists ({@link GraphBuilder#forward}); bound later with
 * {@link GraphBuilder#bind}. Passes its input through unchanged. An unbound forward, or one bound
 * so that the graph has a cycle, is rejected by {@link GraphBuilder#build}.
 */
final class ForwardOperator extends Operator {
  /** A new {@code ForwardOperator} as an {@link Operator} (see {@link Stream}: no operator class is loaded until a graph uses it). */
  static Operator of(Schema schema) {
    return new ForwardOperator(schema);
  }

  ForwardOperator(Schema schema) {
    super("forward", schema, new Operator[1]);
  }

  @Override
  void step() {
    Delta in = inputs[0];
    examined += in.size;
    handOff(in);
  }

  @Override
  long retained() {
    return 0;
  }
}
