package dev.rivulet.query.expr;

import java.util.Locale;

/**
 * A compiled LIKE pattern. {@code %} matches any run of characters (also none), {@code _} exactly
 * one character, and every other character itself, case-sensitively. With an escape character
 * ({@code LIKE p ESCAPE e}), {@code e} followed by any character stands for that character itself
 * (so {@code \%} matches a literal percent sign and {@code \\} a backslash); a pattern that ends
 * with {@code e} is malformed ({@link #compile} refuses it). Characters are Unicode code points, so
 * {@code _} matches one emoji even though Java holds it in two UTF-16 units. The pattern must match
 * the whole text.
 *
 * <p>ILIKE is LIKE after lower-casing text and pattern with {@link Locale#ROOT} ({@link #ilike}).
 * With an escape character, which characters are wildcards and escapes is read from the pattern as
 * written (so it does not depend on case), and each literal character is lower-cased as it is in
 * the whole pattern lower-cased: a capital sigma becomes a final sigma or not by its neighbours in
 * the pattern, wildcards included, exactly as without an escape character.
 *
 * <p>Immutable and thread-safe.
 */
final class LikePattern {
  /*
   * The pattern is kept as code points with two negative markers. Patterns of the common shapes
   * (no wildcard, 'abc%', '%abc', '%abc%') compare with String methods; those are exact in code
   * points too, because a well-formed literal can neither start nor end inside a surrogate pair
   * (a literal with an unpaired surrogate takes the general matcher).
   * Any other pattern runs the greedy matcher with one backtrack point (the last '%' seen): on a
   * mismatch it retries with that '%' taking one more character. That is complete for patterns
   * with only '%' and '_' and takes O(text * pattern) steps at worst.
   */
  private static final int ANY_RUN = -1;
  private static final int ANY_ONE = -2;
  /** No escape character. */
  static final int NO_ESCAPE = -1;

  private enum Shape { EXACT, PREFIX, SUFFIX, CONTAINS, GENERAL }

  private final int[] pattern;
  private final Shape shape;
  private final String literal;
  private final boolean lowerCase;

  private LikePattern(int[] tokens, boolean lowerCase) {
    this.lowerCase = lowerCase;
    int[] out = new int[tokens.length];
    int n = 0;
    for (int token : tokens) {
      if (token == ANY_RUN && n > 0 && out[n - 1] == ANY_RUN) {
        continue;
      }
      out[n++] = token;
    }
    this.pattern = java.util.Arrays.copyOf(out, n);
    int runs = 0;
    int ones = 0;
    for (int t : this.pattern) {
      runs += t == ANY_RUN ? 1 : 0;
      ones += t == ANY_ONE ? 1 : 0;
    }
    boolean lead = n > 0 && this.pattern[0] == ANY_RUN;
    boolean trail = n > 0 && this.pattern[n - 1] == ANY_RUN;
    Shape s = Shape.GENERAL;
    String lit = null;
    if (ones == 0) {
      if (runs == 0) {
        s = Shape.EXACT;
        lit = text(this.pattern, 0, n);
      } else if (runs == 1 && trail) {
        s = Shape.PREFIX;
        lit = text(this.pattern, 0, n - 1);
      } else if (runs == 1 && lead) {
        s = Shape.SUFFIX;
        lit = text(this.pattern, 1, n);
      } else if (runs == 2 && lead && trail) {
        s = Shape.CONTAINS;
        lit = text(this.pattern, 1, n - 1);
      }
    }
    if (lit != null && s != Shape.EXACT && hasLoneSurrogate(lit)) {
      // String.startsWith / endsWith / contains would match a lone surrogate against one half of
      // a pair, which is no character of the text: leave such a literal to the general matcher.
      s = Shape.GENERAL;
      lit = null;
    }
    this.shape = s;
    this.literal = lit;
  }

