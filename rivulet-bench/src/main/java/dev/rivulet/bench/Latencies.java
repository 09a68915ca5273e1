package dev.rivulet.bench;

import java.util.Arrays;

/**
 * Recorded per-update latencies in nanoseconds, their order statistics, and the garbage
 * collections that happened between {@link #gcStart} and {@link #gcStop}.
 */
final class Latencies {
  private final long[] samples;
  private int size;
  private boolean sorted;
  private long gcMillis;
  private long gcCount;

  Latencies(int capacity) {
    samples = new long[capacity];
  }

  void record(long nanos) {
    samples[size++] = nanos;
    sorted = false;
  }

  void gcStart() {
    gcMillis = -GcClock.millis();
    gcCount = -GcClock.count();
  }

  void gcStop() {
    gcMillis += GcClock.millis();
    gcCount += GcClock.count();
  }

  long gcMillis() {
    return gcMillis;
  }

  long gcCount() {
    return gcCount;
  }

  int size() {
    return size;
  }

  /** The {@code q}-quantile (0..1) by the nearest-rank method, in microseconds. */
  double quantileMicros(double q) {
    if (size == 0) {
      return Double.NaN;
    }
    if (!sorted) {
      Arrays.sort(samples, 0, size);
      sorted = true;
    }
    int rank = (int) Math.ceil(q * size);
    return samples[Math.max(0, Math.min(size - 1, rank - 1))] / 1_000.0;
  }

  double meanMicros() {
    long sum = 0;
    for (int i = 0; i < size; i++) {
      sum += samples[i];
    }
    return size == 0 ? Double.NaN : sum / 1_000.0 / size;
  }
}
