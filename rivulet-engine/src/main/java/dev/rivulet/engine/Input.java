package dev.rivulet.engine;

/**
 * Handle on a graph input. Changes sent here are checked and then queued for the next {@link
 * Graph#run}: each row against the input's schema, and each retraction against what the input
 * holds (every row sent so far, with the sum of its weights, queued changes included), since a
 * multiplicity below zero is a state no operator can hold. A change that fails a check is
 * rejected whole, at the call that sent it: nothing of it is queued, the input's contents are as
 * before, and the graph stays usable (the changes queued before it are kept).
 *
 * <p>Checks: a row that does not fit the schema throws a {@link SchemaException}; a retraction of
 * a row the input does not hold (or of more copies than it holds) throws a {@link
 * RivuletException} naming the input, the row and the copies held. A {@link ZSet} batch is
 * counted as a whole (a row it both inserts and retracts nets out); single-row calls are counted
 * in order.
 *
 * <p>Confined to the graph's owner thread.
 */
public final class Input {
  private final String name;
  private final InputOperator op;
  /** Rows {@link #sendAll} passed over (checked or made canonical), for tests. */
  long preparedRows;

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
    op.acceptAll(name, typed ? canonical(batch) : batch);
    return this;
  }

  private static ZSet canonical(ZSet batch) {
    ZSet.Builder b = ZSet.builder();
    for (int i = 0; i < batch.size(); i++) {
      b.add(batch.row(i).canonical(), batch.weight(i));
    }
    return b.build();
  }

  /**
   * Queues every entry of {@code batch}, whose rows the caller has already checked against
   * {@code checkedAgainst}. When that schema equals this input's, the rows are not checked again
   * (the query layer checks rows once, where they enter a collection); otherwise they are. Not
   * public: the query layer reaches it through {@link dev.rivulet.engine.internal.EngineAccess}.
   */
  Input send(ZSet batch, Schema checkedAgainst) {
    if (checkedAgainst != op.schema && !checkedAgainst.equals(op.schema)) {
      for (int i = 0; i < batch.size(); i++) {
        check(batch.row(i));
      }
    }
    op.acceptAllTrusted(batch);
    return this;
  }

  /**
   * Queues {@code rows[0..n)}, each inserted once, like {@code n} calls of {@link #send(Row, long,
   * Schema)} in order: a hydration's bulk path, no call per row. A typed row is replaced by its
   * canonical form in {@code rows} itself, and the array becomes the input's (when nothing else is
   * queued it is not copied): the caller does not use it after the call. With {@code canonical}
   * (the caller vouches that no row is typed: a collection's stored rows), rows that need no
   * check are queued without a pass over them.
   */
  Input sendAll(Row[] rows, int n, Schema checkedAgainst) {
    return sendAll(rows, n, checkedAgainst, false);
  }

  /** {@link #sendAll(Row[], int, Schema)}; see there for {@code canonical}. */
  Input sendAll(Row[] rows, int n, Schema checkedAgainst, boolean canonical) {
    boolean check = checkedAgainst != op.schema && !checkedAgainst.equals(op.schema);
    if (check || !canonical) {
      preparedRows += n;
      for (int from = 0; from < n; from += SortedBatch.CHUNK) { // in chunks: see SortedBatch
        prepare(rows, from, Math.min(n, from + SortedBatch.CHUNK), check);
      }
    }
    op.acceptAllTrusted(rows, n);
    return this;
  }

  private void prepare(Row[] rows, int from, int to, boolean check) {
    for (int i = from; i < to; i++) {
      if (check) {
        check(rows[i]);
      }
      if (rows[i].isTyped()) {
        rows[i] = rows[i].canonical();
      }
    }
  }

  /**
   * Queues {@code row} with {@code weight}; like {@link #send(ZSet, Schema)}, the row is checked
   * against the schema only when {@code checkedAgainst} is not this input's schema. These two
   * shortcuts are the query layer's, whose retractions always match what it sent: they are not
   * counted, and from the first one on the input keeps no contents (see {@link InputOperator}).
   */
  Input send(Row row, long weight, Schema checkedAgainst) {
    if (checkedAgainst != op.schema && !checkedAgainst.equals(op.schema)) {
      check(row);
    }
    op.acceptTrusted(row.canonical(), weight);
    return this;
  }

  /** Queues {@code row} (a typed row in its canonical form) with {@code weight}. */
  public Input send(Row row, long weight) {
    check(row);
    op.accept(name, row.canonical(), weight);
    return this;
  }

  public Input insert(Row row) {
    return send(row, 1);
  }

  public Input delete(Row row) {
    return send(row, -1);
  }

  /**
   * Queues the retraction of {@code before} and the insertion of {@code after}, or neither (when
   * either row does not fit, or the input does not hold {@code before}).
   */
  public Input update(Row before, Row after) {
    check(before);
    check(after);
    Row b = before.canonical();
    Row a = after.canonical();
    op.hold(name, b, -1);
    op.hold(name, a, 1);
    op.pending.add(b, -1);
    op.pending.add(a, 1);
    return this;
  }

  private void check(Row row) {
    if (row == null) {
      throw new SchemaException("input '" + name + "': the row is null");
    }
    try {
      op.schema.check(row);
    } catch (SchemaException e) {
      throw new SchemaException("input '" + name + "': " + e.getMessage());
    }
  }
}