  private static boolean hasLoneSurrogate(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return true;
      }
    }
    return false;
  }

  /** A case-sensitive LIKE pattern. */
  static LikePattern like(String pattern) {
    return compile(pattern, false, NO_ESCAPE);
  }

  /** An ILIKE pattern: texts are lower-cased with {@link Locale#ROOT} before matching. */
  static LikePattern ilike(String pattern) {
    return compile(pattern, true, NO_ESCAPE);
  }

  /**
   * A LIKE ({@code ci} false) or ILIKE pattern with escape code point {@code escape} ({@link
   * #NO_ESCAPE} for none).
   *
   * @throws IllegalArgumentException when the pattern ends with the escape character
   */
  static LikePattern compile(String pattern, boolean ci, int escape) {
    if (escape == NO_ESCAPE) {
      return new LikePattern(tokens(ci ? pattern.toLowerCase(Locale.ROOT) : pattern), ci);
    }
    int[] cps = pattern.codePoints().toArray();
    int[][] lower = ci ? lowerInContext(pattern, cps) : null;
    Tokens out = new Tokens(cps.length);
    for (int i = 0; i < cps.length; i++) {
      int cp = cps[i];
      if (cp == escape) {
        if (++i == cps.length) {
          throw new IllegalArgumentException("ends with its escape character");
        }
      } else if (cp == '%' || cp == '_') {
        out.add(cp == '%' ? ANY_RUN : ANY_ONE);
        continue;
      }
      out.literal(cps, lower, i);
    }
    return new LikePattern(out.toArray(), ci);
  }

  /**
   * Per code point of {@code pattern} ({@code cps}), the code points it becomes when the whole
   * pattern is lower-cased with {@link Locale#ROOT}: the lower case of a capital sigma depends on
   * its neighbours. Lower-casing in that locale maps each code point to as many code points as it
   * maps to alone (U+0130 to two, the rest to one; a final sigma is one), which lines the two up;
   * should a JDK ever differ, each code point is lower-cased alone.
   */
  private static int[][] lowerInContext(String pattern, int[] cps) {
    int[][] out = new int[cps.length][];
    int total = 0;
    for (int i = 0; i < cps.length; i++) {
      out[i] = new String(Character.toChars(cps[i])).toLowerCase(Locale.ROOT).codePoints().toArray();
      total += out[i].length;
    }
    int[] whole = pattern.toLowerCase(Locale.ROOT).codePoints().toArray();
    if (total == whole.length) {
      for (int i = 0, at = 0; i < cps.length; at += out[i].length, i++) {
        out[i] = java.util.Arrays.copyOfRange(whole, at, at + out[i].length);
      }
    }
    return out;
  }

  /** A growable array of tokens (lower-casing may lengthen a character, e.g. U+0130). */
  private static final class Tokens {
    private int[] a;
    private int n;

    Tokens(int capacity) {
      a = new int[Math.max(4, capacity)];
    }

    void add(int token) {
      if (n == a.length) {
        a = java.util.Arrays.copyOf(a, 2 * n);
      }
      a[n++] = token;
    }

    /** Adds literal code point {@code cps[i]}, as {@code lower[i]} for ILIKE ({@code lower} not null). */
    void literal(int[] cps, int[][] lower, int i) {
      if (lower == null) {
        add(cps[i]);
      } else {
        for (int cp : lower[i]) {
          add(cp);
        }
      }
    }

    int[] toArray() {
      return java.util.Arrays.copyOf(a, n);
    }
  }

  /** Unescaped tokens: {@code %} and {@code _} are wildcards, everything else literal. */
  private static int[] tokens(String pattern) {
    int[] cps = pattern.codePoints().toArray();
    for (int i = 0; i < cps.length; i++) {
      cps[i] = cps[i] == '%' ? ANY_RUN : cps[i] == '_' ? ANY_ONE : cps[i];
    }
    return cps;
  }

  boolean matches(String text) {
    String s = lowerCase ? text.toLowerCase(Locale.ROOT) : text;
    return switch (shape) {
      case EXACT -> s.equals(literal);
      case PREFIX -> s.startsWith(literal);
      case SUFFIX -> s.endsWith(literal);
      case CONTAINS -> s.contains(literal);
      case GENERAL -> general(s);
    };
  }

  /** The shape this pattern is matched by ({@code EXACT}, {@code PREFIX}, ...; for tests). */
  String shape() {
    return shape.name();
  }

  /** {@code text} matched by the general matcher whatever the shape (for tests). */
  boolean matchesGenerally(String text) {
    return general(lowerCase ? text.toLowerCase(Locale.ROOT) : text);
  }

  private boolean general(String s) {
    int si = 0;
    int pi = 0;
    int starP = -1;
    int starS = -1;
    int[] p = pattern;
    while (si < s.length()) {
      int cp = s.codePointAt(si);
      if (pi < p.length && p[pi] == ANY_RUN) {
        starP = ++pi;
        starS = si;
      } else if (pi < p.length && (p[pi] == ANY_ONE || p[pi] == cp)) {
        si += Character.charCount(cp);
        pi++;
      } else if (starP >= 0) {
        starS += Character.charCount(s.codePointAt(starS));
        si = starS;
        pi = starP;
      } else {
        return false;
      }
    }
    while (pi < p.length && p[pi] == ANY_RUN) {
      pi++;
    }
    return pi == p.length;
  }

  private static String text(int[] cps, int from, int to) {
    return new String(cps, from, to - from);
  }
}
