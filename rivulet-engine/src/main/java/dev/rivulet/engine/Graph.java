package dev.rivulet.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * A built dataflow graph. Changes are sent to named {@link Input}s; {@link #run} processes every
 * operator in topological order until none has pending input, so the whole batch sent since the
 * last run is one transaction; each {@link Output} then holds that run's consolidated change.
 *
 * <p>Confined to one owner thread: a graph is not thread-safe, and callers that share one must
 * serialize access (the query layer does so with a single-writer queue).
 *
 * <p>Bad input never fails a graph: a row that does not fit its input's schema, and a retraction
 * of a row the input does not hold, are rejected by {@link Input} at the call that sends them,
 * before anything of that change is queued; the graph, its state and the changes queued before
 * stay as they were, and later runs work. Only a failure inside a run does: if an operator fails
 * (an exception from a user function, or an {@link InvariantViolation} that wiring such as {@link
 * Stream#negate} can provoke), the operators' state may hold part of that transaction, so the
 * graph is marked failed and every later call to {@link #run} throws with the original cause;
 * rebuild the graph to continue.
 */
public final class Graph {
  static {
    Internals.install(); // the query layer's shortcuts (see EngineAccess)
  }

  private final List<Operator> order;
  private final Map<String, InputOperator> inputs;
  private final Map<String, OutputSink> outputs;
  private final OutputSink[] sinks; // the outputs' values, iterated by every run without an iterator
  private final Operator[] steps; // order, as an array
  // Bit i: steps[i] may have pending input (set as entries arrive in its buffers, cleared as a run
  // reaches it), so a run looks only at the operators a change reaches, not at all of them.
  private final long[] pending;
  /** Operators a run looked at (for tests). */
  long visited;
  /** Whether runs look at every operator, as before pending bits (tests compare). */
  boolean visitAll;
  private boolean started;
  private RuntimeException failure;
  private long runs;

  Graph(List<Operator> order, Map<String, InputOperator> inputs, Map<String, OutputSink> outputs) {
    this.order = order;
    this.inputs = inputs;
    this.outputs = outputs;
    this.sinks = outputs.values().toArray(new OutputSink[0]);
    this.steps = order.toArray(new Operator[0]);
    this.pending = new long[(steps.length + 63) >>> 6];
    for (int i = 0; i < order.size(); i++) {
      order.get(i).index = i;
      steps[i].feedsFrom(pending, i);
    }
  }

  public static GraphBuilder builder() {
    return new GraphBuilder();
  }

  /** The input named {@code name}. */
  public Input input(String name) {
    InputOperator op = inputs.get(name);
    if (op == null) {
      throw new WiringException("unknown input '" + name + "'; inputs: " + inputs.keySet());
    }
    return new Input(name, op);
  }

  /** The output named {@code name}. */
  public Output output(String name) {
    OutputSink sink = outputs.get(name);
    if (sink == null) {
      throw new WiringException("unknown output '" + name + "'; outputs: " + outputs.keySet());
    }
    return new Output(name, sink);
  }

  /**
   * Runs the graph to quiescence over everything sent since the last run. Outputs are cleared at
   * the start and hold this run's change afterwards.
   *
   * @throws InvariantViolation when an operator's law is broken; the graph is then failed
   */
  public void run() {
    if (failure != null) {
      throw new IllegalStateException("the graph failed in an earlier run and cannot continue", failure);
    }
    try {
      for (OutputSink s : sinks) {
        s.beginRun();
      }
      if (!started) {
        started = true;
        for (Operator op : order) {
          op.start();
        }
      }
      if (visitAll) {
        Arrays.fill(pending, 0);
        for (Operator op : steps) {
          step(op);
        }
      } else {
        // in topological order: a step sets only later operators' bits, met later in this scan
        for (int w = 0; w < pending.length; w++) {
          for (long m = pending[w]; m != 0; m = pending[w]) {
            pending[w] = m & (m - 1);
            step(steps[(w << 6) + Long.numberOfTrailingZeros(m)]);
          }
        }
      }
      for (OutputSink s : sinks) {
        s.endRun();
      }
      runs++;
    } catch (RuntimeException e) {
      failure = e;
      throw e;
    }
  }

  private void step(Operator op) {
    visited++;
    if (op.hasPending()) {
      op.prepareInputs();
      op.step();
      op.clearInputs();
    }
  }

  /** The operators in topological order (for tests). */
  List<Operator> operators() {
    return Collections.unmodifiableList(order);
  }

  /** Number of completed runs. */
  public long runs() {
    return runs;
  }

  /** Counters of every operator, in topological order. */
  public List<OperatorStats> stats() {
    List<OperatorStats> out = new ArrayList<>(order.size());
    for (Operator op : order) {
      out.add(op.stats());
    }
    return Collections.unmodifiableList(out);
  }

  /** Sum of the examined counters of all operators. */
  public long examined() {
    long n = 0;
    for (Operator op : order) {
      n += op.examined;
    }
    return n;
  }

  /** Sum of the retained counters of all operators. */
  public long retained() {
    long n = 0;
    for (Operator op : order) {
      n += op.retained();
    }
    return n;
  }

  /** Resets every operator's examined counter to zero. */
  public void resetCounters() {
    for (Operator op : order) {
      op.examined = 0;
    }
  }
}
