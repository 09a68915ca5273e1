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
  final List<Integer> targetPorts = new ArrayList<>(2);
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

  final void emit(Row row, long weight) {
    for (int i = 0, n = targets.size(); i < n; i++) {
      targets.get(i).inputs[targetPorts.get(i)].add(row, weight);
    }
  }

  final void emit(Row row, long weight, int position) {
    for (int i = 0, n = targets.size(); i < n; i++) {
      targets.get(i).inputs[targetPorts.get(i)].add(row, weight, position);
    }
  }

  final void emitAll(Delta d) {
    reserveOutput(d.size);
    for (int i = 0; i < d.size; i++) {
      emit(d.rows[i], d.weights[i]);
    }
  }

  /** Makes room for {@code n} more entries in every target's input (a run of known size). */
  final void reserveOutput(int n) {
    for (int i = 0, k = targets.size(); i < k; i++) {
      targets.get(i).inputs[targetPorts.get(i)].reserve(n);
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
