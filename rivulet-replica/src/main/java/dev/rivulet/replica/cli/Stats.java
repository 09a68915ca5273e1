package dev.rivulet.replica.cli;

/**
 * Figures for the footer: commits so far, the rate and latency percentiles over the last interval
 * and over the whole run (latency = one transaction's commit including publication to the live queries).
 */
record Stats(double elapsedSeconds, long commits, double commitsPerSecond, long p50Micros, long p99Micros,
    long totalP50Micros, long totalP99Micros) {

  String footer() {
    return String.format("%.0fs  commits %d  %.0f commits/s  commit+publish p50 %d us  p99 %d us  (whole run p50 %d us  p99 %d us)",
        elapsedSeconds, commits, commitsPerSecond, p50Micros, p99Micros, totalP50Micros, totalP99Micros);
  }
}
