package dev.rivulet.testkit;

import dev.rivulet.engine.Graph;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.engine.SchemaException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One delivery of a history to a fresh graph: each step is sent and run, each output's change is
 * folded into a {@link FoldedOutput}, and the folded states are compared with the oracle after
 * every run. Stops at the first divergence.
 */
final class TraceRun {
  /** A history the runner cannot deliver: an unknown input or a row that does not fit its schema. */
  static final class RejectedHistory extends IllegalArgumentException {
    RejectedHistory(String message) {
      super(message);
    }
  }

  /** The first divergence (or null) and the folded outputs as they stood at the end. */
  record Outcome(Divergence divergence, Map<String, FoldedOutput> outputs) {}

  private TraceRun() {}

  static Outcome run(OracleRunner runner, History history, String delivery) {
    Graph graph = runner.graphFactory().get();
    Map<String, FoldedOutput> folded = new LinkedHashMap<>();
    for (OracleRunner.OutputSpec spec : runner.outputs()) {
      int[] partitions = spec.positioned()
          ? graph.output(spec.name()).schema().indexesOf(spec.partitionBy())
          : null;
      folded.put(spec.name(), new FoldedOutput(spec.name(), partitions));
    }
    Map<String, Map<Row, Long>> contents = new TreeMap<>();
    for (String input : runner.inputs().keySet()) {
      contents.put(input, new LinkedHashMap<>());
    }
    for (int s = 0; s < history.size(); s++) {
      History.Step step = history.step(s);
      for (History.Change c : step.changes()) {
        Schema schema = runner.inputs().get(c.input());
        if (schema == null) {
          throw new RejectedHistory("step " + s + ": unknown input '" + c.input() + "'; inputs: " + runner.inputs().keySet());
        }
        try {
          schema.check(c.row());
        } catch (SchemaException e) {
          throw new RejectedHistory("step " + s + ": input '" + c.input() + "': " + e.getMessage());
        }
        Map<Row, Long> in = contents.get(c.input());
        if (in.merge(c.row(), c.weight(), Long::sum) == 0) {
          in.remove(c.row());
        }
        graph.input(c.input()).send(c.row(), c.weight());
      }
      try {
        graph.run();
      } catch (RuntimeException e) {
        return new Outcome(new Divergence(s, "*", "exception", "", describe(e), "", delivery, history), folded);
      }
      Map<String, Map<Row, Long>> view = readOnly(contents);
      for (OracleRunner.OutputSpec spec : runner.outputs()) {
        FoldedOutput out = folded.get(spec.name());
        String problem;
        try {
          problem = out.fold(graph.output(spec.name()).delta());
        } catch (RuntimeException e) {
          problem = "reading the change threw " + describe(e);
        }
        if (problem != null) {
          return new Outcome(new Divergence(s, spec.name(), "delta", "", problem, "", delivery, history), folded);
        }
        Divergence d = compare(spec, out, view, s, delivery, history);
        if (d != null) {
          return new Outcome(d, folded);
        }
      }
      List<Row> state = new java.util.ArrayList<>();
      contents.values().forEach(m -> state.addAll(m.keySet()));
      RareKinds.TRACES.add(state);
    }
    return new Outcome(null, folded);
  }

  private static Divergence compare(OracleRunner.OutputSpec spec, FoldedOutput out, Map<String, Map<Row, Long>> in,
      int step, String delivery, History history) {
    if (!spec.positioned()) {
      Map<Row, Long> expected = Naive.consolidate(new LinkedHashMap<>(spec.multiset().apply(in)));
      if (!expected.equals(out.multiset)) {
        return new Divergence(step, spec.name(), "multiset", Render.multiset(expected), Render.multiset(out.multiset),
            Render.multisetDiff(expected, out.multiset), delivery, history);
      }
      return null;
    }
    Map<Row, List<Row>> expected = new LinkedHashMap<>(spec.windows().apply(in));
    expected.values().removeIf(List::isEmpty);
    if (!expected.equals(out.windows)) {
      return new Divergence(step, spec.name(), "window", Render.windows(expected), Render.windows(out.windows),
          Render.windowsDiff(expected, out.windows), delivery, history);
    }
    Map<Row, Long> rows = Naive.multiset(expected);
    if (!rows.equals(out.multiset)) {
      return new Divergence(step, spec.name(), "multiset", Render.multiset(rows), Render.multiset(out.multiset),
          Render.multisetDiff(rows, out.multiset), delivery, history);
    }
    return null;
  }

  private static Map<String, Map<Row, Long>> readOnly(Map<String, Map<Row, Long>> contents) {
    Map<String, Map<Row, Long>> view = new TreeMap<>();
    contents.forEach((k, v) -> view.put(k, Collections.unmodifiableMap(new LinkedHashMap<>(v))));
    return Collections.unmodifiableMap(view);
  }

  /** The exception with its causes and first frames: enough to find the failing operator. */
  static String describe(Throwable e) {
    StringBuilder sb = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t != e) {
        sb.append("\n  caused by ");
      }
      sb.append(t);
      StackTraceElement[] frames = t.getStackTrace();
      for (int i = 0; i < Math.min(4, frames.length); i++) {
        sb.append("\n    at ").append(frames[i]);
      }
    }
    return sb.toString();
  }
}
