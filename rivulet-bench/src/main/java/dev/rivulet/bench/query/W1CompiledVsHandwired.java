package dev.rivulet.bench.query;

import dev.rivulet.bench.Report;

import dev.rivulet.bench.Latencies;

import dev.rivulet.bench.peers.PeerData;
import dev.rivulet.engine.Graph;
import dev.rivulet.engine.GraphBuilder;
import dev.rivulet.engine.Input;
import dev.rivulet.engine.Output;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.SortKey;
import dev.rivulet.engine.Schema;
import dev.rivulet.engine.ZSet;
import dev.rivulet.query.Query;
import dev.rivulet.query.Source;
import java.util.ArrayList;
import java.util.List;

/**
 * W1 compiled by the query layer against W1 wired by hand on the engine, on the same data and the
 * same updates, in one JVM run:
 *
 * <pre>
 * SELECT * FROM issues WHERE status = 'open' ORDER BY priority DESC, created ASC LIMIT 50
 * </pre>
 *
 * <p>Hand-wired: the engine issue's W1 graph ({@code input -> filter status = 'open' ->
 * topK(priority desc, created asc, 0, 50) -> output}, as {@code dev.rivulet.bench.W1TopOpen}
 * wires it), over this package's issue rows. Compiled: the {@link W1TopOpenQuery} live query. The
 * query layer does not expose a live query's engine graph publicly ({@code LiveQuery}'s graph is
 * private and the planner package-private), so the compiled side is timed end to end, as a user
 * sees it: one committed sync batch of one row ({@code SourceCollection} map update, graph run,
 * result map and window install). The hand-wired side is timed doing the equivalent work for a
 * current window: {@code input.update(before, after)}, {@code graph.run()}, {@code
 * output.delta()} and {@code delta.spliceInto(window)} (figure {@code handwired_update_*}); its
 * engine part alone (without the splice) is {@code handwired_engine_update_*}.
 *
 * <p>A third side isolates the compiler: the same query compiled by {@link Query#compile} into a
 * bare engine graph (no collections, no live-query state) and driven exactly like the hand-wired
 * graph ({@code compiled_graph_update_*}, ratio {@code compiled_graph_vs_handwired_p50_ratio}).
 * That ratio is the issue's "compiled pipeline vs hand-wired graph"; the end-to-end ratio adds
 * the collection layer's keyed state on top.
 *
 * <p>All sides run in lock-step on the peers' W1 streams (random, then edge), alternating which side
 * goes first per update, so machine noise falls on both alike. The ratio printed is {@code
 * compiled_vs_handwired_p50_ratio} = compiled p50 / hand-wired p50 per mix (target at most 1.5).
 * Both results are checked against the naive window after hydration and after each mix.
 */
final class W1CompiledVsHandwired {
  static final String NAME = W1TopOpenQuery.NAME;
  static final double TARGET = 1.5;

  private W1CompiledVsHandwired() {}

  static Graph graph() {
    GraphBuilder b = Graph.builder();
    b.output("top", b.input("issues", Tables.ISSUES)
        .filter(r -> PeerData.OPEN.equals(r.get(Tables.STATUS)))
        .topK(List.of(SortKey.desc("priority"), SortKey.asc("created")), 0, PeerData.LIMIT));
    return b.build();
  }

  /** The W1 query compiled into a bare engine graph with one input, "issues". */
  static Graph compiledGraph() {
    Source issues = new Source() {
      @Override
      public String name() {
        return "issues";
      }

      @Override
      public Schema schema() {
        return Tables.ISSUES;
      }

      @Override
      public List<String> keyColumns() {
        return List.of("id");
      }
    };
    GraphBuilder b = Graph.builder();
    b.output("top", W1TopOpenQuery.over(issues).compile(b, s -> b.input("issues", s.schema())));
    return b.build();
  }

  /** An engine graph after its first run over all rows, and its window. */
  record Handwired(Graph graph, Input input, Output output, List<Row> window, long nanos) {}

  static Handwired hydrate(Row[] rows) {
    return hydrate(rows, graph());
  }

  static Handwired hydrate(Row[] rows, Graph g) {
    long t0 = System.nanoTime();
    Input in = g.input("issues");
    Output out = g.output("top");
    for (Row r : rows) {
      in.insert(r);
    }
    g.run();
    List<Row> window = new ArrayList<>(PeerData.LIMIT + 1);
    out.delta().spliceInto(window);
    return new Handwired(g, in, out, window, System.nanoTime() - t0);
  }

  /** All sides, built from the same rows. */
  record Pair(Tables.Db compiled, Handwired handwired, Handwired compiledGraph) {}

  static Pair build(Tables.Data data) {
    System.gc();
    Handwired h = hydrate(data.issueRows());
    System.gc();
    Handwired cg = hydrate(data.issueRows(), compiledGraph());
    System.gc();
    Tables.Db db = Tables.open(new W1TopOpenQuery(), data);
    return new Pair(db, h, cg);
  }

  /**
   * One update on both sides; {@code times} gets the latencies: compiled, hand-wired engine part,
   * hand-wired with the splice.
   */
  private static void step(Pair p, Row before, Row after, boolean compiledFirst, long[] times) {
    long[] graphTimes = new long[3];
    if (compiledFirst) {
      times[0] = compiled(p.compiled(), after);
      handwired(p.compiledGraph(), before, after, graphTimes);
      handwired(p.handwired(), before, after, times);
    } else {
      handwired(p.handwired(), before, after, times);
      handwired(p.compiledGraph(), before, after, graphTimes);
      times[0] = compiled(p.compiled(), after);
    }
    times[3] = graphTimes[2];
  }

