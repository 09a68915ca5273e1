package dev.rivulet.bench.query;

import dev.rivulet.bench.Report;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

/**
 * Load-independent cost counters for the update loops: the bytes the calling thread allocated
 * and its CPU time ({@code com.sun.management.ThreadMXBean}), and the collections run so far. Read outside the
 * timed sections; the reads themselves allocate nothing that is counted between two reads.
 */
final class Allocation {
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  private Allocation() {}

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

  /** The collections of every collector so far. */
  static long collections() {
    long n = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      n += Math.max(0, gc.getCollectionCount());
    }
    return n;
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
