package dev.rivulet.bench;

import dev.rivulet.engine.Graph;
import dev.rivulet.engine.GraphBuilder;
import dev.rivulet.engine.Input;
import dev.rivulet.engine.Output;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.SortKey;
import dev.rivulet.engine.ZSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;

/**
 * W1, the open-issues window: the 50 most urgent open issues, kept current under single-row
 * priority updates.
 *
 * <pre>
 * SELECT * FROM issues
 * WHERE status = 'open'
 * ORDER BY priority DESC, created ASC
 * LIMIT 50 OFFSET 0
 * </pre>
 *
 * <p>Graph: {@code input issues -> filter status = 'open' -> topK(priority desc, created asc,
 * offset 0, limit 50) -> output top}. Figures: hydrate time (send every row, one run, read the
 * delta that holds the window) and per-update latency for two mixes: {@code random} (a random
 * row gets a new random priority) and {@code edge} (an open row at window position 0..149, i.e.
 * inside the window or within 100 positions of its edge, gets a new random priority, so the
 * window really moves; {@code window_changed_pct} says how often the window's contents changed).
 * Correctness: every delta is spliced into a list, which must equal a naive
 * top 50 recomputed from the driver's data after hydration and after each mix.
 */
final class W1TopOpen {
  static final String NAME = "W1";
  static final int LIMIT = 50;
  static final int EDGE_SPAN = 100;
  static final List<String> MIXES = List.of("random", "edge");

  /** The window's order, with the whole row as the final tie-break as the engine does. */
  static final Comparator<Row> ORDER = Comparator.<Row>comparingLong(r -> -r.getLong(Issues.PRIORITY))
      .thenComparingLong(r -> r.getLong(Issues.CREATED))
      .thenComparing(Comparator.naturalOrder());

  private W1TopOpen() {}

  static Graph graph() {
    GraphBuilder b = Graph.builder();
    b.output("top", b.input("issues", Issues.SCHEMA)
        .filter(Issues::isOpen)
        .topK(List.of(SortKey.desc("priority"), SortKey.asc("created")), 0, LIMIT));
    return b.build();
  }

  /** A graph after its first run over all rows, and the window folded from that run's delta. */
  record Hydrated(Graph graph, Input input, Output output, List<Row> window, long nanos) {}

  static Hydrated hydrate(Issues data) {
    Graph g = graph();
    Input in = g.input("issues");
    Output out = g.output("top");
    long t0 = System.nanoTime();
    for (Row r : data.rows) {
      in.insert(r);
    }
    g.run();
    ZSet delta = out.delta();
    long nanos = System.nanoTime() - t0;
    List<Row> window = new ArrayList<>(LIMIT + 1);
    delta.spliceInto(window);
    return new Hydrated(g, in, out, window, nanos);
  }

  /** A random row gets a new random priority. */
  static UpdateStream randomMix(Issues data, SplittableRandom rnd) {
    return () -> Issues.withNewPriority(data.rows[rnd.nextInt(data.size())], rnd);
  }

  /**
   * An open row at a random position in {@code [0, LIMIT + EDGE_SPAN)} of the open rows' order
   * gets a new random priority. The order is a sorted set kept by {@link UpdateStream#applied}.
   */
  static UpdateStream edgeMix(Issues data, SplittableRandom rnd) {
    TreeSet<Row> open = new TreeSet<>(ORDER);
    for (Row r : data.rows) {
      if (Issues.isOpen(r)) {
        open.add(r);
      }
    }
    return new UpdateStream() {
      @Override
      public Row next() {
        int k = rnd.nextInt(Math.min(LIMIT + EDGE_SPAN, open.size()));
        Iterator<Row> it = open.iterator();
        Row r = it.next();
        for (int i = 0; i < k; i++) {
          r = it.next();
        }
        return Issues.withNewPriority(r, rnd);
      }

      @Override
      public void applied(Row before, Row after) {
        if (Issues.isOpen(before)) {
          open.remove(before);
        }
        if (Issues.isOpen(after)) {
          open.add(after);
        }
      }
    };
  }

  static UpdateStream mix(String mix, Issues data, SplittableRandom rnd) {
    return switch (mix) {
      case "random" -> randomMix(data, rnd);
      case "edge" -> edgeMix(data, rnd);
      default -> throw new IllegalArgumentException("W1 has no mix '" + mix + "'; mixes: " + MIXES);
    };
  }

  /** The naive window: filter, sort and cut the driver's current rows. */
  static List<Row> naive(Issues data) {
    return Arrays.stream(data.rows).filter(Issues::isOpen).sorted(ORDER).limit(LIMIT).toList();
  }

  /** Null when {@code window} is the naive window, else a description of the difference. */
  static String check(Issues data, List<Row> window, String when) {
    List<Row> expected = naive(data);
    if (expected.equals(window)) {
      return null;
    }
    for (int i = 0; i < Math.max(expected.size(), window.size()); i++) {
      Row e = i < expected.size() ? expected.get(i) : null;
      Row a = i < window.size() ? window.get(i) : null;
      if (e == null || !e.equals(a)) {
        return when + ": window differs first at position " + i + ": expected " + e + " but folded " + a
            + " (sizes " + expected.size() + " and " + window.size() + ")";
      }
    }
    return when + ": window differs";
  }

  /** Hydrates, runs both mixes and checks the result, printing every figure to {@code report}. */
  static void run(int rows, RunConfig cfg, Report report) {
    Issues data = Issues.generate(rows, cfg.seed());
    Hydrated h = Hydration.measure(report, NAME, rows, cfg.hydrateRuns(rows), () -> hydrate(data), Hydrated::nanos);
    String problem = check(data, h.window(), "after hydration");
    List<Row> window = h.window();
    for (String mix : MIXES) {
      if (problem != null) {
        break;
      }
      SplittableRandom rnd = new SplittableRandom(cfg.seed() * 31 + mix.hashCode());
      long[] moves = {0};
      try {
        Latencies lat = UpdateLoop.run(h.graph(), h.input(), h.output(), data, mix(mix, data, rnd),
            cfg.warmup(), cfg.updates(), d -> {
              moves[0] += d.isEmpty() ? 0 : 1;
              d.spliceInto(window);
            });
        UpdateLoop.report(report, NAME, rows, mix, lat);
        report.figure(NAME, rows, mix, "window_changed_pct", 100.0 * moves[0] / (cfg.warmup() + cfg.updates()));
        problem = check(data, window, "after the " + mix + " mix");
      } catch (IllegalArgumentException e) {
        problem = "during the " + mix + " mix: a delta did not splice: " + e.getMessage();
      }
    }
    report.correct(NAME, rows, problem == null, problem == null ? null : problem);
  }
}
