package dev.rivulet.testkit;

import dev.rivulet.engine.Bytes;
import dev.rivulet.engine.Row;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The text form of a {@link History} (format documented on {@link History#parse}) and of single
 * values and rows. Rendering then parsing gives back equal rows: every canonical value kind has
 * its own literal, so a double and a decimal of different value never read back as each other.
 */
final class HistoryText {
  private HistoryText() {}

  static String render(History h) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < h.size(); i++) {
      sb.append(renderStep(h.step(i), i));
    }
    return sb.toString();
  }

  static String renderStep(History.Step s, int index) {
    StringBuilder sb = new StringBuilder(index >= 0 ? "step " + index + "\n" : "step\n");
    for (History.Change c : s.changes()) {
      sb.append("  ").append(renderChange(c)).append('\n');
    }
    return sb.toString();
  }

  static String renderChange(History.Change c) {
    return c.input() + " " + (c.weight() > 0 ? "+" : "") + c.weight() + " " + renderRow(c.row());
  }

  static String renderRow(Row row) {
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < row.width(); i++) {
      if (i > 0) {
        sb.append(", ");
      }
      sb.append(renderValue(row.get(i)));
    }
    return sb.append(']').toString();
  }

  static String renderValue(Object v) {
    if (v == null) {
      return "NULL";
    }
    if (v instanceof Boolean b) {
      return b ? "TRUE" : "FALSE";
    }
    if (v instanceof Long l) {
      return l.toString();
    }
    if (v instanceof Double d) {
      return d + "d";
    }
    if (v instanceof BigDecimal bd) {
      return bd.toString();
    }
    if (v instanceof String s) {
      return quote(s);
    }
    if (v instanceof Bytes b) {
      return "x'" + HexFormat.of().formatHex(b.toArray()) + "'";
    }
    if (v instanceof LocalDate d) {
      return "DATE '" + d + "'";
    }
    if (v instanceof Instant t) {
      return "TIMESTAMP '" + t + "'";
    }
    throw new IllegalArgumentException("no text form for " + v.getClass().getName() + " value " + v);
  }

  private static String quote(String s) {
    StringBuilder sb = new StringBuilder("'");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '\\' -> sb.append("\\\\");
        case '\'' -> sb.append("\\'");
        case '\n' -> sb.append("\\n");
        default -> {
          if (c < 0x20 || c == 0x7f || Character.isSurrogate(c) || Character.isISOControl(c)) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    return sb.append('\'').toString();
  }

  /** Letters, digits, '_', '-' and '.'; not the keyword {@code step}. */
  static boolean isName(String s) {
    if (s.isEmpty() || s.equals("step")) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!(Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == '.')) {
        return false;
      }
    }
    return true;
  }

  static History parse(String text) {
    List<History.Step> steps = new ArrayList<>();
    List<History.Change> current = null;
    String[] lines = text.split("\r?\n", -1);
    for (int n = 0; n < lines.length; n++) {
      String line = lines[n].strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      Cursor cur = new Cursor(line, n + 1);
      String word = cur.word();
      if (word.equals("step")) {
        cur.skipSpaces();
        if (!cur.atEnd()) {
          cur.integer();
        }
        cur.expectEnd();
        if (current != null) {
          steps.add(new History.Step(current));
        }
        current = new ArrayList<>();
        continue;
      }
      if (current == null) {
        throw cur.error("a change before the first 'step' line");
      }
      if (!isName(word)) {
        throw cur.error("expected an input name, got '" + word + "'");
      }
      cur.skipSpaces();
      long weight = cur.weight();
      cur.skipSpaces();
      Row row = cur.row();
      cur.expectEnd();
      if (weight == 0) {
        throw cur.error("a change needs a non-zero weight");
      }
      current.add(new History.Change(word, row, weight));
    }
    if (current != null) {
      steps.add(new History.Step(current));
    }
    return new History(steps);
  }

  /** Parses one row literal, e.g. {@code [1, 'a', NULL]}. */
  static Row parseRow(String text) {
    Cursor cur = new Cursor(text.strip(), 1);
    Row r = cur.row();
    cur.expectEnd();
    return r;
  }

  /** A position in one line of text, with the small recursive-descent readers of the format. */
  private static final class Cursor {
    private final String s;
    private final int line;
    private int i;

    Cursor(String s, int line) {
      this.s = s;
      this.line = line;
    }

    IllegalArgumentException error(String what) {
      return new IllegalArgumentException("history text, line " + line + ", column " + (i + 1) + ": " + what
          + "\n  " + s);
    }

    boolean atEnd() {
      return i >= s.length();
    }

    void skipSpaces() {
      while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
        i++;
      }
    }

    void expectEnd() {
      skipSpaces();
      if (!atEnd()) {
        throw error("unexpected '" + s.substring(i) + "'");
      }
    }

    void expect(char c) {
      skipSpaces();
      if (atEnd() || s.charAt(i) != c) {
        throw error("expected '" + c + "'");
      }
      i++;
    }

    String word() {
      skipSpaces();
      int from = i;
      while (i < s.length() && !Character.isWhitespace(s.charAt(i)) && s.charAt(i) != '[') {
        i++;
      }
      return s.substring(from, i);
    }

    long integer() {
      String w = word();
      try {
        return Long.parseLong(w);
      } catch (NumberFormatException e) {
        throw error("expected an integer, got '" + w + "'");
      }
    }

    long weight() {
      String w = word();
      if (w.isEmpty() || (w.charAt(0) != '+' && w.charAt(0) != '-')) {
        throw error("expected a signed weight like +1 or -2, got '" + w + "'");
      }
      try {
        return Long.parseLong(w);
      } catch (NumberFormatException e) {
        throw error("expected a signed weight like +1 or -2, got '" + w + "'");
      }
    }

    Row row() {
      expect('[');
      List<Object> values = new ArrayList<>();
      skipSpaces();
      if (i < s.length() && s.charAt(i) == ']') {
        i++;
        return Row.of(values);
      }
      while (true) {
        values.add(value());
        skipSpaces();
        if (atEnd()) {
          throw error("unterminated row, expected ',' or ']'");
        }
        char c = s.charAt(i++);
        if (c == ']') {
          return Row.of(values);
        }
        if (c != ',') {
          i--;
          throw error("expected ',' or ']'");
        }
      }
    }

    Object value() {
      skipSpaces();
      if (atEnd()) {
        throw error("expected a value");
      }
      char c = s.charAt(i);
      if (c == '\'') {
        return string();
      }
      if ((c == 'x' || c == 'X') && i + 1 < s.length() && s.charAt(i + 1) == '\'') {
        i++;
        String hex = string();
        try {
          return HexFormat.of().parseHex(hex);
        } catch (IllegalArgumentException e) {
          throw error("bad hex bytes '" + hex + "'");
        }
      }
      int from = i;
      while (i < s.length() && s.charAt(i) != ',' && s.charAt(i) != ']' && s.charAt(i) != '\''
          && !Character.isWhitespace(s.charAt(i))) {
        i++;
      }
      String w = s.substring(from, i);
      switch (w.toUpperCase(java.util.Locale.ROOT)) {
        case "NULL":
          return null;
        case "TRUE":
          return Boolean.TRUE;
        case "FALSE":
          return Boolean.FALSE;
        case "DATE":
          skipSpaces();
          String d = string();
          try {
            return LocalDate.parse(d);
          } catch (RuntimeException e) {
            throw error("bad date '" + d + "'");
          }
        case "TIMESTAMP":
          skipSpaces();
          String t = string();
          try {
            return Instant.parse(t);
          } catch (RuntimeException e) {
            throw error("bad timestamp '" + t + "'");
          }
        default:
          return number(w, from);
      }
    }

    private Object number(String w, int from) {
      try {
        if (w.endsWith("d") || w.endsWith("D")) {
          return Double.parseDouble(w.substring(0, w.length() - 1));
        }
        if (w.matches("[+-]?\\d+")) {
          try {
            return Long.parseLong(w);
          } catch (NumberFormatException tooBig) {
            return new BigDecimal(w);
          }
        }
        return new BigDecimal(w);
      } catch (NumberFormatException e) {
        i = from;
        throw error("expected a value, got '" + w + "'");
      }
    }

    private String string() {
      if (atEnd() || s.charAt(i) != '\'') {
        throw error("expected a quoted string");
      }
      i++;
      StringBuilder sb = new StringBuilder();
      while (true) {
        if (atEnd()) {
          throw error("unterminated string");
        }
        char c = s.charAt(i++);
        if (c == '\'') {
          return sb.toString();
        }
        if (c != '\\') {
          sb.append(c);
          continue;
        }
        if (atEnd()) {
          throw error("dangling backslash");
        }
        char e = s.charAt(i++);
        switch (e) {
          case '\\' -> sb.append('\\');
          case '\'' -> sb.append('\'');
          case 'n' -> sb.append('\n');
          case 'u' -> {
            if (i + 4 > s.length()) {
              throw error("short unicode escape");
            }
            try {
              sb.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
            } catch (NumberFormatException ex) {
              throw error("bad unicode escape");
            }
            i += 4;
          }
          default -> throw error("unknown escape '\\" + e + "'");
        }
      }
    }
  }
}
