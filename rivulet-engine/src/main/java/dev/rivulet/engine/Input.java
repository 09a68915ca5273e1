package dev.rivulet.engine;

/**
 * Handle on a graph input. Changes sent here are checked against the input's schema and then
 * queued for the next {@link Graph#run}. A batch that fails the check is rejected whole: nothing
 * of it is queued. Confined to the graph's owner thread.
 */
public final class Input {
  private final String name;
  private final InputOperator op;

  Input(String name, InputOperator op) {
    this.name = name;
    this.op = op;
  }

  public String name() {
    return name;
  }

  public Schema schema() {
    return op.schema;
  }

  /** Queues every entry of {@code batch} (typed rows, see {@link Row}, in their canonical form). */
  public Input send(ZSet batch) {
    boolean typed = false;
    for (int i = 0; i < batch.size(); i++) {
      check(batch.row(i));
      typed |= batch.row(i).isTyped();
    }
    if (!typed) {
      op.pending.addAll(batch);
      return this;
    }
    for (int i = 0; i < batch.size(); i++) {
      op.pending.add(batch.row(i).canonical(), batch.weight(i));
    }
    return this;
  }

  /**
   * Queues every entry of {@code batch}, whose rows the caller has already checked against
   * {@code checkedAgainst}. When that schema equals this input's, the rows are not checked again
   * (the query layer checks rows once, where they enter a collection); otherwise they are.
   */
  public Input send(ZSet batch, Schema checkedAgainst) {
    if (checkedAgainst != op.schema && !checkedAgainst.equals(op.schema)) {
      return send(batch);
    }
    op.pending.addAll(batch);
    return this;
  }

  /**
   * Queues {@code row} with {@code weight}; like {@link #send(ZSet, Schema)}, the row is checked
   * only when {@code checkedAgainst} is not this input's schema.
   */
  public Input send(Row row, long weight, Schema checkedAgainst) {
    if (checkedAgainst != op.schema && !checkedAgainst.equals(op.schema)) {
      check(row);
    }
    op.pending.add(row.canonical(), weight);
    return this;
  }

  /** Queues {@code row} (a typed row in its canonical form) with {@code weight}. */
  public Input send(Row row, long weight) {
    check(row);
    op.pending.add(row.canonical(), weight);
    return this;
  }

  public Input insert(Row row) {
    return send(row, 1);
  }

  public Input delete(Row row) {
    return send(row, -1);
  }

  /** Queues the retraction of {@code before} and the insertion of {@code after}. */
  public Input update(Row before, Row after) {
    check(before);
    check(after);
    op.pending.add(before.canonical(), -1);
    op.pending.add(after.canonical(), 1);
    return this;
  }

  private void check(Row row) {
    try {
      op.schema.check(row);
    } catch (SchemaException e) {
      throw new SchemaException("input '" + name + "': " + e.getMessage());
    }
  }
}
