package dev.rivulet.bench.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.rivulet.bench.Report;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** The cold runs' CPU by thread role: a thread's time lands under its role, and an ended thread's under "ended". */
class ProcessCpuTest {
  @Test
  void aBusyThreadsTimeLandsUnderItsRoleThenUnderEndedOnceItHasFinished() throws Exception {
    assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux /proc only");
    Map<String, Long> before = ProcessCpu.snapshot();
    CountDownLatch spun = new CountDownLatch(1);
    CountDownLatch seen = new CountDownLatch(1);
    Thread t = new Thread(() -> {
      spinCpu(40);
      spun.countDown();
      try {
        seen.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "rivulet-warmup");
    t.start();
    spun.await();
    Map<String, Long> during = ProcessCpu.snapshot();
    seen.countDown();
    t.join();
    assertThat(during.get("warmup")).isGreaterThanOrEqualTo(40_000_000L);
    assertThat(before).doesNotContainKey("warmup");
    Map<String, Long> after = ProcessCpu.snapshot();
    assertThat(after).doesNotContainKey("warmup"); // its thread has ended

    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ProcessCpu.report(new Report(new PrintStream(bytes, true, StandardCharsets.UTF_8)), "W0", 1, before, after);
    String printed = bytes.toString(StandardCharsets.UTF_8);
    assertThat(printed).contains("\"cold_cpu_ms_main\"").contains("\"cold_cpu_ms_all\"");
    double ended = value(printed, "cold_cpu_ms_ended");
    assertThat(ended).isGreaterThanOrEqualTo(40.0 - 10.0); // the process clock ticks in 10 ms on some kernels
  }

  /** Runs until this thread has had {@code ms} of CPU time (however busy the machine). */
  private static void spinCpu(long ms) {
    var threads = ManagementFactory.getThreadMXBean();
    long end = threads.getCurrentThreadCpuTime() + ms * 1_000_000L;
    while (threads.getCurrentThreadCpuTime() < end) {
      Thread.onSpinWait();
    }
  }

  private static double value(String printed, String metric) {
    for (String line : printed.split("\n")) {
      if (line.contains("\"" + metric + "\"")) {
        return Double.parseDouble(line.replaceAll(".*\"value\":([-0-9.]+).*", "$1"));
      }
    }
    throw new AssertionError(metric + " not printed: " + printed);
  }
}
