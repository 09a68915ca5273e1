package dev.rivulet.query.ref;

import java.util.Locale;

/**
 * The reference's text operations, on Unicode code points (never UTF-16 units), as the README and
 * SQLite define them; plain algorithms, chosen to be obviously right rather than fast.
 */
public final class RefStrings {
  private RefStrings() {}

  /**
   * {@code text LIKE pattern}: {@code %} matches any run of characters (also none), {@code _}
   * exactly one, every other character itself; the whole text must match. ILIKE is LIKE after
   * lower-casing both with {@link Locale#ROOT}. Decided by the textbook table: {@code m[i][j]} says
   * whether the first {@code i} characters of the text match the first {@code j} of the pattern.
   */
  public static boolean like(String text, String pattern, boolean caseInsensitive) {
    int[] t = (caseInsensitive ? text.toLowerCase(Locale.ROOT) : text).codePoints().toArray();
    int[] p = (caseInsensitive ? pattern.toLowerCase(Locale.ROOT) : pattern).codePoints().toArray();
    boolean[][] m = new boolean[t.length + 1][p.length + 1];
    m[0][0] = true;
    for (int j = 1; j <= p.length; j++) {
      m[0][j] = m[0][j - 1] && p[j - 1] == '%';
    }
    for (int i = 1; i <= t.length; i++) {
      for (int j = 1; j <= p.length; j++) {
        int c = p[j - 1];
        if (c == '%') {
          m[i][j] = m[i][j - 1] || m[i - 1][j];
        } else {
          m[i][j] = m[i - 1][j - 1] && (c == '_' || c == t[i - 1]);
        }
      }
    }
    return m[t.length][p.length];
  }

  /**
   * {@code text LIKE pattern ESCAPE escape} (ILIKE when {@code caseInsensitive}): the pattern is
   * first read with its escape character, which makes the character after it literal (also {@code
   * %}, {@code _} and the escape itself); for ILIKE each literal character is then the code points
   * it becomes in the whole pattern lower-cased with {@link Locale#ROOT} (a capital sigma is final
   * or not by its neighbours there, as without an escape), and the text is lower-cased the same
   * way. A pattern ending with its escape character is malformed: the result is NULL (as H2 gives
   * for a pattern computed per row).
   */
  public static Boolean like(String text, String pattern, boolean caseInsensitive, int escape) {
    final int anyRun = -1;
    final int anyOne = -2;
    java.util.List<Integer> tokens = new java.util.ArrayList<>();
    int[] cps = pattern.codePoints().toArray();
    int[][] shown = caseInsensitive ? lowerInPattern(pattern) : null;
    for (int i = 0; i < cps.length; i++) {
      int c = cps[i];
      if (c == escape) {
        if (i + 1 == cps.length) {
          return null;
        }
        i++; // the next character, taken literally
      } else if (c == '%' || c == '_') {
        tokens.add(c == '%' ? anyRun : anyOne);
        continue;
      }
      for (int x : caseInsensitive ? shown[i] : new int[] {cps[i]}) {
        tokens.add(x);
      }
    }
    int[] t = (caseInsensitive ? text.toLowerCase(Locale.ROOT) : text).codePoints().toArray();
    int[] p = tokens.stream().mapToInt(Integer::intValue).toArray();
    boolean[][] m = new boolean[t.length + 1][p.length + 1];
    m[0][0] = true;
    for (int j = 1; j <= p.length; j++) {
      m[0][j] = m[0][j - 1] && p[j - 1] == anyRun;
    }
    for (int i = 1; i <= t.length; i++) {
      for (int j = 1; j <= p.length; j++) {
        int c = p[j - 1];
        if (c == anyRun) {
          m[i][j] = m[i][j - 1] || m[i - 1][j];
        } else {
          m[i][j] = m[i - 1][j - 1] && (c == anyOne || c == t[i - 1]);
        }
      }
    }
    return m[t.length][p.length];
  }

  /**
   * Per code point of {@code pattern}, the code points it is in the whole pattern lower-cased with
   * {@link Locale#ROOT} (a capital sigma's lower case depends on its neighbours): each becomes as
   * many code points there as it does alone, so they are cut off in order.
   */
  public static int[][] lowerInPattern(String pattern) {
    int[] cps = pattern.codePoints().toArray();
    int[] lowered = pattern.toLowerCase(Locale.ROOT).codePoints().toArray();
    int[][] out = new int[cps.length][];
    int from = 0;
    for (int i = 0; i < cps.length; i++) {
      int n = (int) new String(Character.toChars(cps[i])).toLowerCase(Locale.ROOT).codePoints().count();
      out[i] = java.util.Arrays.copyOfRange(lowered, from, from + n);
      from += n;
    }
    if (from != lowered.length) {
      throw new IllegalStateException("lower-casing " + pattern + " does not line up code point by code point");
    }
    return out;
  }

  /** The number of code points. */
  public static long length(String s) {
    return s.codePoints().count();
  }

  /** {@code s} without leading and trailing U+0020 spaces (other white space stays). */
  public static String trim(String s) {
    int b = 0;
    int e = s.length();
    while (b < e && s.charAt(b) == ' ') {
      b++;
    }
    while (e > b && s.charAt(e - 1) == ' ') {
      e--;
    }
    return s.substring(b, e);
  }

  /**
   * SQLite's {@code substr(s, y, z)}: the code points at positions {@code p} (numbered from 1)
   * with {@code lo <= p < hi}, where {@code start} is {@code y} for {@code y > 0}, {@code n + y +
   * 1} for {@code y < 0} (so -1 is the last) and 0 for {@code y = 0} (the position before the
   * first); {@code [lo, hi)} is {@code [start, start + z)} for {@code z >= 0} and {@code [start +
   * z, start)} for {@code z < 0}. Without a length ({@code z} null) the length is 2<sup>63</sup> - 1,
   * as in SQLite: it runs to the end, except from a start so far before the first position that
   * even that length ends inside the string (SQLite's {@code substr('abc', -9223372036854775808)}
   * is {@code 'ab'}).
   */
  public static String substring(String s, long y, Long z) {
    int[] cps = s.codePoints().toArray();
    long n = cps.length;
    long start = y > 0 ? y : y < 0 ? n + y + 1 : 0;
    long lo;
    long hi;
    if (z == null) {
      lo = start;
      hi = saturated(start, Long.MAX_VALUE);
    } else if (z >= 0) {
      lo = start;
      hi = saturated(start, z);
    } else {
      lo = saturated(start, z);
      hi = start;
    }
    StringBuilder out = new StringBuilder();
    for (int p = 1; p <= n; p++) {
      if (lo <= p && p < hi) {
        out.appendCodePoint(cps[p - 1]);
      }
    }
    return out.toString();
  }

  private static long saturated(long a, long b) {
    try {
      return Math.addExact(a, b);
    } catch (ArithmeticException overflow) {
      return b > 0 ? Long.MAX_VALUE : Long.MIN_VALUE;
    }
  }
}
