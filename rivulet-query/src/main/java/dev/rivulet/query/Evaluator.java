package dev.rivulet.query;

import dev.rivulet.engine.Row;

/**
 * A compiled scalar expression: computes one canonical value (see {@code Values}) from a row, or
 * {@code null} for SQL NULL. Built once by {@link ExprCompiler} with the column positions already
 * resolved; evaluating it does no name lookup. Stateless and thread-safe unless said otherwise.
 */
@FunctionalInterface
interface Evaluator {
  Object eval(Row row);

  /** A row function whose i-th value is {@code columns[i]} evaluated on the input row. */
  static java.util.function.UnaryOperator<Row> rowOf(Evaluator[] columns) {
    return row -> {
      Object[] vals = new Object[columns.length];
      for (int i = 0; i < columns.length; i++) {
        vals[i] = columns[i].eval(row);
      }
      return Row.of(vals);
    };
  }
}
