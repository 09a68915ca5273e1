package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link TextPrefix}'s fast paths ({@link TextPrefix#ascii} for units up to U+007D, {@link
 * TextPrefix#words} for a batch) give the same words as its general bit writer, are taken exactly
 * when every unit they read is up to U+007D, and the words follow code-point order computed here
 * from {@link String#codePoints}: a smaller pair means a smaller string, and strings whose first
 * difference lies within the first nine (word 0) or eighteen (both) ASCII units get different words.
 */
class TextPrefixTest {
  private static final String[] PIECES = {"a", "z", " ", "0", "}", "~", "\u007f", "\u0000", "\u00e9", "\u00ff",
      "\ud7ff", "\ue000", "\uffff", "\ud83d\ude00", "\ud800\udc00", "cache in module ", "1", "10", ""};

  private static String random(Random rnd, boolean ascii) {
    StringBuilder b = new StringBuilder();
    for (int k = rnd.nextInt(14); k > 0; k--) {
      String p = PIECES[rnd.nextInt(PIECES.length)];
      b.append(ascii && p.chars().anyMatch(c -> c > '}') ? "q" : p);
    }
    return b.toString();
  }

  @Test
  void fastPathsAgreeWithTheBitWriterAndAreTakenForAsciiOnly() {
    Random rnd = new Random(3);
    char[] buf = new char[18];
    long[] w0 = new long[1];
    long[] w1 = new long[1];
    int fast = 0;
    for (int i = 0; i < 20_000; i++) {
      String s = random(rnd, rnd.nextBoolean());
      long g0 = TextPrefix.general(s, 0);
      long g1 = TextPrefix.general(s, 1);
      assertThat(g0).as("%s word 0 non-negative", s).isNotNegative();
      assertThat(g1).as("%s word 1 non-negative", s).isNotNegative();
      boolean head = s.chars().limit(9).allMatch(c -> c <= '}');
      boolean both = s.chars().limit(18).allMatch(c -> c <= '}');
      assertThat(TextPrefix.ascii(s, 0) >= 0).as("fast word 0 of %s", s).isEqualTo(head);
      if (head) {
        assertThat(TextPrefix.ascii(s, 0)).isEqualTo(g0);
        assertThat(TextPrefix.ascii(s, 9) >= 0).as("fast word 1 of %s", s).isEqualTo(both);
      }
      if (both) {
        assertThat(TextPrefix.ascii(s, 9)).isEqualTo(g1);
        fast++;
      }
      assertThat(TextPrefix.word0(s)).isEqualTo(g0);
      assertThat(TextPrefix.word1(s)).isEqualTo(g1);
      long flip = rnd.nextBoolean() ? -1L : 0L;
      TextPrefix.words(s, buf, w0, w1, 0, flip);
      assertThat(w0[0]).as("batch word 0 of %s", s).isEqualTo(g0 ^ flip);
      assertThat(w1[0]).as("batch word 1 of %s", s).isEqualTo(g1 ^ flip);
    }
    assertThat(fast).as("strings on the fast path").isGreaterThan(5_000);
  }

  @Test
  void wordsFollowCodePointOrderAndSeparateWhatTheyHold() {
    Random rnd = new Random(8);
    int n = 700;
    String[] s = new String[n];
    long[][] w = new long[n][];
    int[][] cps = new int[n][];
    for (int i = 0; i < n; i++) {
      s[i] = random(rnd, i % 3 == 0);
      w[i] = new long[] {TextPrefix.word0(s[i]), TextPrefix.word1(s[i])};
      cps[i] = s[i].codePoints().toArray();
    }
    int bySecond = 0;
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        int cp = codePointCompare(cps[i], cps[j]);
        int pair = w[i][0] != w[j][0] ? Long.compare(w[i][0], w[j][0]) : Long.compare(w[i][1], w[j][1]);
        if (pair < 0 && cp >= 0 || cp < 0 && pair > 0) {
          assertThat(pair).as("words of %s vs %s against code points %d", s[i], s[j], cp).isEqualTo(Integer.signum(cp));
        }
        int at = firstDifference(s[i], s[j]);
        boolean asciiHead = at >= 0 && s[i].chars().limit(at + 1).allMatch(c -> c <= '}')
            && s[j].chars().limit(at + 1).allMatch(c -> c <= '}');
        if (asciiHead && at < 18 && pair == 0) {
          assertThat(pair).as("%s and %s differ at ASCII unit %d", s[i], s[j], at).isNotZero();
        }
        if (asciiHead && at >= 9 && at < 18) {
          assertThat(w[i][0]).isEqualTo(w[j][0]);
          bySecond++;
        }
      }
    }
    assertThat(bySecond).as("pairs told apart by word 1 alone").isGreaterThan(400);
  }

  @Test
  void escapedUnitsTakeTwentyFourBits() {
    // three é take 72 bits: the third straddles the words, so what follows is in word 1 only
    assertThat(TextPrefix.word0("\u00e9\u00e9\u00e9X")).isEqualTo(TextPrefix.word0("\u00e9\u00e9\u00e9Y"));
    assertThat(TextPrefix.word1("\u00e9\u00e9\u00e9X")).isLessThan(TextPrefix.word1("\u00e9\u00e9\u00e9Y"));
    assertThat(TextPrefix.word0("}")).isLessThan(TextPrefix.word0("~")).isLessThan(TextPrefix.word0("\u007f"));
    assertThat(TextPrefix.word0("\uffff")).isLessThan(TextPrefix.word0("\ud800\udc00"));
    assertThat(TextPrefix.word0("")).isZero();
    assertThat(TextPrefix.word0("\u0000")).isPositive();
  }

  /** The first index where the strings differ (one ending counts), or -1 when equal. */
  private static int firstDifference(String a, String b) {
    for (int i = 0; i < Math.max(a.length(), b.length()); i++) {
      if (i >= a.length() || i >= b.length() || a.charAt(i) != b.charAt(i)) {
        return i;
      }
    }
    return -1;
  }

  private static int codePointCompare(int[] x, int[] y) {
    for (int i = 0; i < Math.min(x.length, y.length); i++) {
      if (x[i] != y[i]) {
        return Integer.compare(x[i], y[i]);
      }
    }
    return Integer.compare(x.length, y.length);
  }
}
