package dev.rivulet.replica.cli;

/**
 * Commit latencies in 1 µs buckets up to 100 ms (slower ones count in the last bucket), for
 * percentiles without keeping every sample. Owned by one thread.
 */
final class LatencyHistogram {
  private static final int BUCKETS = 100_000;
  private final long[] counts = new long[BUCKETS];
  private long total;

  void record(long nanos) {
    int us = (int) Math.min(BUCKETS - 1, Math.max(0, nanos / 1_000));
    counts[us]++;
    total++;
  }

  long count() {
    return total;
  }

  /** The {@code q}-quantile in microseconds ({@code 0 < q <= 1}); 0 when empty. */
  long percentileMicros(double q) {
    if (total == 0) {
      return 0;
    }
    long rank = (long) Math.ceil(q * total);
    long seen = 0;
    for (int i = 0; i < BUCKETS; i++) {
      seen += counts[i];
      if (seen >= rank) {
        return i;
      }
    }
    return BUCKETS - 1;
  }

  void reset() {
    java.util.Arrays.fill(counts, 0);
    total = 0;
  }
}
