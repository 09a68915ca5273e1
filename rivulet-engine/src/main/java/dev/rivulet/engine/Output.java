package dev.rivulet.engine;

/**
 * Handle on a graph output: the change of the last {@link Graph#run}. The in-place readers of that
 * change ({@code deltaSize}, {@code deltaRow}, ...) are not public: the query layer reaches them
 * through {@link dev.rivulet.engine.internal.EngineAccess}.
 */
public final class Output {
  private final String name;
  private final OutputSink sink;

  Output(String name, OutputSink sink) {
    this.name = name;
    this.sink = sink;
  }

  public String name() {
    return name;
  }

  public Schema schema() {
    return sink.schema;
  }

  /**
   * The change of the last run: consolidated, or, when the output is an order/top-K window,
   * positioned as described in {@link ZSet}; an insert-only change of a keyed output ({@link
   * GraphBuilder#keyedOutput}) as emitted.
   */
  public ZSet delta() {
    return sink.delta();
  }

  /** Number of entries in the last change, without materializing it. */
  int deltaSize() {
    return sink.collected.size;
  }

  /**
   * Entry {@code i} of the last change, read in place (no copy is made; valid until the next
   * run), in the order and form {@link #delta()} gives.
   */
  Row deltaRow(int i) {
    return sink.collected.rows[checkIndex(i)];
  }

  /** The weight of entry {@code i} of the last change, read in place (see {@link #deltaRow}). */
  long deltaWeight(int i) {
    return sink.collected.weight(checkIndex(i));
  }

  /**
   * The rows of the last change, read in place (the array, valid until the next run; entries
   * {@code [0, deltaSize())}), when every entry weighs one and none is positioned (an insert-only
   * change, say a hydration's); null otherwise.
   */
  Row[] deltaInserts() {
    Delta d = sink.collected;
    if (d.positions != null) {
      return null;
    }
    for (int i = 0; !d.unitWeights() && i < d.size; i++) {
      if (d.weights[i] != 1) {
        return null;
      }
    }
    return d.rows;
  }

  /**
   * The position of entry {@code i} of a positioned change (see {@link ZSet#position}), read in
   * place; -1 when the output is not positioned.
   */
  int deltaPosition(int i) {
    Delta d = sink.collected;
    return d.positions == null ? -1 : d.positions[checkIndex(i)];
  }

  /**
   * Applies the last change, a positioned one, to {@code window} without materializing it (see
   * {@link ZSet#spliceInto}).
   */
  void spliceDeltaInto(java.util.List<Row> window) {
    Delta d = sink.collected;
    ZSet.splice(d.rows, d.weights, d.positions, d.size, window);
  }

  private int checkIndex(int i) {
    return java.util.Objects.checkIndex(i, sink.collected.size);
  }
}
