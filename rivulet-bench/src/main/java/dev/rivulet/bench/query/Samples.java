package dev.rivulet.bench.query;

import java.util.Arrays;

/** Per-update latencies in nanoseconds and their order statistics (nearest rank, as the peers). */
final class Samples {
  private final long[] nanos;
  private int size;
  private boolean sorted;

  Samples(int capacity) {
    nanos = new long[capacity];
  }

  void add(long n) {
    nanos[size++] = n;
    sorted = false;
  }

  int size() {
    return size;
  }

  /** The {@code q}-quantile in microseconds: rank {@code ceil(q * n)}, as {@code run.mjs} takes it. */
  double quantileMicros(double q) {
    if (size == 0) {
      return Double.NaN;
    }
    if (!sorted) {
      Arrays.sort(nanos, 0, size);
      sorted = true;
    }
    int rank = (int) Math.ceil(q * size);
    return nanos[Math.max(0, Math.min(size - 1, rank - 1))] / 1_000.0;
  }

  double meanMicros() {
    long sum = 0;
    for (int i = 0; i < size; i++) {
      sum += nanos[i];
    }
    return size == 0 ? Double.NaN : sum / 1_000.0 / size;
  }

  static double median(double[] values) {
    double[] v = values.clone();
    Arrays.sort(v);
    int n = v.length;
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }
}
