package dev.rivulet.engine;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Wires operators into a graph. Streams come from {@link #input} and {@link #forward}; operators
 * are added through {@link Stream}'s methods; {@link #output} names a result. {@link #build}
 * checks the wiring and returns a runnable {@link Graph}. A builder builds one graph; it is not
 * thread-safe.
 */
public final class GraphBuilder {
  final List<Operator> operators = new ArrayList<>();
  final Map<String, InputOperator> inputs = new LinkedHashMap<>();
  final Map<String, OutputSink> outputs = new LinkedHashMap<>();
  private final Map<String, Integer> kindCounts = new LinkedHashMap<>();
  private boolean built;

  GraphBuilder() {}

  /** A named input of rows of {@code schema}. */
  public Stream input(String name, Schema schema) {
    checkOpen();
    if (inputs.containsKey(name)) {
      throw new WiringException("input '" + name + "' is declared twice");
    }
    InputOperator op = add(new InputOperator(schema), "input:" + name);
    inputs.put(name, op);
    return new Stream(this, op);
  }

  /**
   * A stream whose source is bound later with {@link #bind}. Lets a caller refer to a stream
   * before it exists; an unbound forward or a cycle through one fails {@link #build}.
   */
  public Stream forward(String name, Schema schema) {
    checkOpen();
    return new Stream(this, add(ForwardOperator.of(schema), "forward:" + name));
  }

  /** Binds a stream made by {@link #forward} to its source. */
  public void bind(Stream forward, Stream source) {
    checkOpen();
    // through the Operator type: a use of the ForwardOperator type here would have the verifier
    // load that class for every graph, forwards or not
    Operator f = forward.op;
    if (!(f instanceof ForwardOperator)) {
      throw new WiringException("bind: " + f.name + " is not a forward stream");
    }
    if (f.upstream[0] != null) {
      throw new WiringException("bind: " + f.name + " is already bound to " + f.upstream[0].name);
    }
    if (!f.schema.equals(source.op.schema)) {
      throw new WiringException("bind: " + f.name + " has schema " + f.schema + " but "
          + source.op.name + " produces " + source.op.schema);
    }
    f.upstream[0] = source.op;
    source.op.connect(f, 0);
  }

  /** Names {@code stream} as output {@code name}; read its change after each run. */
  public void output(String name, Stream stream) {
    checkOpen();
    if (outputs.containsKey(name)) {
      throw new WiringException("output '" + name + "' is declared twice");
    }
    outputs.put(name, add(new OutputSink(stream.op), "output:" + name));
  }

  /**
   * Names {@code stream} as output {@code name}, for a consumer that installs its rows by a key
   * they hold and rejects two rows of one key: a run's change that only inserts (every weight
   * positive) is then given as emitted, not consolidated, so it may hold an equal row twice (as
   * two entries rather than one of weight 2). Any other change is consolidated as by {@link
   * #output}.
   */
  public void keyedOutput(String name, Stream stream) {
    checkOpen();
    if (outputs.containsKey(name)) {
      throw new WiringException("output '" + name + "' is declared twice");
    }
    outputs.put(name, add(new OutputSink(stream.op, true), "output:" + name));
  }

  /**
   * Checks the wiring and returns the graph.
   *
   * @throws WiringException naming the operator, for an unbound forward stream or a cycle
   */
  public Graph build() {
    checkOpen();
    for (Operator op : operators) {
      for (Operator up : op.upstream) {
        // only a forward stream is made before its source (no instanceof: a graph without one
        // then loads no ForwardOperator class)
        if (up == null) {
          throw new WiringException("forward stream " + op.name + " is never bound to a source");
        }
      }
    }
    if (outputs.isEmpty()) {
      throw new WiringException("the graph has no output");
    }
    built = true;
    return new Graph(topologicalOrder(), inputs, outputs);
  }

  private List<Operator> topologicalOrder() {
    Map<Operator, Integer> indegree = new LinkedHashMap<>();
    for (Operator op : operators) {
      indegree.put(op, op.upstream.length);
    }
    // Plain loops, no lambdas: building runs once per live query, often in a fresh JVM, where
    // each lambda's first use costs a class spun at run time.
    ArrayDeque<Operator> ready = new ArrayDeque<>();
    for (Operator op : operators) {
      if (op.upstream.length == 0) {
        ready.add(op);
      }
    }
    List<Operator> order = new ArrayList<>(operators.size());
    while (!ready.isEmpty()) {
      Operator op = ready.poll();
      order.add(op);
      for (Operator t : op.targets) {
        int left = indegree.get(t) - 1;
        indegree.put(t, left);
        if (left == 0) {
          ready.add(t);
        }
      }
    }
    if (order.size() < operators.size()) {
      List<String> cycle = new ArrayList<>();
      indegree.forEach((op, d) -> {
        if (d > 0) {
          cycle.add(op.name);
        }
      });
      throw new WiringException("the graph has a cycle through " + String.join(", ", cycle));
    }
    return order;
  }

  <T extends Operator> T add(T op, String label) {
    checkOpen();
    int n = kindCounts.getOrDefault(op.kind, 0) + 1;
    kindCounts.put(op.kind, n);
    op.name = label != null ? label : op.kind + "#" + n;
    operators.add(op);
    for (int port = 0; port < op.upstream.length; port++) {
      if (op.upstream[port] != null) {
        op.upstream[port].connect(op, port);
      }
    }
    return op;
  }

  void checkOwns(Stream s) {
    if (s.builder != this) {
      throw new WiringException(s.op.name + " belongs to another graph builder");
    }
  }

  private void checkOpen() {
    if (built) {
      throw new WiringException("this builder has already built its graph");
    }
  }
}
