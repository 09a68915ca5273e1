package dev.rivulet.bench;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * Reads the JVM's cumulative garbage-collection time and count, so a figure can say how much of
 * a timed phase the collector took. With G1 or Parallel these are the stop-the-world pauses.
 */
public final class GcClock {
  private static final List<GarbageCollectorMXBean> BEANS = ManagementFactory.getGarbageCollectorMXBeans();

  private GcClock() {}

  /** Total collection time so far, in milliseconds. */
  public static long millis() {
    long t = 0;
    for (GarbageCollectorMXBean b : BEANS) {
      t += Math.max(0, b.getCollectionTime());
    }
    return t;
  }

  /** Total collections so far. */
  public static long count() {
    long n = 0;
    for (GarbageCollectorMXBean b : BEANS) {
      n += Math.max(0, b.getCollectionCount());
    }
    return n;
  }
}
