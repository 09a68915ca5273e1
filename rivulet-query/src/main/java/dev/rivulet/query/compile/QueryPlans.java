package dev.rivulet.query.compile;

import dev.rivulet.engine.Graph;
import dev.rivulet.engine.GraphBuilder;
import dev.rivulet.engine.Stream;
import dev.rivulet.query.QueryIR;
import dev.rivulet.query.Source;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/** Compiles a query onto a graph builder, one input per distinct source. */
public final class QueryPlans {
  private QueryPlans() {}

  /**
   * The compiled query; the sources it reads, in the order it first reads them, with the name of
   * the graph input created for each ({@code inputNames.get(i)} for {@code sources.get(i)}).
   */
  public record Plan(Compiled result, List<Source> sources, List<String> inputNames, List<FacadeEdge> facades,
      List<DemandEdge> demands, java.util.Set<Source> unhydrated) {}

  public static Plan plan(QueryIR ir, GraphBuilder graph) {
    return plan(ir, graph, null);
  }

  /** {@link #plan(QueryIR, GraphBuilder)} keyed by the visible columns {@code publicKey} (null: derived). */
  public static Plan plan(QueryIR ir, GraphBuilder graph, List<String> publicKey) {
    return plan(ir, graph, publicKey, s -> false);
  }

  /** {@link #plan(QueryIR, GraphBuilder, java.util.List)}, with the reads of {@code lazy} sources as demands. */
  public static Plan plan(QueryIR ir, GraphBuilder graph, List<String> publicKey,
      java.util.function.Predicate<Source> lazy) {
    return plan(ir, graph, publicKey, lazy, null);
  }

  /**
   * {@link #plan(QueryIR, GraphBuilder, java.util.List, java.util.function.Predicate)}, with the
   * rows of eager sources ({@code snapshots}, null: none) for includes' indexed semi-joins: the
   * plan's {@code unhydrated} sources are read by them alone, and their inputs must not be hydrated.
   */
  public static Plan plan(QueryIR ir, GraphBuilder graph, List<String> publicKey,
      java.util.function.Predicate<Source> lazy, java.util.function.Function<Source, dev.rivulet.engine.RowSource> snapshots) {
    Inputs inputs = new Inputs(graph);
    QueryCompiler compiler = new QueryCompiler(graph, inputs, lazy, snapshots);
    Compiled result = compiler.compile(ir, publicKey);
    return new Plan(result, List.copyOf(inputs.sources), List.copyOf(inputs.names), compiler.facades(),
        compiler.demands(), compiler.unhydratedSources());
  }

  /** One graph input per distinct source (by identity), named {@code source<i>:<name>} in order of first read. */
  private static final class Inputs implements java.util.function.Function<Source, Stream> {
    private final GraphBuilder graph;
    private final Map<Source, Stream> streams = new IdentityHashMap<>();
    private final List<Source> sources = new ArrayList<>();
    private final List<String> names = new ArrayList<>();

    Inputs(GraphBuilder graph) {
      this.graph = graph;
    }

    @Override
    public Stream apply(Source s) {
      Stream in = streams.get(s);
      if (in == null) {
        String name = "source" + names.size() + ":" + s.name();
        in = graph.input(name, s.schema());
        streams.put(s, in);
        sources.add(s);
        names.add(name);
      }
      return in;
    }
  }

  /** Compiles against a throwaway graph so that every check runs. */
  public static void check(QueryIR ir) {
    GraphBuilder g = Graph.builder();
    plan(ir, g);
  }
}