  private static long compiled(Tables.Db db, Row after) {
    long t0 = System.nanoTime();
    db.write(after);
    return System.nanoTime() - t0;
  }

  private static void handwired(Handwired h, Row before, Row after, long[] times) {
    long t0 = System.nanoTime();
    h.input().update(before, after);
    h.graph().run();
    ZSet d = h.output().delta();
    long t1 = System.nanoTime();
    d.spliceInto(h.window());
    long t2 = System.nanoTime();
    times[1] = t1 - t0;
    times[2] = t2 - t0;
  }

  static void run(int rows, Config cfg, Report out) {
    Tables.Data data = Tables.Data.generate(rows, cfg.seed());
    QueryWorkload w = new W1TopOpenQuery();
    Pair warm = cfg.prewarm() > 0 ? build(data) : null;
    if (warm != null) {
      PeerData.Issue[] copy = data.issues().clone();
      Row[] copyRows = data.issueRows().clone();
      long[] times = new long[4];
      int per = Math.max(1, cfg.prewarm() / w.mixes().size());
      for (String mix : w.mixes()) {
        PeerData.Updates s = PeerData.updates(NAME, mix, copy, cfg.seed() + Config.PREWARM_SEED_OFFSET);
        for (int i = 0; i < per; i++) {
          PeerData.Issue after = s.next();
          Row a = Tables.row(after);
          step(warm, copyRows[after.id()], a, (i & 1) == 0, times);
          copyRows[after.id()] = a;
          s.applied(after);
        }
      }
    }
    warm = null; // let the warm-up builds go before the measured ones are made
    Pair p = build(data);
    out.figure(NAME, rows, null, "handwired_hydrate_ms", p.handwired().nanos() / 1e6,
        "hand-wired graph: insert every row, run, splice the window");
    out.figure(NAME, rows, null, "compiled_query_ms", p.compiled().queryMs(),
        "live query created over loaded collections until ready");
    out.figure(NAME, rows, null, "compiled_vs_handwired_hydrate_ratio",
        p.compiled().queryMs() / (p.handwired().nanos() / 1e6), "compiled_query_ms / handwired_hydrate_ms");

    PeerData.Issue[] cur = data.issues().clone();
    Row[] curRows = data.issueRows().clone();
    String problem = check(w, p, cur, data, "after hydration");
    long[] times = new long[4];
    for (String mix : w.mixes()) {
      if (problem != null) {
        break;
      }
      PeerData.Updates stream = PeerData.updates(NAME, mix, cur, cfg.seed());
      Latencies compiled = new Latencies(cfg.updates());
      Latencies engine = new Latencies(cfg.updates());
      Latencies handwired = new Latencies(cfg.updates());
      Latencies compiledGraph = new Latencies(cfg.updates());
      System.gc();
      for (int i = 0, n = cfg.warmup() + cfg.updates(); i < n; i++) {
        PeerData.Issue after = stream.next();
        Row a = Tables.row(after);
        step(p, curRows[after.id()], a, (i & 1) == 0, times);
        curRows[after.id()] = a;
        stream.applied(after);
        if (i >= cfg.warmup()) {
          compiled.record(times[0]);
          engine.record(times[1]);
          handwired.record(times[2]);
          compiledGraph.record(times[3]);
        }
      }
      Harness.report(out, NAME, rows, mix, "compiled_", compiled);
      Harness.report(out, NAME, rows, mix, "handwired_", handwired);
      Harness.report(out, NAME, rows, mix, "handwired_engine_", engine);
      Harness.report(out, NAME, rows, mix, "compiled_graph_", compiledGraph);
      double graphRatio = compiledGraph.quantileMicros(0.5) / handwired.quantileMicros(0.5);
      out.figure(NAME, rows, mix, "compiled_graph_vs_handwired_p50_ratio", graphRatio,
          String.format(java.util.Locale.ROOT,
              "compiled engine graph %.3f us vs hand-wired %.3f us, both update+run+delta+splice; target <= %.1f: %s",
              compiledGraph.quantileMicros(0.5), handwired.quantileMicros(0.5), TARGET,
              graphRatio <= TARGET ? "met" : "missed"));
      double ratio = compiled.quantileMicros(0.5) / handwired.quantileMicros(0.5);
      out.figure(NAME, rows, mix, "compiled_vs_handwired_p50_ratio", ratio,
          String.format(java.util.Locale.ROOT,
              "LiveQuery end to end (sync batch commit) %.3f us vs hand-wired update+run+delta+splice %.3f us"
                  + " (engine part %.3f us); target <= %.1f: %s",
              compiled.quantileMicros(0.5), handwired.quantileMicros(0.5), engine.quantileMicros(0.5), TARGET,
              ratio <= TARGET ? "met" : "missed"));
      out.figure(NAME, rows, mix, "compiled_vs_handwired_engine_p50_ratio",
          compiled.quantileMicros(0.5) / engine.quantileMicros(0.5));
      out.figure(NAME, rows, mix, "compiled_vs_handwired_p99_ratio",
          compiled.quantileMicros(0.99) / handwired.quantileMicros(0.99));
      problem = check(w, p, cur, data, "after the " + mix + " mix");
    }
    out.correct(NAME, rows, problem == null,
        "compiled-vs-hand-wired run" + (problem == null ? "" : ": " + problem));
  }

  private static String check(QueryWorkload w, Pair p, PeerData.Issue[] cur, Tables.Data data, String when) {
    String c = w.check(p.compiled().query().rows(), cur, data, "compiled, " + when);
    if (c == null) {
      c = w.check(p.compiledGraph().window(), cur, data, "compiled graph, " + when);
    }
    return c != null ? c : w.check(p.handwired().window(), cur, data, "hand-wired, " + when);
  }
}
