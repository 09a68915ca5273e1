package dev.rivulet.engine;

import java.util.function.UnaryOperator;

/**
 * Applies a function to every row: {@code map(f)(A + B) = map(f)(A) + map(f)(B)}, weights kept.
 * Linear, so it retains nothing. Positions on the input (from a window) are kept, since a row-wise
 * function does not reorder. Each result is checked against the output schema. Outside a window
 * map, a batch without positions is mapped in place, each result over its input row (the input
 * buffer is this operator's), and handed on whole with its weights (unit weights stay unallocated).
 *
 * <p>A window map ({@link Stream#mapWindow}) also drops the retraction and insertion of a row
 * whose result did not change and whose place among the window's other rows did not either (see
 * {@link UnchangedPairs}), as consolidating the mapped change would, while keeping positions.
 */
final class MapOperator extends Operator {
  private static final int CHUNK = 64;
  private final UnaryOperator<Row> fn;
  private final boolean window;
  private Row[] mapped = new Row[16];

  /** A new {@code MapOperator} as an {@link Operator} (see {@link Stream}: no operator class is loaded until a graph uses it). */
  static Operator of(Operator in, Schema out, UnaryOperator<Row> fn, boolean window) {
    return new MapOperator(in, out, fn, window);
  }

  MapOperator(Operator in, Schema out, UnaryOperator<Row> fn) {
    this(in, out, fn, false);
  }

  MapOperator(Operator in, Schema out, UnaryOperator<Row> fn, boolean window) {
    super(window ? "map-window" : "map", out, in);
    this.fn = fn;
    this.window = window;
  }

  @Override
  boolean readsUnitWeights() {
    return !window; // see step
  }

  @Override
  void step() {
    Delta in = inputs[0];
    examined += in.size;
    if (!window && in.positions == null) {
      // Each result is written over its input row and the batch handed on as it is (weights, or
      // unit weights, kept): no output arrays, no per-row emit.
      for (int from = 0; from < in.size; from += CHUNK) {
        applyInPlace(in.rows, from, Math.min(in.size, from + CHUNK));
      }
      handOff(in);
      return;
    }
    in.materialize();
    reserveOutput(in.size);
    if (window && in.positions != null && UnchangedPairs.mayHave(in.weights, in.size)) {
      stepWindow(in);
      return;
    }
    for (int i = 0; i < in.size; i++) {
      Row out = apply(in.rows[i]);
      if (in.positions != null) {
        emit(out, in.weights[i], in.positions[i]);
      } else {
        emit(out, in.weights[i]);
      }
    }
  }

  /** Maps a positioned change with retractions and insertions, then emits all but the unchanged pairs. */
  private void stepWindow(Delta in) {
    int n = in.size;
    if (mapped.length < n) {
      mapped = new Row[Math.max(n, mapped.length * 2)];
    }
    for (int i = 0; i < n; i++) {
      mapped[i] = apply(in.rows[i]);
    }
    boolean[] drop = UnchangedPairs.find(mapped, in.weights, in.positions, n);
    for (int i = 0; i < n; i++) {
      if (drop == null || !drop[i]) {
        emit(mapped[i], in.weights[i], in.positions[i]);
      }
      mapped[i] = null;
    }
  }

  /** Replaces {@code rows[from, to)} by their results (a chunk per call: a fresh JVM compiles it early). */
  private void applyInPlace(Row[] rows, int from, int to) {
    for (int i = from; i < to; i++) {
      rows[i] = apply(rows[i]);
    }
  }

  private Row apply(Row row) {
    Row out = fn.apply(row);
    try {
      schema.check(out);
    } catch (SchemaException e) {
      throw new SchemaException(name + ": " + e.getMessage());
    }
    return out;
  }

  @Override
  long retained() {
    return 0;
  }
}
