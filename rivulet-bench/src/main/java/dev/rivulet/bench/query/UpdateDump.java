package dev.rivulet.bench.query;

import dev.rivulet.engine.OperatorStats;
import dev.rivulet.query.LiveQuery;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.RandomAccessFile;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code -Drivulet.bench.updateDump=FILE}: the update loop writes one line per timed update to
 * {@code FILE.<mix>}, these columns in order: its index, wall-clock and CPU nanoseconds, allocated
 * bytes, how many garbage collections ran, the change of the live query's operator counters
 * ({@link OperatorStats}: the rows the top-K examined, the rows the other operators examined, the
 * top-K's retained entries), and the thread's minor page faults. What the slowest updates were is
 * then read off the file (a refill examines thousands of rows, a consolidation drops retained
 * entries). Reads happen outside the timed section; the stats list it reads allocates.
 */
final class UpdateDump {
  static final String FILE = System.getProperty("rivulet.bench.updateDump");
  private static RandomAccessFile stat;
  private static final byte[] statBytes = new byte[2048];
  private final long[][] cols;
  private final LiveQuery query;
  private long examinedTopK;
  private long examinedOther;
  private long retainedTopK;
  private long gcs;
  private int n;

  UpdateDump(int updates, LiveQuery query) {
    this.cols = new long[9][updates];
    this.query = query;
    read();
  }

  static boolean on() {
    return FILE != null;
  }

  /** Reads the counters that the next {@link #record} subtracts. */
  void reset() {
    read();
  }

  /** Records timed update {@code i}; call after the update, outside its timed section. */
  void record(int i, long wallNanos, long cpuNanos, long allocBytes, long pageFaults) {
    long e0 = examinedTopK;
    long o0 = examinedOther;
    long r0 = retainedTopK;
    long g0 = gcs;
    read();
    long[] row = {i, wallNanos, cpuNanos, allocBytes, gcs - g0, examinedTopK - e0, examinedOther - o0, retainedTopK - r0, pageFaults};
    for (int c = 0; c < row.length; c++) {
      cols[c][n] = row[c];
    }
    n++;
  }

  private void read() {
    long et = 0;
    long eo = 0;
    long rt = 0;
    for (OperatorStats s : query.stats()) {
      if (s.kind().equals("top-k")) {
        et += s.examined();
        rt += s.retained();
      } else {
        eo += s.examined();
      }
    }
    examinedTopK = et;
    examinedOther = eo;
    retainedTopK = rt;
    long g = 0;
    for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
      g += Math.max(0, b.getCollectionCount());
    }
    gcs = g;
  }

  /**
   * The calling thread's minor page faults so far (field 10 of {@code /proc/thread-self/stat});
   * -1 where that file cannot be read. Allocates nothing (the file stays open, read into one
   * buffer), so the read itself touches no fresh heap page. Call outside the timed section.
   */
  static long minorFaults() {
    try {
      if (stat == null) {
        stat = new RandomAccessFile("/proc/thread-self/stat", "r");
      }
      stat.seek(0);
      int n = stat.read(statBytes);
      int i = n - 1;
      while (i > 0 && statBytes[i] != ')') {
        i--;
      }
      for (int field = 2; field < 10 && i < n; i++) { // the 10th field, minflt, follows the 9th space after the name
        if (statBytes[i] == ' ') {
          field++;
        }
      }
      long v = 0;
      for (; i < n && statBytes[i] != ' '; i++) {
        v = v * 10 + (statBytes[i] - '0');
      }
      return v;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** Writes the recorded lines to {@code FILE.mix}. */
  void write(String mix) {
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(Path.of(FILE + "." + mix)))) {
      w.println("i wall_ns cpu_ns alloc_b gcs topk_examined other_examined topk_retained_delta minor_faults");
      for (int r = 0; r < n; r++) {
        StringBuilder b = new StringBuilder();
        for (int c = 0; c < cols.length; c++) {
          b.append(c == 0 ? "" : " ").append(cols[c][r]);
        }
        w.println(b);
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot write the update dump " + FILE + "." + mix, e);
    }
  }
}
