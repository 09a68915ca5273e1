package dev.rivulet.bench.query;

import dev.rivulet.bench.Report;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

/**
 * The one-build modes of {@link QueryWorkloads}, meant for a fresh JVM per run: the cold figures
 * ({@code hydrate_cold_ms}: the live query created until ready, rows already loaded; {@code
 * load_until_ready_cold_ms}: rows in until the query is ready; {@code correct_cold}) and the
 * memory figures (live heap after full collections per retained row, the harness's copy of the
 * rows released first).
 */
final class Cold {
  private Cold() {}

  /** Prints the cold figures of one build and its check ({@code problem} null when correct). */
  static void report(Report out, String name, int rows, long loadNanos, long queryNanos, String problem) {
    out.figure(name, rows, null, "hydrate_cold_ms", queryNanos / 1e6);
    out.figure(name, rows, null, "load_until_ready_cold_ms", (loadNanos + queryNanos) / 1e6);
    out.correct(name, rows, "correct_cold", problem == null, problem);
  }

  /**
   * The main thread's CPU time in the same build ({@code load_cold_cpu_ms}, {@code hydrate_cold_cpu_ms}):
   * on a shared machine, free of the time spent waiting for a core; and the collections of the whole
   * process so far ({@code gc_cold_count}, {@code gc_cold_ms}: their pauses count in the wall-clock
   * figures, not in the CPU ones).
   */
  static void cpu(Report out, String name, int rows, long loadCpuNanos, long queryCpuNanos) {
    out.figure(name, rows, null, "load_cold_cpu_ms", loadCpuNanos / 1e6);
    out.figure(name, rows, null, "hydrate_cold_cpu_ms", queryCpuNanos / 1e6);
    long count = 0;
    long ms = 0;
    for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      count += Math.max(0, gc.getCollectionCount());
      ms += Math.max(0, gc.getCollectionTime());
    }
    out.count(name, rows, null, "gc_cold_count", count);
    out.figure(name, rows, null, "gc_cold_ms", (double) ms);
  }

  /**
   * Prints what each phase of one build cost the process: {@code load_cold_alloc_mb} and {@code
   * hydrate_cold_alloc_mb} (bytes the main thread allocated), {@code load_cold_gc_count}, {@code
   * load_cold_gc_ms}, {@code hydrate_cold_gc_count} and {@code hydrate_cold_gc_ms} (the collections
   * that ended within the phase, whichever thread's allocation triggered them), {@code
   * load_cold_classes} and {@code hydrate_cold_classes} (classes the process loaded within the
   * phase, on any thread: a fresh JVM spends a few hundred microseconds on each class it reads from
   * a jar), and {@code load_cold_jit_ms} and {@code hydrate_cold_jit_ms} (the JIT compilers' time
   * within the phase, all compiler threads together: on a machine of two cores, time the phase's
   * own thread may have waited for a core).
   */
  static void phases(Report out, String name, int rows, Phase load, Phase query) {
    out.figure(name, rows, null, "load_cold_alloc_mb", load.allocBytes() / 1048576.0);
    out.figure(name, rows, null, "hydrate_cold_alloc_mb", query.allocBytes() / 1048576.0);
    out.count(name, rows, null, "load_cold_gc_count", load.gcCount());
    out.figure(name, rows, null, "load_cold_gc_ms", (double) load.gcMs());
    out.count(name, rows, null, "hydrate_cold_gc_count", query.gcCount());
    out.figure(name, rows, null, "hydrate_cold_gc_ms", (double) query.gcMs());
    out.count(name, rows, null, "load_cold_classes", load.classes());
    out.count(name, rows, null, "hydrate_cold_classes", query.classes());
    out.figure(name, rows, null, "load_cold_jit_ms", (double) load.jitMs());
    out.figure(name, rows, null, "hydrate_cold_jit_ms", (double) query.jitMs());
  }

  /**
   * What one phase of a build cost: the main thread's CPU time and allocated bytes (-1 when the
   * JVM does not measure it), the collections that ended within it with their time, the classes
   * loaded within it, and the JIT compilers' time within it (-1 when the JVM does not measure it).
   */
  record Phase(long cpuNanos, long allocBytes, long gcCount, long gcMs, long classes, long jitMs) {}

  /**
   * Takes the readings of a {@link Phase} at its start and end, on the thread that runs it. Not
   * thread-safe: one thread starts and stops it.
   */
  static final class Meter {
    private static final java.lang.management.ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final java.lang.management.ClassLoadingMXBean CLASSES = ManagementFactory.getClassLoadingMXBean();
    private static final java.lang.management.CompilationMXBean JIT = ManagementFactory.getCompilationMXBean();
    private long cpu;
    private long alloc;
    private long gcCount;
    private long gcMs;
    private long classes;
    private long jitMs;

    /** A meter started now. */
    static Meter start() {
      Meter m = new Meter();
      m.restart();
      return m;
    }

    /** Starts a new phase now. */
    void restart() {
      gcCount = gcCount();
      gcMs = gcMs();
      classes = CLASSES.getTotalLoadedClassCount();
      jitMs = jitMs();
      alloc = allocated();
      cpu = THREADS.getCurrentThreadCpuTime();
    }

    /** The phase since the last start, and a new one started. */
    Phase lap() {
      long c = THREADS.getCurrentThreadCpuTime();
      long a = allocated();
      long j = jitMs();
      Phase p = new Phase(c - cpu, alloc < 0 || a < 0 ? -1 : a - alloc, gcCount() - gcCount, gcMs() - gcMs,
          CLASSES.getTotalLoadedClassCount() - classes, jitMs < 0 || j < 0 ? -1 : j - jitMs);
      restart();
      return p;
    }

    private static long jitMs() {
      return JIT != null && JIT.isCompilationTimeMonitoringSupported() ? JIT.getTotalCompilationTime() : -1;
    }

    private static long allocated() {
      return THREADS instanceof com.sun.management.ThreadMXBean t ? t.getCurrentThreadAllocatedBytes() : -1;
    }

    /** The collections of every collector so far. */
    static long gcCount() {
      long n = 0;
      for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
        n += Math.max(0, gc.getCollectionCount());
      }
      return n;
    }

    private static long gcMs() {
      long ms = 0;
      for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
        ms += Math.max(0, gc.getCollectionTime());
      }
      return ms;
    }
  }

  /** Heap in use after three full collections, in bytes (what is live, give or take the collector's slack). */
  static long liveHeap() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /**
   * Prints {@code heap_bytes_per_row} ({@code (live - base) / retained}), {@code heap_mb} (the
   * engine's live heap), {@code harness_copy_mb} (what releasing the driver's copy freed), {@code
   * retained_rows} and {@code correct_memory}.
   */
  static void memoryFigures(Report out, String name, int rows, int retained, long base, long withCopy, long live,
      String problem) {
    out.figure(name, rows, null, "heap_bytes_per_row", (double) (live - base) / retained,
        "live heap after full GCs minus the empty process's, over " + retained + " rows, harness copy released");
    out.figure(name, rows, null, "heap_mb", (live - base) / 1048576.0);
    out.figure(name, rows, null, "harness_copy_mb", (withCopy - live) / 1048576.0);
    out.count(name, rows, null, "retained_rows", retained);
    out.correct(name, rows, "correct_memory", problem == null, problem);
  }
}
