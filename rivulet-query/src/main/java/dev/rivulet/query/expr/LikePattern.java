package dev.rivulet.query.expr;

import java.util.Locale;

/**
 * A compiled LIKE pattern. {@code %} matches any run of characters (also none), {@code _} exactly
 * one character, and every other character itself, case-sensitively; there is no escape
 * character. Characters are Unicode code points, so {@code _} matches one emoji even though Java
 * holds it in two UTF-16 units. The pattern must match the whole text.
 *
 * <p>ILIKE is LIKE after lower-casing text and pattern with {@link Locale#ROOT} ({@link #ilike}).
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

  private enum Shape { EXACT, PREFIX, SUFFIX, CONTAINS, GENERAL }

  private final int[] pattern;
  private final Shape shape;
  private final String literal;
  private final boolean lowerCase;

  private LikePattern(String pattern, boolean lowerCase) {
    this.lowerCase = lowerCase;
    int[] cps = pattern.codePoints().toArray();
    int[] out = new int[cps.length];
    int n = 0;
    for (int cp : cps) {
      int token = cp == '%' ? ANY_RUN : cp == '_' ? ANY_ONE : cp;
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
        lit = pattern;
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
    return new LikePattern(pattern, false);
  }

  /** An ILIKE pattern: texts are lower-cased with {@link Locale#ROOT} before matching. */
  static LikePattern ilike(String pattern) {
    return new LikePattern(pattern.toLowerCase(Locale.ROOT), true);
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
