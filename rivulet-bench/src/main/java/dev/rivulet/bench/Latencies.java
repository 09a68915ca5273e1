package dev.rivulet.bench;

import java.util.Arrays;

/**
 * Recorded per-update latencies in nanoseconds, their order statistics (nearest rank, as the
 * peers' {@code run.mjs} takes them), and the garbage collections that happened between {@link
 * #gcStart} and {@link #gcStop}.
 */
public final class Latencies {
  private final long[] samples;
  private int size;
  private boolean sorted;
  private long gcMillis;
  private long gcCount;

  public Latencies(int capacity) {
    samples = new long[capacity];
  }

  public void record(long nanos) {
    samples[size++] = nanos;
    sorted = false;
  }

  public void gcStart() {
    gcMillis = -GcClock.millis();
    gcCount = -GcClock.count();
  }

  public void gcStop() {
    gcMillis += GcClock.millis();
    gcCount += GcClock.count();
  }

  public long gcMillis() {
    return gcMillis;
  }

  public long gcCount() {
    return gcCount;
  }

  public int size() {
    return size;
  }

  /** The {@code q}-quantile (0..1) by the nearest-rank method, in microseconds. */
  public double quantileMicros(double q) {
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

  public double meanMicros() {
    long sum = 0;
    for (int i = 0; i < size; i++) {
      sum += samples[i];
    }
    return size == 0 ? Double.NaN : sum / 1_000.0 / size;
  }

  /** Heap in use after a full collection, in MiB. */
  public static long heapUsedMb() {
    System.gc();
    Runtime rt = Runtime.getRuntime();
    return (rt.totalMemory() - rt.freeMemory()) >> 20;
  }

  /** The median of a few values (mean of the middle two for an even count). */
  public static double median(double[] values) {
    double[] v = values.clone();
    Arrays.sort(v);
    int n = v.length;
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }
}
