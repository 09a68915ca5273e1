package dev.rivulet.engine;

/**
 * The multiset sum of its inputs: {@code concat(A, B) = A + B} (SQL {@code UNION ALL}). Linear,
 * so it retains nothing. Inputs must have the same width and compatible column types; the output
 * takes the first input's names.
 */
final class ConcatOperator extends Operator {
  ConcatOperator(Operator... ins) {
    super("concat", unify(ins), ins);
  }

  private static Schema unify(Operator[] ins) {
    Schema first = ins[0].schema;
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
      }
    }
    return first.nullable();
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
