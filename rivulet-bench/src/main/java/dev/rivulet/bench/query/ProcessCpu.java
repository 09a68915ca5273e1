package dev.rivulet.bench.query;

import dev.rivulet.bench.Report;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.TreeMap;

/**
 * The CPU time of every thread of this process, grouped by role (main, the engine's warm-up, the
 * C1 and C2 compilers, the collector, the rest), read from Linux's {@code /proc/self/task/*\/schedstat}
 * (nanoseconds on a core). A cold build prints the difference over its load and hydration: on a
 * machine whose cores the compilers and the warm-up share with the application, it shows where the
 * process's CPU went while the user waited. Empty where {@code /proc} is not there.
 */
final class ProcessCpu {
  private ProcessCpu() {}

  /** Nanoseconds on a core so far per role, and the whole process's under {@code "all"} (ended threads too). */
  static Map<String, Long> snapshot() {
    Map<String, Long> byRole = new TreeMap<>();
    if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
      byRole.put("all", os.getProcessCpuTime());
    }
    Path tasks = Path.of("/proc/self/task");
    if (!Files.isDirectory(tasks)) {
      return byRole;
    }
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(tasks)) {
      for (Path t : ds) {
        try {
          String comm = Files.readString(t.resolve("comm")).trim();
          String sched = Files.readString(t.resolve("schedstat")).trim();
          long ns = Long.parseLong(sched.substring(0, sched.indexOf(' ')));
          byRole.merge(role(comm), ns, Long::sum);
        } catch (IOException | RuntimeException e) {
          // the thread ended between the listing and the read: its time is no longer counted anywhere
        }
      }
    } catch (IOException e) {
      return byRole;
    }
    return byRole;
  }

  private static String role(String comm) {
    if (comm.equals("main") || comm.equals("java")) {
      return "main";
    }
    if (comm.startsWith("rivulet-warmup")) {
      return "warmup";
    }
    if (comm.startsWith("C1 ")) {
      return "c1";
    }
    if (comm.startsWith("C2 ")) {
      return "c2";
    }
    if (comm.startsWith("GC ") || comm.startsWith("G1 ")) {
      return "gc";
    }
    return "other";
  }

  /**
   * Prints {@code cold_cpu_ms_<role>} for each role, its CPU time between the two snapshots, and
   * {@code cold_cpu_ms_ended}: the process's time not in a thread still running at the end (the
   * warm-up's, once its thread has finished).
   */
  static void report(Report out, String name, int rows, Map<String, Long> before, Map<String, Long> after) {
    long listed = 0;
    for (var e : after.entrySet()) {
      long ns = e.getValue() - before.getOrDefault(e.getKey(), 0L);
      listed += e.getKey().equals("all") ? 0 : ns;
      out.figure(name, rows, null, "cold_cpu_ms_" + e.getKey(), ns / 1e6);
    }
    if (after.containsKey("all")) {
      out.figure(name, rows, null, "cold_cpu_ms_ended", (after.get("all") - before.get("all") - listed) / 1e6);
    }
  }
}
