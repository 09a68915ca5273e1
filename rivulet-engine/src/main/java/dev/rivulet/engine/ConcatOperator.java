package dev.rivulet.engine;

/**
 * The multiset sum of its inputs: {@code concat(A, B) = A + B} (SQL {@code UNION ALL}). Linear,
 * so it retains nothing. Inputs must have the same width and compatible column types; the output
 * takes the first input's names.
 */
final class ConcatOperator extends Operator {
  /** A new {@code ConcatOperator} as an {@link Operator} (see {@link Stream}: no operator class is loaded until a graph uses it). */
  static Operator of(Operator... ins) {
    return new ConcatOperator(ins);
  }

  ConcatOperator(Operator... ins) {
    super("concat", unify(ins), ins);
  }

  /** The first input's names; per column the widest type of all inputs, nullable. */
  private static Schema unify(Operator[] ins) {
    Schema first = ins[0].schema;
    ColumnType[] types = new ColumnType[first.width()];
    for (int c = 0; c < types.length; c++) {
      types[c] = first.column(c).type();
    }
    for (int i = 1; i < ins.length; i++) {
      Schema s = ins[i].schema;
      if (s.width() != first.width()) {
        throw new WiringException("concat of " + ins[0].name + " and " + ins[i].name + ": widths differ, "
            + first + " vs " + s);
      }
      for (int c = 0; c < s.width(); c++) {
        if (!first.column(c).type().comparableWith(s.column(c).type())) {
          throw new WiringException("concat of " + ins[0].name + " and " + ins[i].name + ": column " + c
              + " is " + first.column(c) + " vs " + s.column(c));
        }
        types[c] = wider(types[c], s.column(c).type());
      }
    }
    java.util.List<Column> cols = new java.util.ArrayList<>();
    for (int c = 0; c < types.length; c++) {
      cols.add(Column.of(first.column(c).name(), types[c]));
    }
    return Schema.of(cols);
  }

  private static ColumnType wider(ColumnType a, ColumnType b) {
    if (a == b) {
      return a;
    }
    if (a == ColumnType.ANY || b == ColumnType.ANY) {
      return ColumnType.ANY;
    }
    // Both numeric (checked by the caller): DECIMAL holds DOUBLE's values, DOUBLE holds INT's.
    return a == ColumnType.DECIMAL || b == ColumnType.DECIMAL ? ColumnType.DECIMAL : ColumnType.DOUBLE;
  }

  @Override
  void step() {
    for (Delta in : inputs) {
      examined += in.size;
      emitAll(in);
    }
  }

  @Override
  long retained() {
    return 0;
  }
}
