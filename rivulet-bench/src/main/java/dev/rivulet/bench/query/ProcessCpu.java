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
  private static final String WAIT = "wait_";

  private ProcessCpu() {}

  /**
   * Nanoseconds on a core so far per role, and the whole process's under {@code "all"} (ended
   * threads too); under {@code "wait_<role>"}, the role's nanoseconds runnable but waiting for a core.
   */
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
          String[] f = sched.split(" ");
          byRole.merge(role(comm), Long.parseLong(f[0]), Long::sum);
          byRole.merge(WAIT + role(comm), Long.parseLong(f[1]), Long::sum);
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
   * Prints {@code cold_cpu_ms_<role>} for each role, its CPU time between the two snapshots, {@code
   * cold_wait_ms_<role>}, the time its threads were ready to run but waited for a core (on two
   * cores, what the compilers and the warm-up cost the main thread), and {@code cold_cpu_ms_ended}:
   * the process's time not in a thread still running at the end (the warm-up's, once its thread
   * has finished).
   */
  static void report(Report out, String name, int rows, Map<String, Long> before, Map<String, Long> after) {
    long listed = 0;
    for (var e : after.entrySet()) {
      long ns = e.getValue() - before.getOrDefault(e.getKey(), 0L);
      if (e.getKey().startsWith(WAIT)) {
        out.figure(name, rows, null, "cold_wait_ms_" + e.getKey().substring(WAIT.length()), ns / 1e6);
        continue;
      }
      listed += e.getKey().equals("all") ? 0 : ns;
      out.figure(name, rows, null, "cold_cpu_ms_" + e.getKey(), ns / 1e6);
    }
    if (after.containsKey("all")) {
      out.figure(name, rows, null, "cold_cpu_ms_ended", (after.get("all") - before.get("all") - listed) / 1e6);
    }
  }
}
