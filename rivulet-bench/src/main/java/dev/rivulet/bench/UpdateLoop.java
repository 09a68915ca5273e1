package dev.rivulet.bench;

import dev.rivulet.engine.Graph;
import dev.rivulet.engine.Input;
import dev.rivulet.engine.Output;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.ZSet;
import java.util.function.Consumer;

/**
 * The timed single-row update loop shared by the workloads. One update is {@code
 * input.update(before, after)}, {@code graph.run()} and reading {@code output.delta()}, timed
 * individually with {@link System#nanoTime}. Picking the update, applying it to the driver's data
 * and folding the delta into the driver's copy of the output happen outside the timed section.
 */
final class UpdateLoop {
  private UpdateLoop() {}

  /**
   * Runs {@code warmup} untimed then {@code measured} timed updates from {@code stream}; every
   * delta, warmup included, is handed to {@code fold}.
   */
  static Latencies run(Graph graph, Input input, Output output, Issues data, UpdateStream stream,
      int warmup, int measured, Consumer<ZSet> fold) {
    Latencies lat = new Latencies(measured);
    for (int i = 0, n = warmup + measured; i < n; i++) {
      if (i == warmup) {
        lat.gcStart();
      }
      Row after = stream.next();
      Row before = data.rows[Issues.id(after)];
      long t0 = System.nanoTime();
      input.update(before, after);
      graph.run();
      ZSet delta = output.delta();
      long t1 = System.nanoTime();
      data.apply(after);
      stream.applied(before, after);
      fold.accept(delta);
      if (i >= warmup) {
        lat.record(t1 - t0);
      }
    }
    lat.gcStop();
    return lat;
  }

  /**
   * Prints the median, p99, max and mean of {@code lat} as {@code update_*_us} figures, and the
   * collections (count and pause milliseconds) that fell within the timed updates.
   */
  static void report(Report report, String workload, int rows, String mix, Latencies lat) {
    report.count(workload, rows, mix, "updates", lat.size());
    report.figure(workload, rows, mix, "update_p50_us", lat.quantileMicros(0.50));
    report.figure(workload, rows, mix, "update_p99_us", lat.quantileMicros(0.99));
    report.figure(workload, rows, mix, "update_max_us", lat.quantileMicros(1.0));
    report.figure(workload, rows, mix, "update_mean_us", lat.meanMicros());
    report.count(workload, rows, mix, "update_gc_count", lat.gcCount());
    report.count(workload, rows, mix, "update_gc_ms", lat.gcMillis());
  }
}
