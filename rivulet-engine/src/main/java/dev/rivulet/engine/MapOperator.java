package dev.rivulet.engine;

import java.util.function.UnaryOperator;

/**
 * Applies a function to every row: {@code map(f)(A + B) = map(f)(A) + map(f)(B)}, weights kept.
 * Linear, so it retains nothing. Positions on the input (from a window) are kept, since a row-wise
 * function does not reorder. Each result is checked against the output schema.
 */
final class MapOperator extends Operator {
  private final UnaryOperator<Row> fn;

  MapOperator(Operator in, Schema out, UnaryOperator<Row> fn) {
    super("map", out, in);
    this.fn = fn;
  }

  @Override
  void step() {
    Delta in = inputs[0];
    examined += in.size;
    reserveOutput(in.size);
    for (int i = 0; i < in.size; i++) {
      Row out = fn.apply(in.rows[i]);
      try {
        schema.check(out);
      } catch (SchemaException e) {
        throw new SchemaException(name + ": " + e.getMessage());
      }
      if (in.positions != null) {
        emit(out, in.weights[i], in.positions[i]);
      } else {
        emit(out, in.weights[i]);
      }
    }
  }

  @Override
  long retained() {
    return 0;
  }
}
