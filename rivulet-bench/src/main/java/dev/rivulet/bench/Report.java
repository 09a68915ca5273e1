package dev.rivulet.bench;

import java.io.PrintStream;
import java.util.Locale;

/**
 * Prints one JSON object per line and per figure, e.g. {@code {"workload":"W1","rows":100000,
 * "mix":"random","metric":"update_p50_us","value":0.85}}. {@code mix} is left out for figures
 * that have none; with an engine tag every line starts with {@code "engine":...}, the shape the
 * peer runner reads. A {@link #tagged} report adds fields after {@code mix} (the peer runner
 * ignores them, so tagged lines need metric names of their own). Remembers whether any
 * correctness check failed (a tagged report's failures count for the report it came from).
 */
public final class Report {
  private final PrintStream out;
  private final String engine;
  private final String tags; // pre-rendered ",\"key\":\"value\"" fields, or ""
  private final Report root; // where failures are remembered: this, or the report tagged from
  private boolean failed;

  public Report(PrintStream out) {
    this(out, null);
  }

  /** A report whose lines carry {@code "engine":engine}. */
  public Report(PrintStream out, String engine) {
    this.out = out;
    this.engine = engine;
    this.tags = "";
    this.root = this;
  }

  private Report(Report from, String tags) {
    this.out = from.out;
    this.engine = from.engine;
    this.tags = tags;
    this.root = from.root;
  }

  /** This report with one more string field, {@code "key":value}, on every line. */
  public Report tagged(String key, String value) {
    return new Report(this, tags + "," + quote(key) + ":" + quote(value));
  }

  public void figure(String workload, int rows, String mix, String metric, double value) {
    figure(workload, rows, mix, metric, value, null);
  }

  public void figure(String workload, int rows, String mix, String metric, double value, String detail) {
    print(workload, rows, mix, metric, String.format(Locale.ROOT, "%.3f", value), detail);
  }

  public void count(String workload, int rows, String mix, String metric, long value) {
    print(workload, rows, mix, metric, Long.toString(value), null);
  }

  /** The correctness line: {@code "value":true} or {@code false} with a detail message. */
  public void correct(String workload, int rows, boolean ok, String detail) {
    correct(workload, rows, "correct", ok, detail);
  }

  /** A correctness line under another metric name (a failure counts as for {@code correct}). */
  public void correct(String workload, int rows, String metric, boolean ok, String detail) {
    if (!ok) {
      root.failed = true;
    }
    print(workload, rows, null, metric, Boolean.toString(ok), detail);
  }

  public boolean failed() {
    return root.failed;
  }

  private void print(String workload, int rows, String mix, String metric, String value, String detail) {
    StringBuilder sb = new StringBuilder(160).append('{');
    if (engine != null) {
      sb.append("\"engine\":").append(quote(engine)).append(',');
    }
    sb.append("\"workload\":").append(quote(workload)).append(",\"rows\":").append(rows);
    if (mix != null) {
      sb.append(",\"mix\":").append(quote(mix));
    }
    sb.append(tags);
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
