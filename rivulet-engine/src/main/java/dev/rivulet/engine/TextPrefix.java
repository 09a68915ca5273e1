package dev.rivulet.engine;

/**
 * The primitive prefixes of a text sort key ({@link RowOrder}): the first 126 bits of an
 * order-preserving binary code of the string, as two words of 63 bits (non-negative longs), so
 * that comparing the pairs {@code (word 0, word 1)} as signed longs never contradicts {@link
 * Values#compareCodePoints} and strings that differ within the coded bits get different pairs.
 * Stateless.
 *
 * <p>The code: each UTF-16 unit, {@link RowOrder#unit remapped} to code-point order (1..0x10000),
 * is 7 bits when below {@value #ESCAPE} (U+0000..U+007D) and else {@value #ESCAPE} in 7 bits
 * followed by the unit in 17; zero bits follow the end. It is prefix-free, monotone in the units,
 * and every unit's code starts with a non-zero group, so a string's code is smaller than that of
 * each longer string it starts; a truncation of it is therefore monotone. Nine such units fill a
 * word: eighteen ASCII characters in the two (all of a typical title).
 *
 * <p>{@link #ascii} is the fast path for the common case of units up to U+007D, read directly as
 * 7-bit groups; {@link #general} is the bit writer it must agree with.
 */
final class TextPrefix {
  static final int ESCAPE = 127; // a 7-bit group announcing a 17-bit unit
  static final int WORD_BITS = 63;
  static final int WORD_UNITS = 9; // 7-bit groups in a word
  private static final char LAST_ASCII = ESCAPE - 2; // '}': its unit, 126, is the last below the escape

  private TextPrefix() {}

  /** Word 0 of {@code s}'s code (its first 63 bits). */
  static long word0(String s) {
    long w = ascii(s, 0);
    return w >= 0 ? w : general(s, 0);
  }

  /** Word 1 of {@code s}'s code (bits 63..125). */
  static long word1(String s) {
    if (ascii(s, 0) >= 0) {
      long w = ascii(s, WORD_UNITS);
      if (w >= 0) {
        return w;
      }
    }
    return general(s, 1);
  }

  /**
   * Both words of {@code s}'s code into {@code w0[i]} and {@code w1[i]}, each XORed with {@code
   * flip} (-1 reverses the order): a batch's path, reading the first 18 units with one {@link
   * String#getChars} into {@code buf} (at least 18 long) rather than a call per unit.
   */
  static void words(String s, char[] buf, long[] w0, long[] w1, int i, long flip) {
    int n = Math.min(s.length(), 2 * WORD_UNITS);
    s.getChars(0, n, buf, 0);
    long a = 0;
    long b = 0;
    for (int j = 0; j < WORD_UNITS; j++) {
      int u = j < n ? buf[j] + 1 : 0;
      a = a << 7 | u;
      int v = j + WORD_UNITS < n ? buf[j + WORD_UNITS] + 1 : 0;
      b = b << 7 | v;
      if (Math.max(u, v) >= ESCAPE) { // a unit from U+007E up: the bit writer
        a = general(s, 0);
        b = general(s, 1);
        break;
      }
    }
    w0[i] = a ^ flip;
    w1[i] = b ^ flip;
  }

  /**
   * Word {@code from / 9} of the code when units {@code [0, from + 9)} of {@code s} (those that
   * exist) are all up to U+007D, which the caller vouches for below {@code from} ({@code from} is
   * 0 or 9); -1 when one of {@code [from, from + 9)} is not.
   */
  static long ascii(String s, int from) {
    int end = Math.min(s.length(), from + WORD_UNITS);
    long w = 0;
    for (int j = from; j < end; j++) {
      char c = s.charAt(j);
      if (c > LAST_ASCII) {
        return -1;
      }
      w = w << 7 | (c + 1);
    }
    return w << 7 * (from + WORD_UNITS - Math.max(end, from));
  }

  /** Word {@code word} (0 or 1) of {@code s}'s code, by writing the code's first 126 bits. */
  static long general(String s, int word) {
    long w0 = 0;
    long w1 = 0;
    int at = 0; // bits written
    for (int i = 0, n = s.length(); i < n && at < 2 * WORD_BITS; i++) {
      int u = RowOrder.unit(s.charAt(i));
      long code = u < ESCAPE ? u : (long) ESCAPE << 17 | u;
      int end = at + (u < ESCAPE ? 7 : 24);
      if (end <= WORD_BITS) {
        w0 |= code << (WORD_BITS - end);
      } else if (at >= WORD_BITS) {
        w1 |= end <= 2 * WORD_BITS ? code << (2 * WORD_BITS - end) : code >>> (end - 2 * WORD_BITS);
      } else { // straddles the two words
        w0 |= code >>> (end - WORD_BITS);
        w1 |= code << (2 * WORD_BITS - end) & Long.MAX_VALUE;
      }
      at = end;
    }
    return word == 0 ? w0 : w1;
  }
}
