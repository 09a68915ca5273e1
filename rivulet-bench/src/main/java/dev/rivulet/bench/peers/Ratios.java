package dev.rivulet.bench.peers;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Merges Rivulet's figure lines with the peers' and prints, per workload, size, mix, compared
 * metric (W4 also compares its cold {@code hydrate_first_ms}) and peer, one JSON ratio line
 * {@code {"workload","rows","mix","metric":"<m>_ratio","value":peer/rivulet,"engine":peer,
 * "rivulet":r,"peer":p,"rivulet_ok":..,"peer_ok":..}} (value above 1 means Rivulet is faster).
 * The value is {@code "timeout"} when the peer run was killed, {@code "invalid"} when either
 * side's correctness check failed (a fast wrong engine does not count) and {@code null} with a
 * detail when a side has no figure. A readable table goes to {@code table}.
 */
public final class Ratios {
  /** The metrics compared: update latency (median, p99) and rows-in-to-ready. */
  public static final List<String> METRICS = List.of("update_p50_us", "update_p99_us", "hydrate_ms");
  /** Compared for W4 too: its cold rows-in-to-ready (the first build in a fresh process). */
  static final List<String> W4_METRICS = List.of("hydrate_first_ms");

  private final Map<String, Figure> figures = new LinkedHashMap<>();
  private final Set<String> peers = new LinkedHashSet<>();

  public void add(Figure f) {
    figures.put(key(f.engine(), f.workload(), f.rows(), f.mix(), f.metric()), f);
    if (!f.engine().equals("rivulet")) {
      peers.add(f.engine());
    }
  }

  private static String key(String engine, String workload, int rows, String mix, String metric) {
    return engine + "|" + workload + "|" + rows + "|" + mix + "|" + metric;
  }

  private Figure get(String engine, String workload, int rows, String mix, String metric) {
    return figures.get(key(engine, workload, rows, mix, metric));
  }

  /** True unless the engine printed {@code correct:false} for the workload and size (or died). */
  private boolean ok(String engine, String workload, int rows) {
    Figure c = get(engine, workload, rows, null, "correct");
    return c == null || Boolean.TRUE.equals(c.value());
  }

  public void print(PrintStream out, PrintStream table) {
    // Every (workload, rows, mix) that has a compared metric on any side, in first-seen order.
    Set<List<Object>> cases = new LinkedHashSet<>();
    for (Figure f : figures.values()) {
      if (METRICS.contains(f.metric()) || (f.workload().equals("W4") && W4_METRICS.contains(f.metric()))) {
        cases.add(java.util.Arrays.asList(f.workload(), f.rows(), f.mix(), f.metric()));
      }
    }
    for (String peer : peers) {
      for (List<Object> c : cases) {
        String w = (String) c.get(0), mix = (String) c.get(2), metric = (String) c.get(3);
        int rows = (Integer) c.get(1);
        Figure r = get("rivulet", w, rows, mix, metric);
        Figure p = get(peer, w, rows, mix, metric);
        Figure timeout = get(peer, w, rows, null, "timeout");
        if (get(peer, w, rows, null, "unsupported") != null || (p == null && timeout == null && r == null)) {
          continue;
        }
        boolean rOk = ok("rivulet", w, rows), pOk = ok(peer, w, rows) && timeout == null;
        String value, detail = null;
        if (timeout != null && p == null) {
          value = "\"timeout\"";
        } else if (!rOk || !ok(peer, w, rows)) {
          value = "\"invalid\"";
        } else if (r == null || p == null || !(r.number() > 0) || Double.isNaN(p.number())) {
          value = "null";
          detail = (r == null ? "no rivulet figure" : p == null ? "no " + peer + " figure" : "not a positive number");
        } else {
          value = fmt(p.number() / r.number());
        }
        StringBuilder sb = new StringBuilder("{\"workload\":\"").append(w).append("\",\"rows\":").append(rows);
        if (mix != null) {
          sb.append(",\"mix\":\"").append(mix).append('"');
        }
        sb.append(",\"metric\":\"").append(metric).append("_ratio\",\"value\":").append(value)
            .append(",\"engine\":\"").append(peer).append("\",\"rivulet\":").append(r == null ? "null" : fmt(r.number()))
            .append(",\"peer\":").append(p == null ? "null" : fmt(p.number()))
            .append(",\"rivulet_ok\":").append(rOk).append(",\"peer_ok\":").append(pOk);
        if (detail != null) {
          sb.append(",\"detail\":\"").append(detail).append('"');
        }
        out.println(sb.append('}'));
        table.printf(Locale.ROOT, "%-3s %8d %-7s %-14s rivulet %10s  %-8s %10s  -> %s%n", w, rows,
            Objects.toString(mix, "-"), metric, r == null ? "-" : fmt(r.number()), peer,
            p == null ? "-" : fmt(p.number()), value.replace("\"", "") + (value.startsWith("\"") || value.equals("null") ? "" : "x"));
      }
    }
  }

  static String fmt(double v) {
    return Double.isNaN(v) ? "null" : String.format(Locale.ROOT, "%.3f", v);
  }

  /** Parses every figure among {@code lines} (other lines are skipped). */
  public static List<Figure> parseAll(Iterable<String> lines) {
    List<Figure> out = new ArrayList<>();
    for (String l : lines) {
      Figure f = Figure.parse(l);
      if (f != null) {
        out.add(f);
      }
    }
    return out;
  }
}
