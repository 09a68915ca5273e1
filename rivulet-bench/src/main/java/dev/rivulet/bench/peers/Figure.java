package dev.rivulet.bench.peers;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One figure line of the workload runners, Rivulet's or a peer's: a flat JSON object with
 * {@code engine} (absent on Rivulet's lines, read as "rivulet"), {@code workload}, {@code rows},
 * {@code mix} (optional), {@code metric}, {@code value} and an optional {@code detail}.
 *
 * @param value a {@link Double}, {@link Boolean} or {@link String}
 */
public record Figure(String engine, String workload, int rows, String mix, String metric, Object value,
    String detail) {

  /** The figure on {@code line}, or null when the line is not a figure (blank, text, other JSON). */
  public static Figure parse(String line) {
    Map<String, Object> o;
    try {
      o = parseObject(line.strip());
    } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
      return null;
    }
    if (o == null || !(o.get("workload") instanceof String w) || !(o.get("metric") instanceof String m)
        || !(o.get("rows") instanceof Double rows) || !o.containsKey("value")) {
      return null;
    }
    return new Figure(o.get("engine") instanceof String e ? e : "rivulet", w, rows.intValue(),
        o.get("mix") instanceof String mix ? mix : null, current(m), o.get("value"),
        o.get("detail") instanceof String d ? d : null);
  }

  /**
   * A metric's current name: the earlier warm names {@code hydrate_ms} (rows in until ready) and
   * {@code query_ms} (the query part) read as {@code load_until_ready_warm_ms} and {@code
   * hydrate_warm_ms}, so older figure files still compare.
   */
  static String current(String metric) {
    return switch (metric) {
      case "hydrate_ms" -> "load_until_ready_warm_ms";
      case "query_ms" -> "hydrate_warm_ms";
      default -> metric;
    };
  }

  /** The value as a number, or NaN when it is not one. */
  public double number() {
    return value instanceof Double d ? d : Double.NaN;
  }

  /** A flat JSON object: string keys; string, number, boolean or null values. Null if not an object. */
  static Map<String, Object> parseObject(String s) {
    if (!s.startsWith("{") || !s.endsWith("}")) {
      return null;
    }
    Map<String, Object> out = new LinkedHashMap<>();
    int[] pos = {1};
    skipSpace(s, pos);
    if (s.charAt(pos[0]) == '}') {
      return out;
    }
    while (true) {
      skipSpace(s, pos);
      String key = string(s, pos);
      skipSpace(s, pos);
      expect(s, pos, ':');
      skipSpace(s, pos);
      char c = s.charAt(pos[0]);
      Object v;
      if (c == '"') {
        v = string(s, pos);
      } else if (s.startsWith("true", pos[0]) || s.startsWith("false", pos[0]) || s.startsWith("null", pos[0])) {
        v = c == 'n' ? null : c == 't';
        pos[0] += c == 'f' ? 5 : 4;
      } else {
        int start = pos[0];
        while ("+-.eE0123456789".indexOf(s.charAt(pos[0])) >= 0) {
          pos[0]++;
        }
        v = Double.parseDouble(s.substring(start, pos[0]));
      }
      out.put(key, v);
      skipSpace(s, pos);
      if (s.charAt(pos[0]) == '}') {
        return out;
      }
      expect(s, pos, ',');
    }
  }

  private static String string(String s, int[] pos) {
    expect(s, pos, '"');
    StringBuilder sb = new StringBuilder();
    for (char c; (c = s.charAt(pos[0]++)) != '"'; ) {
      if (c != '\\') {
        sb.append(c);
        continue;
      }
      char e = s.charAt(pos[0]++);
      switch (e) {
        case 'n' -> sb.append('\n');
        case 't' -> sb.append('\t');
        case 'r' -> sb.append('\r');
        case 'b' -> sb.append('\b');
        case 'f' -> sb.append('\f');
        case 'u' -> {
          sb.append((char) Integer.parseInt(s.substring(pos[0], pos[0] + 4), 16));
          pos[0] += 4;
        }
        default -> sb.append(e);
      }
    }
    return sb.toString();
  }

  private static void expect(String s, int[] pos, char c) {
    if (s.charAt(pos[0]) != c) {
      throw new IllegalArgumentException("expected '" + c + "' at " + pos[0]);
    }
    pos[0]++;
  }

  private static void skipSpace(String s, int[] pos) {
    while (Character.isWhitespace(s.charAt(pos[0]))) {
      pos[0]++;
    }
  }
}
