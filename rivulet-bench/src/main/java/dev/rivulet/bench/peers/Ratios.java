package dev.rivulet.bench.peers;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Merges Rivulet's figure lines with the peers' and prints, per compared metric (in the order of
 * {@link #METRICS}: the cold figures first), workload, size, mix, then per peer, one JSON ratio line
 * {@code {"workload","rows","mix","metric":"<m>_ratio","value":peer/rivulet,"engine":peer,
 * "rivulet":r,"peer":p,"rivulet_ok":..,"peer_ok":..}} (value above 1 means Rivulet is faster, or
 * smaller). A cold metric (name ending in {@code _cold_ms}) arrives once per fresh process; its
 * value is the median of the samples, and the line adds {@code rivulet_runs} and {@code
 * peer_runs}. The value is {@code "timeout"} when the peer run was killed, {@code "invalid"} when
 * either side's correctness check ({@code correct}, {@code correct_cold} or {@code
 * correct_memory}, any run) failed (a fast wrong engine does not count) and {@code null} with a
 * detail when a side has no figure. A readable table goes to {@code table}.
 */
public final class Ratios {
  /** The metrics compared, in the order printed: the cold headline, warm, updates, memory. */
  public static final List<String> METRICS = List.of("hydrate_cold_ms", "load_until_ready_cold_ms",
      "hydrate_warm_ms", "load_until_ready_warm_ms", "update_p50_us", "update_p99_us", "heap_bytes_per_row");
  /** Compared for W4 and W6 too: the in-process first build (rows in until ready). */
  static final List<String> FIRST_METRICS = List.of("hydrate_first_ms");
  /** The workloads {@link #FIRST_METRICS} are compared for: the nested view and the text-ordered window. */
  static final Set<String> FIRST_WORKLOADS = Set.of("W4", "W6");
  private static final List<String> CHECKS = List.of("correct", "correct_cold", "correct_memory");

  private final Map<String, Figure> figures = new LinkedHashMap<>();
  private final Map<String, List<Double>> samples = new LinkedHashMap<>();
  private final Set<String> peers = new LinkedHashSet<>();

  public void add(Figure f) {
    String key = key(f.engine(), f.workload(), f.rows(), f.mix(), f.metric());
    if (!f.engine().equals("rivulet")) {
      peers.add(f.engine());
    }
    if (isCold(f.metric()) && !Double.isNaN(f.number())) {
      List<Double> s = samples.computeIfAbsent(key, k -> new ArrayList<>());
      s.add(f.number());
      f = new Figure(f.engine(), f.workload(), f.rows(), f.mix(), f.metric(), median(s),
          "median of " + s.size() + " fresh processes");
    } else if (CHECKS.contains(f.metric()) && figures.containsKey(key)
        && !Boolean.TRUE.equals(figures.get(key).value())) {
      return; // a failed check stays failed, whichever run comes later
    }
    figures.put(key, f);
  }

  static boolean isCold(String metric) {
    return metric.endsWith("_cold_ms");
  }

  private static double median(List<Double> xs) {
    double[] v = xs.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    int n = v.length;
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }

  private static String key(String engine, String workload, int rows, String mix, String metric) {
    return engine + "|" + workload + "|" + rows + "|" + mix + "|" + metric;
  }

  private Figure get(String engine, String workload, int rows, String mix, String metric) {
    return figures.get(key(engine, workload, rows, mix, metric));
  }

  /** True unless the engine printed a failed check for the workload and size (or died). */
  private boolean ok(String engine, String workload, int rows) {
    for (String m : CHECKS) {
      Figure c = get(engine, workload, rows, null, m);
      if (c != null && !Boolean.TRUE.equals(c.value())) {
        return false;
      }
    }
    return true;
  }

  private int runs(String engine, String workload, int rows, String mix, String metric) {
    List<Double> s = samples.get(key(engine, workload, rows, mix, metric));
    return s == null ? 0 : s.size();
  }

  public void print(PrintStream out, PrintStream table) {
    // Every (workload, rows, mix, metric) compared on any side: by metric (cold first), then first seen.
    Set<List<Object>> seen = new LinkedHashSet<>();
    for (Figure f : figures.values()) {
      if (METRICS.contains(f.metric()) || (FIRST_WORKLOADS.contains(f.workload()) && FIRST_METRICS.contains(f.metric()))) {
        seen.add(Arrays.asList(f.workload(), f.rows(), f.mix(), f.metric()));
      }
    }
    List<List<Object>> cases = new ArrayList<>(seen);
    cases.sort(Comparator.comparingInt(c -> {
      int i = METRICS.indexOf((String) c.get(3));
      return i < 0 ? METRICS.size() : i;
    }));
    for (List<Object> c : cases) {
      for (String peer : peers) {
        String line = line(peer, (String) c.get(0), (Integer) c.get(1), (String) c.get(2), (String) c.get(3), table);
        if (line != null) {
          out.println(line);
        }
      }
    }
  }

  /** The ratio line of one case and peer (and its table row), or null when the peer does not run it. */
  private String line(String peer, String w, int rows, String mix, String metric, PrintStream table) {
    Figure r = get("rivulet", w, rows, mix, metric);
    Figure p = get(peer, w, rows, mix, metric);
    Figure timeout = get(peer, w, rows, null, "timeout");
    if (get(peer, w, rows, null, "unsupported") != null || (p == null && timeout == null && r == null)) {
      return null;
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
    String runs = "";
    if (isCold(metric)) {
      int rr = runs("rivulet", w, rows, mix, metric), pr = runs(peer, w, rows, mix, metric);
      sb.append(",\"rivulet_runs\":").append(rr).append(",\"peer_runs\":").append(pr);
      runs = String.format(Locale.ROOT, "  (runs %d/%d)", rr, pr);
    }
    if (detail != null) {
      sb.append(",\"detail\":\"").append(detail).append('"');
    }
    table.printf(Locale.ROOT, "%-3s %8d %-7s %-24s rivulet %10s  %-8s %10s  -> %s%s%n", w, rows,
        Objects.toString(mix, "-"), metric, r == null ? "-" : fmt(r.number()), peer,
        p == null ? "-" : fmt(p.number()),
        value.replace("\"", "") + (value.startsWith("\"") || value.equals("null") ? "" : "x"), runs);
    return sb.append('}').toString();
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
