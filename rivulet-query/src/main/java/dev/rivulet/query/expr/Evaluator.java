package dev.rivulet.query.expr;

import dev.rivulet.engine.Row;

/**
 * A compiled scalar expression: computes one canonical value (see {@code Values}) from a row, or
 * {@code null} for SQL NULL. Built once by {@link ExprCompiler} with the column positions already
 * resolved; evaluating it does no name lookup. Stateless and thread-safe unless said otherwise.
 */
@FunctionalInterface
public interface Evaluator {
  Object eval(Row row);

  /** Reads the column at {@code index} of the input row. */
  record ColumnRef(int index) implements Evaluator {
    @Override
    public Object eval(Row row) {
      return row.get(index);
    }
  }

  /**
   * A row function whose i-th value is {@code columns[i]} evaluated on the input row; a list of
   * column references is a projection (the values are already canonical).
   */
  static java.util.function.UnaryOperator<Row> rowOf(Evaluator[] columns) {
    int[] indexes = new int[columns.length];
    for (int i = 0; i < columns.length; i++) {
      if (!(columns[i] instanceof ColumnRef c)) {
        indexes = null;
        break;
      }
      indexes[i] = c.index();
    }
    if (indexes != null) {
      return new Picking(indexes);
    }
    return row -> {
      Object[] vals = new Object[columns.length];
      for (int i = 0; i < columns.length; i++) {
        vals[i] = columns[i].eval(row);
      }
      return Row.of(vals);
    };
  }

  /**
   * A row of some of the input's columns, in the given order: a select list of plain columns. A
   * class, not a lambda: a fresh JVM links a lambda at a cost of about a millisecond, on the way
   * to a first query that projects.
   */
  final class Picking implements java.util.function.UnaryOperator<Row> {
    private final int[] columns;

    Picking(int[] columns) {
      this.columns = columns;
    }

    @Override
    public Row apply(Row row) {
      return row.project(columns);
    }
  }
}
