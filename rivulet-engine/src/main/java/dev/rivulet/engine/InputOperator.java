package dev.rivulet.engine;

/** A named graph input: forwards the batch sent to it since the last run. Retains nothing. */
final class InputOperator extends Operator {
  final Delta pending = new Delta();

  InputOperator(Schema schema) {
    super("input", schema);
  }

  @Override
  boolean hasPending() {
    return !pending.isEmpty();
  }

  @Override
  void step() {
    examined += pending.size;
    emitAll(pending);
  }

  @Override
  void clearInputs() {
    pending.clear();
  }

  @Override
  long retained() {
    return 0;
  }
}
