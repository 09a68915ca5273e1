package dev.rivulet.bench.query;

import dev.rivulet.bench.Args;

import dev.rivulet.bench.Report;

import dev.rivulet.bench.peers.PeerData;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The query-layer workload runner: W1, W2, W3, W5 and W6 written with the query builder over Rivulet
 * collections, fed with the peers' data and update streams ({@link PeerData}), printing one JSON
 * line per figure ({@code "engine":"rivulet"}) in the peers' format, so that {@code
 * dev.rivulet.bench.peers.PeerRunner --rivulet FILE} prints the ratios. Diagnostics go to standard
 * error. Exits with 1 when a correctness check failed or a workload threw, 2 on bad arguments.
 *
 * <pre>
 * java -Xmx4g -cp rivulet-bench.jar dev.rivulet.bench.query.QueryWorkloads [W1] [W2] [W3] [W4] [W4L] [W5] [W6]
 *     [--cold | --memory] [--rows 100000[,1000000]] [--warmup 10000] [--updates 50000] [--hydrate-runs 20]
 *     [--prewarm 20000] [--seed 20240601] [--mixes a,b] [--no-compare] [--faces none,keyed,changes,window] [--no-faces]
 * </pre>
 *
 * With no workload named, W1, W2, W3, W6 ({@link W6TitleWindowQuery}, the text-ordered window) and W5
 * ({@link W5Harness}, the left join) run; W4 (the nested view, {@link W4Harness}: at {@code
 * --rows} issues, 1,000 projects and ten comments per issue) runs only when named. {@code --rows}
 * defaults to 100,000. {@code --warmup},
 * {@code --updates} (per mix) and {@code --hydrate-runs} default to {@code run-peers.sh}'s, so the
 * update sequences are the peers' exactly (W1's edge mix depends on the data the random mix left). {@code
 * --prewarm} updates (spread over the mixes, other seed, on a copy of the data) run on the first,
 * discarded build only, to warm the JIT; {@code --prewarm 0} turns that off. W1 also runs {@link
 * W1CompiledVsHandwired} unless {@code --no-compare}. W1 and W3 then run {@link FaceUpdates}: the
 * same updates with one synchronous subscriber of each face in {@code --faces} attached (W3's
 * window on its ordered variant W3o), lines tagged {@code "face"}, with the window/changes to
 * keyed ratios; {@code --no-faces} skips it. The workload's own lines above are unchanged (no
 * subscriber, what the peer runner compares).
 *
 * <p>{@code --cold}: one build per named workload and size, nothing else ({@link Cold}: {@code
 * hydrate_cold_ms}, {@code load_until_ready_cold_ms}, {@code correct_cold}); meant for a fresh
 * JVM per run and one workload per process, as {@code run-peers.sh} starts it. {@code --memory}:
 * one build, then the live heap per retained row with the harness's copy released ({@code
 * heap_bytes_per_row}, {@code heap_mb}, {@code harness_copy_mb}); also one workload per process.
 */
public final class QueryWorkloads {
  private QueryWorkloads() {}

  /** The workloads {@link FaceUpdates} runs on. */
  static final Set<String> FACE_WORKLOADS = Set.of(W1TopOpenQuery.NAME, W3OpenIssuesQuery.NAME);

