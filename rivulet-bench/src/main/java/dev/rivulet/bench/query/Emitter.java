package dev.rivulet.bench.query;

import java.io.PrintStream;
import java.util.Locale;

/**
 * Prints one JSON object per figure, in the shape of the peers' lines so that {@code
 * dev.rivulet.bench.peers.PeerRunner --rivulet FILE} reads them: {@code {"engine":"rivulet",
 * "workload":"W1","rows":100000,"mix":"random","metric":"update_p50_us","value":0.85}}. Remembers
 * whether any correctness check failed.
 */
final class Emitter {
  static final String ENGINE = "rivulet";
  private final PrintStream out;
  private boolean failed;

  Emitter(PrintStream out) {
    this.out = out;
  }

  void figure(String workload, int rows, String mix, String metric, double value) {
    print(workload, rows, mix, metric, String.format(Locale.ROOT, "%.3f", value), null);
  }

  void figure(String workload, int rows, String mix, String metric, double value, String detail) {
    print(workload, rows, mix, metric, String.format(Locale.ROOT, "%.3f", value), detail);
  }

  void count(String workload, int rows, String mix, String metric, long value) {
    print(workload, rows, mix, metric, Long.toString(value), null);
  }

  /** {@code "value":true}, or {@code false} with the first difference as detail. */
  void correct(String workload, int rows, String problem, String phase) {
    if (problem != null) {
      failed = true;
    }
    print(workload, rows, null, "correct", Boolean.toString(problem == null),
        problem == null ? phase : phase == null ? problem : phase + ": " + problem);
  }

  boolean failed() {
    return failed;
  }

  private void print(String workload, int rows, String mix, String metric, String value, String detail) {
    StringBuilder sb = new StringBuilder(160).append("{\"engine\":\"").append(ENGINE).append("\",\"workload\":")
        .append(quote(workload)).append(",\"rows\":").append(rows);
    if (mix != null) {
      sb.append(",\"mix\":").append(quote(mix));
    }
    sb.append(",\"metric\":").append(quote(metric)).append(",\"value\":").append(value);
    if (detail != null) {
      sb.append(",\"detail\":").append(quote(detail));
    }
    out.println(sb.append('}'));
    out.flush();
  }

  static String quote(String s) {
    StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          if (c < 0x20) {
            sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    return sb.append('"').toString();
  }
}
