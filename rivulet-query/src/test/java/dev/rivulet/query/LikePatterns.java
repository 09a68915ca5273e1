package dev.rivulet.query;

import java.util.Random;

/** Random LIKE patterns made from a text, with and without an escape character, for {@link RandomExprs}. */
final class LikePatterns {
  private LikePatterns() {}

  /** {@code text} with some characters turned into wildcards or changed in case. */
  static String fromText(Random r, String text) {
    StringBuilder sb = new StringBuilder();
    text.codePoints().forEach(cp -> {
      int k = r.nextInt(10);
      if (k == 0) {
        sb.append('%');
      } else if (k == 1) {
        sb.append('_');
      } else if (k == 2) {
        sb.append('%').appendCodePoint(cp);
      } else if (k < 5) {
        sb.appendCodePoint(Character.isUpperCase(cp) ? Character.toLowerCase(cp) : Character.toUpperCase(cp));
      } else {
        sb.appendCodePoint(cp);
      }
    });
    return sb.toString();
  }

  /** {@code text} as a pattern with escape {@code e}: some characters wildcards, some escaped. */
  static String escaped(Random r, String text, String e) {
    int esc = e.codePointAt(0);
    StringBuilder sb = new StringBuilder();
    text.codePoints().forEach(cp -> {
      int k = r.nextInt(10);
      if (k == 0 && esc != '%') {
        sb.append('%');
      } else if (k == 1 && esc != '_') {
        sb.append('_');
      } else if (k == 2 || cp == esc || ((cp == '%' || cp == '_') && r.nextBoolean())) {
        sb.append(e).appendCodePoint(cp); // an escaped character stands for itself
      } else {
        int c = k < 5 ? (Character.isUpperCase(cp) ? Character.toLowerCase(cp) : Character.toUpperCase(cp)) : cp;
        if (c == esc) {
          sb.append(e);
        }
        sb.appendCodePoint(c);
      }
    });
    if (r.nextInt(4) == 0) {
      sb.append(esc == '%' ? "_" : "%");
    }
    return sb.toString();
  }

  /** Whether {@code pattern} ends with escape {@code e} that escapes nothing (an odd run of it at the end). */
  static boolean endsWithEscape(String pattern, String e) {
    int esc = e.codePointAt(0);
    boolean pending = false;
    for (int i = 0; i < pattern.length(); ) {
      int cp = pattern.codePointAt(i);
      i += Character.charCount(cp);
      pending = !pending && cp == esc;
    }
    return pending;
  }

  static final String[] ESCAPES = {"\\", "!", "%", "_", "a", "é", "\\", "!"};
  static final String[] CASELESS_ESCAPES = {"\\", "!", "#"};
}
