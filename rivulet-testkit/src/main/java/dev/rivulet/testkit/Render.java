package dev.rivulet.testkit;

import dev.rivulet.engine.Row;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Text for failure messages: multisets and windows in a stable order (rows in the reference's
 * {@link RefValues#compareRows} order, then by their values' classes, so that rows the engine
 * holds differently never merge), and the differences between an expected and an actual state.
 */
final class Render {
  private static final Comparator<Row> ORDER = RefValues.ROW_ORDER.thenComparing(Render::classes);

  private Render() {}

  private static String classes(Row r) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < r.width(); i++) {
      Object v = r.get(i);
      sb.append(v == null ? "-" : v.getClass().getName()).append(',').append(v);
    }
    return sb.toString();
  }

  private static <V> Map<Row, V> sorted(Map<Row, V> m) {
    Map<Row, V> out = new TreeMap<>(ORDER);
    out.putAll(m);
    return out;
  }

  /** {@code {[1, 'a'] x2, [2, NULL]}}: rows in order, multiplicities other than one shown. */
  static String multiset(Map<Row, Long> m) {
    StringBuilder sb = new StringBuilder("{");
    boolean first = true;
    for (Map.Entry<Row, Long> e : sorted(m).entrySet()) {
      if (!first) {
        sb.append(", ");
      }
      first = false;
      sb.append(HistoryText.renderRow(e.getKey()));
      if (e.getValue() != 1) {
        sb.append(" x").append(e.getValue());
      }
    }
    return sb.append('}').toString();
  }

  /** Rows whose multiplicity differs: {@code missing {...}; unexpected {...}}. */
  static String multisetDiff(Map<Row, Long> expected, Map<Row, Long> actual) {
    Map<Row, Long> missing = new TreeMap<>(ORDER);
    Map<Row, Long> unexpected = new TreeMap<>(ORDER);
    TreeSet<Row> all = new TreeSet<>(ORDER);
    all.addAll(expected.keySet());
    all.addAll(actual.keySet());
    for (Row r : all) {
      long d = expected.getOrDefault(r, 0L) - actual.getOrDefault(r, 0L);
      if (d > 0) {
        missing.put(r, d);
      } else if (d < 0) {
        unexpected.put(r, -d);
      }
    }
    return "missing " + multiset(missing) + "; unexpected " + multiset(unexpected);
  }

  static String list(List<Row> rows) {
    List<String> parts = new ArrayList<>(rows.size());
    for (Row r : rows) {
      parts.add(HistoryText.renderRow(r));
    }
    return "[" + String.join(", ", parts) + "]";
  }

  /** Partition key -> window list, partitions in key order. */
  static String windows(Map<Row, List<Row>> w) {
    StringBuilder sb = new StringBuilder("{");
    boolean first = true;
    for (Map.Entry<Row, List<Row>> e : sorted(w).entrySet()) {
      if (!first) {
        sb.append(", ");
      }
      first = false;
      sb.append(HistoryText.renderRow(e.getKey())).append(": ").append(list(e.getValue()));
    }
    return sb.append('}').toString();
  }

  /** The first partition whose lists differ, and the first differing position in it; or "". */
  static String windowsDiff(Map<Row, List<Row>> expected, Map<Row, List<Row>> actual) {
    TreeSet<Row> keys = new TreeSet<>(ORDER);
    keys.addAll(expected.keySet());
    keys.addAll(actual.keySet());
    for (Row k : keys) {
      List<Row> e = expected.getOrDefault(k, List.of());
      List<Row> a = actual.getOrDefault(k, List.of());
      if (e.equals(a)) {
        continue;
      }
      int i = 0;
      while (i < e.size() && i < a.size() && Objects.equals(e.get(i), a.get(i))) {
        i++;
      }
      return "partition " + HistoryText.renderRow(k) + " first differs at position " + i + ": expected "
          + (i < e.size() ? HistoryText.renderRow(e.get(i)) : "end of window (size " + e.size() + ")")
          + ", actual " + (i < a.size() ? HistoryText.renderRow(a.get(i)) : "end of window (size " + a.size() + ")");
    }
    return "";
  }
}
