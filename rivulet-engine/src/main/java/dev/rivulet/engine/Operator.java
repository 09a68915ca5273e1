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

  /** Called once, in topological order, before the first run's steps. */
  void start() {}

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
   * {@link #emitAll}, then {@code d} is left empty; to a sole target a hydration-sized {@code d} is
   * moved, not copied ({@link Delta#takeAll}).
   */
  final void emitAllTaking(Delta d) {
    if (outs.length == 1) {
      outs[0].takeAll(d);
    } else {
      emitAll(d);
      d.clear();
    }
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
