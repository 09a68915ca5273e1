package dev.rivulet.bench;

import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * Measures a workload's hydration: builds and hydrates a fresh graph {@code runs} times (a full
 * collection before each, outside the timing) and prints {@code hydrate_first_ms} (the first
 * run, JIT still cold), {@code load_until_ready_warm_ms} (the median of the other runs), {@code hydrate_gc_ms}
 * (the median collection time within those runs) and {@code heap_after_hydrate_mb}.
 */
final class Hydration {
  private Hydration() {}

  /** Runs the hydrations, prints the figures and returns the last hydrated graph. */
  static <H> H measure(Report report, String workload, int rows, int runs, Supplier<H> hydrate,
      ToLongFunction<H> nanos) {
    double[] warm = new double[Math.max(1, runs - 1)];
    double[] warmGc = new double[warm.length];
    H h = null;
    for (int i = 0; i < runs; i++) {
      h = null; // let the previous graph be collected before the next is built
      System.gc();
      long gc = GcClock.millis();
      h = hydrate.get();
      long gcMs = GcClock.millis() - gc;
      double ms = nanos.applyAsLong(h) / 1e6;
      if (i == 0) {
        report.figure(workload, rows, null, "hydrate_first_ms", ms);
      }
      warm[Math.max(0, i - 1)] = ms;
      warmGc[Math.max(0, i - 1)] = gcMs;
    }
    report.figure(workload, rows, null, "load_until_ready_warm_ms", Latencies.median(warm));
    report.figure(workload, rows, null, "hydrate_gc_ms", Latencies.median(warmGc));
    report.count(workload, rows, null, "heap_after_hydrate_mb", Latencies.heapUsedMb());
    return h;
  }
}
