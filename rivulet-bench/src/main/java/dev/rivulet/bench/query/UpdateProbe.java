package dev.rivulet.bench.query;

import dev.rivulet.engine.Probe;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** TEMPORARY (issue 11 tail hunt): per-update wall, CPU, allocation, GC and {@link Probe} counters; top 1% vs median. */
final class UpdateProbe {
  static final boolean ON = Boolean.getBoolean("rivulet.bench.probe");
  private static final com.sun.management.ThreadMXBean T =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
  private static final List<GarbageCollectorMXBean> GCS = ManagementFactory.getGarbageCollectorMXBeans();
  private final int n;
  private final int k = Probe.NAMES.length;
  final long[] wall;
  final long[] cpu;
  final long[] alloc;
  final long[] gc;
  final long[][] counts;
  final long[] slices;
  final long[] jit;
  private long jit0;
  private static final java.lang.management.CompilationMXBean JIT = ManagementFactory.getCompilationMXBean();
  final long[] waited;
  private final long[] sched0 = new long[3];
  private final long[] sched1 = new long[3];
  private final byte[] buf = new byte[128];
  private long cpu0;
  private long alloc0;
  private long gc0;
  private final long[] c0;
  private final long tid = Thread.currentThread().getId();

  UpdateProbe(int n) {
    this.n = n;
    wall = new long[n];
    cpu = new long[n];
    alloc = new long[n];
    gc = new long[n];
    counts = new long[n][];
    slices = new long[n];
    jit = new long[n];
    waited = new long[n];
    c0 = new long[k];
  }

  static long gcCount() {
    long s = 0;
    for (GarbageCollectorMXBean g : GCS) {
      s += g.getCollectionCount();
    }
    return s;
  }