  public static void main(String[] args) {
    Set<String> names = new LinkedHashSet<>();
    List<Integer> rows = new ArrayList<>();
    int warmup = 10_000;
    int updates = 50_000;
    int hydrateRuns = 20;
    int prewarm = 20_000;
    long seed = PeerData.DEFAULT_SEED;
    boolean compare = true;
    Set<String> mixes = new LinkedHashSet<>();
    String mode = "warm";
    List<FaceProbe.Face> faces = FaceUpdates.ALL;
    Map<String, QueryWorkload> known = new LinkedHashMap<>();
    for (QueryWorkload w : Harness.all()) {
      known.put(w.name(), w);
    }
    try {
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        switch (a) {
          case "--rows" -> {
            for (String r : Args.value(args, ++i, a).split(",")) {
              rows.add(Args.positive(r.replace("_", ""), a));
            }
          }
          case "--warmup" -> warmup = Args.nonNegative(Args.value(args, ++i, a), a);
          case "--updates" -> updates = Args.positive(Args.value(args, ++i, a), a);
          case "--hydrate-runs" -> hydrateRuns = Args.positive(Args.value(args, ++i, a), a);
          case "--prewarm" -> prewarm = Args.nonNegative(Args.value(args, ++i, a), a);
          case "--seed" -> seed = Long.parseLong(Args.value(args, ++i, a));
          case "--no-compare" -> compare = false;
          case "--mixes" -> mixes.addAll(List.of(Args.value(args, ++i, a).split(",")));
          case "--cold" -> mode = "cold";
          case "--memory" -> mode = "memory";
          case "--faces" -> faces = FaceProbe.Face.parseList(Args.value(args, ++i, a));
          case "--no-faces" -> faces = List.of();
          case "-h", "--help" -> {
            usage();
            return;
          }
          default -> {
            String w = a.toUpperCase(Locale.ROOT);
            if (!known.containsKey(w) && !w.equals(W4NestedQuery.NAME) && !w.equals(W4Harness.LAZY_NAME)
                && !w.equals(W5LeftJoinQuery.NAME)) {
              throw new IllegalArgumentException("unknown argument '" + a + "'");
            }
            names.add(w);
          }
        }
      }
    } catch (IllegalArgumentException e) {
      System.err.println("QueryWorkloads: " + e.getMessage());
      usage();
      System.exit(2);
    }
    if (names.isEmpty()) {
      names.addAll(known.keySet());
      names.add(W5LeftJoinQuery.NAME);
    }
    if (rows.isEmpty()) {
      rows.add(100_000);
    }
    Config cfg = new Config(warmup, updates, hydrateRuns, prewarm, seed, compare, Set.copyOf(mixes));
    Report out = new Report(System.out, "rivulet");
    System.err.println("QueryWorkloads: " + jvm());
    if (!mode.equals("warm")) {
      oneBuild(mode, names, rows, known, cfg, out);
      System.exit(out.failed() ? 1 : 0);
    }
    for (int n : rows) {
      for (String name : names) {
        QueryWorkload w = known.get(name);
        try {
          System.err.printf(Locale.ROOT, "QueryWorkloads: %s at %d rows%n", name, n);
          if (name.equals(W5LeftJoinQuery.NAME)) {
            W5Harness.run(n, cfg, out);
            continue;
          }
          if (w == null) {
            W4Harness.run(n, cfg, out, name.equals(W4Harness.LAZY_NAME));
            continue;
          }
          Harness.run(w, n, cfg, out);
          if (compare && name.equals(W1TopOpenQuery.NAME)) {
            System.gc();
            System.err.printf(Locale.ROOT, "QueryWorkloads: %s at %d rows, compiled vs hand-wired%n", name, n);
            W1CompiledVsHandwired.run(n, cfg, out);
          }
          if (!faces.isEmpty() && FACE_WORKLOADS.contains(name)) {
            System.gc();
            System.err.printf(Locale.ROOT, "QueryWorkloads: %s at %d rows, faces %s%n", name, n, faces);
            FaceUpdates.run(w, n, faces, cfg, out);
          }
        } catch (RuntimeException | OutOfMemoryError e) {
          e.printStackTrace();
          out.correct(name, n, false, "threw " + e);
        }
      }
    }
    System.exit(out.failed() ? 1 : 0);
  }

  /** {@code --cold} (every workload) or {@code --memory} (W1-W3, W5, W6): one build per workload and size. */
  private static void oneBuild(String mode, Set<String> names, List<Integer> rows, Map<String, QueryWorkload> known,
      Config cfg, Report out) {
    for (int n : rows) {
      for (String name : names) {
        try {
          boolean cold = mode.equals("cold");
          QueryWorkload w = known.get(name);
          if (name.equals(W5LeftJoinQuery.NAME)) {
            if (cold) {
              W5Harness.cold(n, cfg, out);
            } else {
              W5Harness.memory(n, cfg, out);
            }
          } else if (w == null && cold) {
            W4Harness.cold(n, cfg, out, name.equals(W4Harness.LAZY_NAME));
          } else if (w == null) {
            throw new IllegalArgumentException(name + " has no --memory mode (W1, W2, W3, W5, W6 have)");
          } else if (cold) {
            Harness.cold(w, n, cfg, out);
          } else {
            Harness.memory(w, n, cfg, out);
          }
        } catch (RuntimeException | OutOfMemoryError e) {
          e.printStackTrace();
          out.correct(name, n, "correct_" + mode, false, "threw " + e);
        }
      }
    }
  }

  /** The runtime the figures come from: Java version, collectors, maximum heap. */
  static String jvm() {
    StringBuilder gcs = new StringBuilder();
    for (var gc : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
      gcs.append(gcs.length() == 0 ? "" : ", ").append(gc.getName());
    }
    return String.format(Locale.ROOT, "Java %s, collectors %s, max heap %d MiB", System.getProperty("java.version"),
        gcs, Runtime.getRuntime().maxMemory() >> 20);
  }

  private static void usage() {
    System.err.println("usage: java -Xmx4g -cp rivulet-bench.jar dev.rivulet.bench.query.QueryWorkloads [W1] [W2] [W3] [W4] [W4L] [W5] [W6]"
        + " [--cold | --memory] [--rows 100000[,1000000]] [--warmup 10000] [--updates 50000] [--hydrate-runs 20] [--prewarm 20000]"
        + " [--seed N] [--mixes a,b] [--no-compare] [--faces none,keyed,changes,window] [--no-faces]");
  }
}
