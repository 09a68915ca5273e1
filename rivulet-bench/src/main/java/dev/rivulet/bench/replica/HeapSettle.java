package dev.rivulet.bench.replica;

import dev.rivulet.bench.GcClock;
import java.lang.management.ManagementFactory;

/**
 * Brings a fresh JVM's heap to the state of a process that has run a while, for {@link
 * ReplicaLatency}'s steady-state figures: the young collector has cycled through the heap it
 * committed, so allocation lands in memory the process has touched before. In a fresh JVM the
 * committed heap is not yet backed by pages: the first allocation in each 4 KiB page costs a page
 * fault, charged to the allocating thread's CPU time. A captured write allocates its changed row
 * (about 290 bytes) where a plain JDBC write allocates 32, so until the heap has been cycled the
 * faults alone added 0.6-0.7 us to each captured write (measured on a 2-core VM: 3.1-3.2 us per
 * write before, 2.4-2.7 after; the same with {@code -XX:+AlwaysPreTouch} instead), a cost a
 * long-running application never pays again.
 *
 * <p>Allocates short-lived arrays until at least {@link #MIN_COLLECTIONS} collections have run and
 * the last one left the committed heap at the size it had, or {@link #MAX_BYTES} have been
 * allocated.
 */
final class HeapSettle {
  private static final int MIN_COLLECTIONS = 4;
  private static final long MAX_BYTES = 8L << 30;
  private static final int CHUNK = 4096;

  private HeapSettle() {}

  /** Cycles the heap; returns the number of collections it took. */
  static long run() {
    long start = GcClock.count();
    long seen = start;
    long committed = committed();
    Object[] sink = new Object[256]; // kept briefly, so the arrays are really allocated
    for (long bytes = 0; bytes < MAX_BYTES; bytes += CHUNK) {
      sink[(int) (bytes / CHUNK) & 255] = new byte[CHUNK];
      long now = GcClock.count();
      if (now != seen) {
        seen = now;
        long c = committed();
        if (now - start >= MIN_COLLECTIONS && c == committed) {
          break;
        }
        committed = c;
      }
    }
    return seen - start;
  }

  private static long committed() {
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted();
  }
}
