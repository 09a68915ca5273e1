package dev.rivulet.bench;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The workload runner: the jar's main class. Runs each selected workload at each row count and
 * prints one JSON line per figure to standard output (see {@link Report}); diagnostics go to
 * standard error. Exits with 1 when a correctness check failed or a workload threw, 2 on bad
 * arguments.
 *
 * <pre>
 * java -Xmx4g -jar rivulet-bench.jar [W1] [W2] [--rows 100000,1000000] [--updates 200000]
 *     [--warmup 200000] [--seed N] [--hydrate-runs N]
 * </pre>
 *
 * With no workload named, all run; with no {@code --rows}, each runs at 100,000 and 1,000,000 rows.
 * {@code --updates} and {@code --warmup} count per mix; see {@link RunConfig} for the rest.
 */
public final class WorkloadRunner {
  private WorkloadRunner() {}

  public static void main(String[] args) {
    Set<String> workloads = new LinkedHashSet<>();
    List<Integer> rows = new ArrayList<>();
    int updates = 200_000;
    int warmup = 200_000;
    long seed = RunConfig.DEFAULT_SEED;
    int hydrateRuns = 0;
    try {
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        switch (a) {
          case "--rows" -> {
            for (String r : Args.value(args, ++i, a).split(",")) {
              rows.add(Args.positive(r.replace("_", ""), a));
            }
          }
          case "--updates" -> updates = Args.positive(Args.value(args, ++i, a), a);
          case "--warmup" -> warmup = Args.nonNegative(Args.value(args, ++i, a), a);
          case "--seed" -> seed = Long.parseLong(Args.value(args, ++i, a));
          case "--hydrate-runs" -> hydrateRuns = Args.positive(Args.value(args, ++i, a), a);
          case "-h", "--help" -> {
            usage();
            return;
          }
          default -> {
            String w = a.toUpperCase(Locale.ROOT);
            if (!w.equals(W1TopOpen.NAME) && !w.equals(W2AssigneeLoad.NAME)) {
              throw new IllegalArgumentException("unknown argument '" + a + "'");
            }
            workloads.add(w);
          }
        }
      }
    } catch (IllegalArgumentException e) {
      System.err.println("rivulet-bench: " + e.getMessage());
      usage();
      System.exit(2);
    }
    if (workloads.isEmpty()) {
      workloads.addAll(List.of(W1TopOpen.NAME, W2AssigneeLoad.NAME));
    }
    if (rows.isEmpty()) {
      rows.addAll(List.of(100_000, 1_000_000));
    }
    RunConfig cfg = new RunConfig(updates, warmup, seed, hydrateRuns);
    Report report = new Report(System.out);
    for (String w : workloads) {
      for (int n : rows) {
        try {
          if (w.equals(W1TopOpen.NAME)) {
            W1TopOpen.run(n, cfg, report);
          } else {
            W2AssigneeLoad.run(n, cfg, report);
          }
        } catch (RuntimeException | OutOfMemoryError e) {
          e.printStackTrace();
          report.correct(w, n, false, "threw " + e);
        }
      }
    }
    System.exit(report.failed() ? 1 : 0);
  }

  private static void usage() {
    System.err.println("usage: java -Xmx4g -jar rivulet-bench.jar [W1] [W2] [--rows 100000,1000000]"
        + " [--updates 200000] [--warmup 200000] [--seed N] [--hydrate-runs N]");
    System.err.println("JMH:   java -cp rivulet-bench.jar org.openjdk.jmh.Main W1UpdateBenchmark -prof gc");
  }
}
