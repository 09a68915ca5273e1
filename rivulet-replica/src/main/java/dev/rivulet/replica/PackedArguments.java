package dev.rivulet.replica;

import java.sql.SQLException;

/**
 * Reads the arguments of a packed capture call: the JSON array SQLite's {@code json_array} made of
 * them (an integer as its digits, a real with a fraction or an exponent and all the digits it
 * needs, text quoted with JSON escapes, NULL as {@code null}; a blob argument is never packed).
 * A text equal to the one the same position read last is handed out as the same string (no new
 * string per row for a column whose value repeats).
 *
 * <p>Owned by one {@link Capture}: called only on the thread that runs a statement.
 */
final class PackedArguments {
  // per position: the last text read, handed out again while a column repeats its value
  private final String[] lastText;

  /** Reads arrays of up to {@code positions} values. */
  PackedArguments(int positions) {
    this.lastText = new String[positions];
  }

  /**
   * Reads {@code json}, an array of at least {@code from + out.length} values, into {@code out}:
   * its values {@code from} to {@code from + out.length}.
   *
   * @throws SQLException when {@code json} is not such an array
   */
  void read(String json, int from, Object[] out) throws SQLException {
    int at = skip(json, 0, '[');
    for (int i = 0; i < from + out.length; i++) {
      if (i > 0) {
        at = skip(json, at, ',');
      }
      if (i < from) {
        at = skipValue(json, at);
        continue;
      }
      int end;
      char c = json.charAt(at);
      if (c == '"') {
        end = text(json, at + 1, i, out, i - from);
      } else if (c == 'n') {
        end = at + 4; // null
        out[i - from] = null;
      } else {
        end = number(json, at);
        out[i - from] = numberValue(json, at, end);
      }
      at = end;
    }
  }

  /** The position after {@code expected} at {@code at}. */
  private static int skip(String json, int at, char expected) throws SQLException {
    if (at >= json.length() || json.charAt(at) != expected) {
      throw new SQLException("rivulet capture: '" + expected + "' expected at " + at + " of " + json);
    }
    return at + 1;
  }

  /** The position after the value that starts at {@code at}. */
  private static int skipValue(String json, int at) {
    char c = json.charAt(at);
    if (c == 'n') {
      return at + 4;
    }
    if (c != '"') {
      return number(json, at);
    }
    int i = at + 1;
    while (json.charAt(i) != '"') {
      i += json.charAt(i) == '\\' ? 2 : 1;
    }
    return i + 1;
  }

  /** The end of the number that starts at {@code at}. */
  private static int number(String json, int at) {
    int i = at;
    int n = json.length();
    while (i < n && json.charAt(i) != ',' && json.charAt(i) != ']') {
      i++;
    }
    return i;
  }

  /** The number from {@code at} to {@code end}: a long unless it has a fraction or an exponent. */
  private static Object numberValue(String json, int at, int end) throws SQLException {
    for (int i = at; i < end; i++) {
      char c = json.charAt(i);
      if (c == '.' || c == 'e' || c == 'E') {
        return Double.parseDouble(json.substring(at, end)); // 9.0e+999 reads as an infinity
      }
    }
    try {
      return Long.parseLong(json, at, end, 10);
    } catch (NumberFormatException e) {
      throw new SQLException("rivulet capture: not a number at " + at + " of " + json, e);
    }
  }

  /**
   * Reads the text whose first character is at {@code at} into {@code out[slot]} (the last string
   * of {@code position} when it is the same); returns the position after its closing quote.
   */
  private int text(String json, int at, int position, Object[] out, int slot) {
    int i = at;
    while (true) {
      char c = json.charAt(i);
      if (c == '"') {
        break;
      }
      if (c == '\\') {
        return escaped(json, at, position, out, slot);
      }
      i++;
    }
    int length = i - at;
    String last = lastText[position];
    if (last != null && last.length() == length && json.regionMatches(at, last, 0, length)) {
      out[slot] = last;
    } else {
      String s = json.substring(at, i);
      lastText[position] = s;
      out[slot] = s;
    }
    return i + 1;
  }

  /** Like {@link #text}, for a text with escapes. */
  private int escaped(String json, int at, int position, Object[] out, int slot) {
    StringBuilder s = new StringBuilder();
    int i = at;
    while (true) {
      char c = json.charAt(i++);
      if (c == '"') {
        break;
      }
      if (c != '\\') {
        s.append(c);
        continue;
      }
      char e = json.charAt(i++);
      switch (e) {
        case 'b' -> s.append('\b');
        case 'f' -> s.append('\f');
        case 'n' -> s.append('\n');
        case 'r' -> s.append('\r');
        case 't' -> s.append('\t');
        case 'u' -> {
          s.append((char) Integer.parseInt(json, i, i + 4, 16));
          i += 4;
        }
        default -> s.append(e); // \" \\ \/
      }
    }
    String text = s.toString();
    String last = lastText[position];
    if (text.equals(last)) {
      text = last;
    } else {
      lastText[position] = text;
    }
    out[slot] = text;
    return i;
  }
}