  /** run ns, wait ns, timeslices of this thread (Linux /proc/thread-self/schedstat). */
  private void sched(long[] out) {
    try (java.io.FileInputStream in = new java.io.FileInputStream("/proc/thread-self/schedstat")) {
      int len = in.read(buf);
      int f = 0;
      long v = 0;
      for (int i = 0; i < len && f < 3; i++) {
        byte b = buf[i];
        if (b >= '0' && b <= '9') {
          v = v * 10 + (b - '0');
        } else {
          out[f++] = v;
          v = 0;
        }
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  void before() {
    sched(sched0);
    jit0 = JIT.getTotalCompilationTime();
    gc0 = gcCount();
    System.arraycopy(Probe.C, 0, c0, 0, k);
    alloc0 = T.getThreadAllocatedBytes(tid);
    cpu0 = T.getCurrentThreadCpuTime();
  }

  void after(int i, long wallNanos) {
    long c1 = T.getCurrentThreadCpuTime();
    long a1 = T.getThreadAllocatedBytes(tid);
    cpu[i] = c1 - cpu0;
    alloc[i] = a1 - alloc0;
    wall[i] = wallNanos;
    gc[i] = gcCount() - gc0;
    jit[i] = JIT.getTotalCompilationTime() - jit0;
    sched(sched1);
    slices[i] = sched1[2] - sched0[2];
    waited[i] = sched1[1] - sched0[1];
    long[] d = new long[k];
    for (int j = 0; j < k; j++) {
      d[j] = Probe.C[j] - c0[j];
    }
    d[Probe.TREE_SIZE] = Probe.C[Probe.TREE_SIZE];
    counts[i] = d;
  }

  void print(String label) {
    Integer[] byWall = order(wall);
    Integer[] byCpu = order(cpu);
    int top = Math.max(1, n / 100);
    int[] tw = new int[top];
    int[] tc = new int[top];
    for (int i = 0; i < top; i++) {
      tw[i] = byWall[n - 1 - i];
      tc[i] = byCpu[n - 1 - i];
    }
    // the same among updates that kept their core (no other timeslice began during them)
    int quiet = 0;
    for (int i = 0; i < n; i++) {
      quiet += slices[i] == 0 ? 1 : 0;
    }
    int[] tq = new int[Math.max(1, quiet / 100)];
    long[] quietCpu = new long[quiet];
    for (int i = n - 1, j = 0, m = 0; i >= 0; i--) {
      int u = byCpu[i];
      if (slices[u] == 0) {
        if (j < tq.length) {
          tq[j++] = u;
        }
        quietCpu[m++] = cpu[u];
      }
    }
    System.err.printf(Locale.ROOT, "PROBE %s: %d updates kept their core; their cpu p50 %.2f us p90 %.2f p99 %.2f us p99.9 %.2f mean %.2f%n",
        label, quiet, q(quietCpu, 0.5) / 1e3, q(quietCpu, 0.9) / 1e3, q(quietCpu, 0.99) / 1e3, q(quietCpu, 0.999) / 1e3, mean(quietCpu) / 1e3);
    int lo = (int) (n * 0.45);
    int hi = (int) (n * 0.55);
    int[] med = new int[hi - lo];
    for (int i = lo; i < hi; i++) {
      med[i - lo] = byWall[i];
    }
    System.err.printf(Locale.ROOT, "PROBE %s: %d updates; cpu p50 %.2f us p99 %.2f us mean %.2f; alloc mean %.0f B%n",
        label, n, q(cpu, 0.5) / 1e3, q(cpu, 0.99) / 1e3, mean(cpu) / 1e3, mean(alloc));
    for (String[] g : new String[][] {{"top1%wall"}, {"top1%cpu"}, {"top1%cpu-kept-core"}, {"median10%"}}) {
      int[] ix = g[0].equals("top1%wall") ? tw : g[0].equals("top1%cpu") ? tc : g[0].equals("median10%") ? med : tq;
      StringBuilder sb = new StringBuilder("PROBE " + label + " " + g[0] + ":");
      sb.append(stat("wall_ns", ix, i -> wall[i]));
      sb.append(stat("cpu_ns", ix, i -> cpu[i]));
      sb.append(stat("alloc_B", ix, i -> alloc[i]));
      sb.append(stat("gc", ix, i -> gc[i]));
      sb.append(stat("slices", ix, i -> slices[i]));
      sb.append(stat("jit_ms", ix, i -> jit[i]));
      sb.append(stat("waited_ns", ix, i -> waited[i]));
      for (int j = 0; j < k; j++) {
        int jj = j;
        sb.append(stat(Probe.NAMES[j], ix, i -> counts[i][jj]));
      }
      System.err.println(sb);
    }
    for (int i = 0; i < n; i++) {
      if (counts[i][Probe.REFILLS] + counts[i][Probe.COMPACTIONS] + gc[i] > 0) {
        System.err.printf(Locale.ROOT, "PROBE %s update %d: refills %d scanned %d taken %d compactions %d gc %d slices %d wall %.1f us cpu %.1f us alloc %d B%n",
            label, i, counts[i][Probe.REFILLS], counts[i][Probe.REFILL_SCANNED], counts[i][Probe.REFILL_TAKEN],
            counts[i][Probe.COMPACTIONS], gc[i], slices[i], wall[i] / 1e3, cpu[i] / 1e3, alloc[i]);
      }
    }
    // positions of the top 1% by cpu within the run (are they periodic?)
    int[] pos = tq.clone();
    Arrays.sort(pos);
    StringBuilder sb = new StringBuilder("PROBE " + label + " top1%cpu-kept-core indexes:");
    for (int i = 0; i < Math.min(60, pos.length); i++) {
      sb.append(' ').append(pos[i]);
    }
    System.err.println(sb);
  }

  private interface F {
    long at(int i);
  }

  private static String stat(String name, int[] ix, F f) {
    long[] v = new long[ix.length];
    long nz = 0;
    double s = 0;
    for (int i = 0; i < ix.length; i++) {
      v[i] = f.at(ix[i]);
      s += v[i];
      nz += v[i] != 0 ? 1 : 0;
    }
    Arrays.sort(v);
    return String.format(Locale.ROOT, "%n   %-16s mean %12.1f p50 %10d p90 %10d max %10d nonzero %5.1f%%", name, s / v.length,
        v[v.length / 2], v[(int) (v.length * 0.9)], v[v.length - 1], 100.0 * nz / v.length);
  }

  private Integer[] order(long[] a) {
    Integer[] ix = new Integer[n];
    for (int i = 0; i < n; i++) {
      ix[i] = i;
    }
    Arrays.sort(ix, (x, y) -> Long.compare(a[x], a[y]));
    return ix;
  }

  private static double q(long[] a, double p) {
    long[] s = a.clone();
    Arrays.sort(s);
    return s[Math.min(s.length - 1, (int) (p * s.length))];
  }

  private static double mean(long[] a) {
    double s = 0;
    for (long x : a) {
      s += x;
    }
    return s / a.length;
  }
}
