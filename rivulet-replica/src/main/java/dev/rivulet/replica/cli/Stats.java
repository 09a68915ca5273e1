package dev.rivulet.replica.cli;

import java.util.List;

/**
 * Figures for the footer: commits so far, the rate and latency percentiles over the last interval
 * and over the whole run (latency = one transaction's commit including publication to the live queries).
 */
record Stats(double elapsedSeconds, long commits, double commitsPerSecond, long p50Micros, long p99Micros,
    long totalP50Micros, long totalP99Micros) {

  /** Two lines: progress, then latency. */
  List<String> footer() {
    return List.of(
        String.format("%.0fs  %d commits  %.0f commits/s", elapsedSeconds, commits, commitsPerSecond),
        String.format("commit+publish latency  p50 %d us  p99 %d us  (whole run: p50 %d us  p99 %d us)",
            p50Micros, p99Micros, totalP50Micros, totalP99Micros));
  }
}
