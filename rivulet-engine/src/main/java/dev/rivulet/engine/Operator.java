package dev.rivulet.engine;

import java.util.ArrayList;
import java.util.List;

/**
 * Base of every node in a graph: pending input buffers (one per port), the downstream targets it
 * emits to, and its work counters. A subclass consumes its inputs in {@link #step}, updates the
 * state it owns, and emits the change of its output relation.
 *
 * <p>Confined to the thread that runs the graph.
 */
abstract class Operator {
  final String kind;
  final Schema schema;
  final Operator[] upstream;
  final Delta[] inputs;
  final List<Operator> targets = new ArrayList<>(2);
  /** The input buffer of each target, at the port this operator feeds: where emits go. */
  private Delta[] outs = new Delta[0];
  String name;
  int index;
  long examined;
  /** Batches handed to the target without a copy (for tests). */
  long handOffs;

  Operator(String kind, Schema schema, Operator... upstream) {
    this.kind = kind;
    this.schema = schema;
    this.upstream = upstream;
    this.inputs = new Delta[upstream.length];
    for (int i = 0; i < upstream.length; i++) {
      inputs[i] = new Delta();
    }
  }

  /** Consumes every pending input and emits this operator's output change. */
  abstract void step();

  /** Rows (or entries) of retained state. */
  abstract long retained();

  /**
   * Whether {@link #step} handles inputs with unit weights ({@link Delta#unitWeights}) itself;
   * otherwise the run loop materializes them before it steps ({@link #prepareInputs}).
   */
  boolean readsUnitWeights() {
    return false;
  }

  /** Materializes the inputs' unit weights unless this operator reads them as they are. */
  final void prepareInputs() {
    if (!readsUnitWeights()) {
      for (Delta d : inputs) {
        d.materialize();
      }
    }
  }

  /** Called once, in topological order, before the first run's steps. */
  void start() {}

  /** Makes every buffer whose entries this operator steps set its bit {@code bit} of {@code bits} (see {@link Graph#run}). */
  void feedsFrom(long[] bits, int bit) {
    for (Delta d : inputs) {
      d.feeds(bits, bit);
    }
  }

  boolean hasPending() {
    for (Delta d : inputs) {
      if (!d.isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /** Wires {@code to}'s input {@code port} to this operator's output (while the graph is built). */
  final void connect(Operator to, int port) {
    targets.add(to);
    outs = java.util.Arrays.copyOf(outs, outs.length + 1);
    outs[outs.length - 1] = to.inputs[port];
  }

  final void emit(Row row, long weight) {
    for (Delta out : outs) {
      out.add(row, weight);
    }
  }

  final void emit(Row row, long weight, int position) {
    for (Delta out : outs) {
      out.add(row, weight, position);
    }
  }

  /** Emits every entry of {@code d} (its positions dropped), one array copy per target. */
  final void emitAll(Delta d) {
    for (Delta out : outs) {
      out.addAll(d);
    }
  }

  /**
   * Emits every entry of {@code d} (its positions dropped) like {@link #emitAll}, but when this
   * operator has one target and its input is empty, by handing {@code d}'s arrays over instead of
   * copying them ({@code d}, one of this operator's own buffers, is left empty).
   */
  final void handOff(Delta d) {
    if (canHandOff() && outs[0].takeOver(d)) {
      handOffs++;
      return;
    }
    emitAll(d);
  }

  /** Whether {@link #handOff} would hand its batch over: one target, whose input is empty. */
  final boolean canHandOff() {
    return outs.length == 1 && outs[0].isEmpty();
  }

  /** Makes room for {@code n} more entries in every target's input (a run of known size). */
  final void reserveOutput(int n) {
    for (Delta out : outs) {
      out.reserve(n);
    }
  }

  void clearInputs() {
    for (Delta d : inputs) {
      d.clear();
    }
  }

  OperatorStats stats() {
    return new OperatorStats(name, kind, retained(), examined);
  }

  @Override
  public String toString() {
    return name;
  }
}
