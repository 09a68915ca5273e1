package dev.rivulet.bench.query;

import dev.rivulet.bench.Report;
import java.lang.management.ManagementFactory;

/**
 * Load-independent cost counters for the update loops: the bytes the calling thread allocated
 * and its CPU time ({@code com.sun.management.ThreadMXBean}), and the switches that turn them on. Read outside the
 * timed sections; the reads themselves allocate nothing that is counted between two reads.
 */
final class Allocation {
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  /**
   * {@code -Drivulet.bench.updateCost=true}: the update loops also read the calling thread's CPU
   * time and allocated bytes around each timed update ({@code cpu_*}, {@code alloc_*}). Off by
   * default: the reads (a system call for the CPU time) add a few microseconds to the next timed update.
   */
  static final boolean UPDATE_COST = Boolean.getBoolean("rivulet.bench.updateCost");
  /**
   * {@code -Drivulet.bench.coldEvery=N}: every N-th timed update runs after the CPU caches were
   * swept (untimed, {@link #evictCaches}) and is reported apart ({@code cold_*}): what an update
   * costs when another process ran on the core just before it.
   */
  static final int COLD_EVERY = Integer.getInteger("rivulet.bench.coldEvery", 0);

  private Allocation() {}

  /** Whether update {@code i} of a loop whose first {@code warmup} updates are untimed runs cold ({@link #COLD_EVERY}). */
  static boolean cold(int i, int warmup) {
    return COLD_EVERY > 0 && i >= warmup && (i - warmup) % COLD_EVERY == 0;
  }

  /** The bytes this thread allocated so far. */
  static long bytes() {
    return THREADS.getCurrentThreadAllocatedBytes();
  }

  /**
   * This thread's CPU time so far, in nanoseconds: per update it leaves out the time the thread
   * waited for a core (on a shared machine the bulk of the wall-clock tail), not the read's own cost.
   */
  static long cpuNanos() {
    return THREADS.getCurrentThreadCpuTime();
  }

  private static final long[] SWEEP = new long[8 << 20]; // 64 MiB, larger than the last-level cache
  private static long sink;

  /** Reads a 64 MiB buffer, so the next code finds the CPU caches holding none of its data. */
  static void evictCaches() {
    long s = 0;
    for (int i = 0; i < SWEEP.length; i += 8) { // one 64-byte line per step
      s += SWEEP[i];
    }
    sink += s;
  }

  /** Prints {@code alloc_mean_bytes}, {@code alloc_p99_bytes} and {@code alloc_max_bytes} of per-update allocations. */
  static void report(Report out, String name, int rows, String mix, long[] perUpdate) {
    long[] sorted = perUpdate.clone();
    java.util.Arrays.sort(sorted);
    long total = 0;
    for (long b : sorted) {
      total += b;
    }
    out.figure(name, rows, mix, "alloc_mean_bytes", sorted.length == 0 ? 0 : (double) total / sorted.length);
    out.count(name, rows, mix, "alloc_p99_bytes", sorted.length == 0 ? 0 : sorted[(int) (sorted.length * 0.99)]);
    out.count(name, rows, mix, "alloc_max_bytes", sorted.length == 0 ? 0 : sorted[sorted.length - 1]);
  }
}
