package dev.rivulet.engine;

import java.util.function.Function;

/**
 * Replaces each row by the rows a function returns for it, each with the input row's weight:
 * linear, {@code flatMap(f)(A + B) = flatMap(f)(A) + flatMap(f)(B)}. Retains nothing. Each result
 * is checked against the output schema.
 */
final class FlatMapOperator extends Operator {
  private final Function<Row, ? extends Iterable<Row>> fn;

  /** A new {@code FlatMapOperator} as an {@link Operator} (see {@link Stream}: no operator class is loaded until a graph uses it). */
  static Operator of(Operator in, Schema out, Function<Row, ? extends Iterable<Row>> fn) {
    return new FlatMapOperator(in, out, fn);
  }

  FlatMapOperator(Operator in, Schema out, Function<Row, ? extends Iterable<Row>> fn) {
    super("flatMap", out, in);
    this.fn = fn;
  }

  @Override
  void step() {
    Delta in = inputs[0];
    examined += in.size;
    for (int i = 0; i < in.size; i++) {
      for (Row out : fn.apply(in.rows[i])) {
        try {
          schema.check(out);
        } catch (SchemaException e) {
          throw new SchemaException(name + ": " + e.getMessage());
        }
        emit(out, in.weights[i]);
      }
    }
  }

  @Override
  long retained() {
    return 0;
  }
}
