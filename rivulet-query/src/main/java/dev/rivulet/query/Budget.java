package dev.rivulet.query;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * A time budget for work done on one thread (the warm-up's): spent when the thread has used
 * {@code cpuMs} of CPU time since it started (so the cost of measuring it counts too), or {@code
 * wallMs} of wall-clock time have passed since the budget was made. Where the JVM cannot measure
 * a thread's CPU time, the wall clock counts for both (it bounds the CPU time from above).
 *
 * <p>Confined to the thread that made it.
 */
final class Budget {
  private final ThreadMXBean cpu;
  private final long cpuNanos;
  private final long wallStart = System.nanoTime();
  private final long wallNanos;

  Budget(long cpuMs, long wallMs) {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    boolean measured = mx.isCurrentThreadCpuTimeSupported() && mx.isThreadCpuTimeEnabled();
    this.cpu = measured ? mx : null;
    this.cpuNanos = cpuMs * 1_000_000L;
    this.wallNanos = (measured ? wallMs : Math.min(cpuMs, wallMs)) * 1_000_000L;
  }

  /** Whether the budget is used up. */
  boolean spent() {
    if (System.nanoTime() - wallStart >= wallNanos) {
      return true;
    }
    return cpu != null && cpu.getCurrentThreadCpuTime() >= cpuNanos;
  }
}
