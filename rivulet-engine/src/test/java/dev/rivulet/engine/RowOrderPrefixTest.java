package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The prefixes of {@link RowOrder} for a text first key (the first 126 bits of a code that spends
 * 7 bits on a unit up to U+007D and 24 on any other, remapped so that their order is code-point
 * order; 63 bits in the first prefix, the next 63 in the second) agree with code-point order,
 * computed here from {@link String#codePoints} (not with {@code Values}): a smaller pair of
 * prefixes means a smaller string, and a smaller string never has a larger pair. They are in
 * effect: strings whose first difference is coded within the first 63 bits get different first
 * prefixes, within 126 bits different pairs, so the tree and the sort decide them without the
 * full comparison; equal pairs of different strings are left to it. Surrogate pairs,
 * U+E000..U+FFFF (above the surrogates as units, below them as code points), U+0000 and the empty
 * string included.
 */
class RowOrderPrefixTest {
  private static final String[] UNITS = {"a", "b", "\u0000", "\u00e9", "\ud7ff", "\ue000", "\uff5e", "\uffff",
      "\ud800\udc00", "\ud834\udd1e", "\udbff\udfff", "z", "}", "~", "in module 1"};

  @Test
  void prefixesFollowCodePointOrder() {
    Random rnd = new Random(5);
    List<String> texts = new ArrayList<>();
    texts.add("");
    for (int i = 0; i < 400; i++) {
      StringBuilder sb = new StringBuilder();
      for (int k = rnd.nextInt(7); k > 0; k--) {
        sb.append(UNITS[rnd.nextInt(UNITS.length)]);
      }
      texts.add(sb.toString());
    }
    for (boolean descending : new boolean[] {false, true}) {
      RowOrder order = new RowOrder(new int[] {0}, new boolean[] {descending}, new boolean[] {false},
          new ColumnType[] {ColumnType.STRING});
      int distinguished = 0;
      int bySecond = 0;
      int n = texts.size();
      Row[] rows = new Row[n];
      long[] prefixes = new long[n];
      long[] seconds = new long[n];
      int[][] codePoints = new int[n][];
      for (int i = 0; i < n; i++) {
        rows[i] = Row.of(texts.get(i));
        prefixes[i] = order.first(rows[i]);
        seconds[i] = order.second(rows[i]);
        codePoints[i] = texts.get(i).codePoints().toArray();
      }
      long[] batchFirst = new long[n];
      long[] batchSecond = new long[n];
      order.prefixes(rows, n, batchFirst, batchSecond);
      assertThat(batchFirst).as("batch first prefixes").isEqualTo(prefixes);
      assertThat(batchSecond).as("batch second prefixes").isEqualTo(seconds);
      for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
          String a = texts.get(i);
          String b = texts.get(j);
          long pa = prefixes[i];
          long pb = prefixes[j];
          int pair = pa != pb ? Long.compare(pa, pb) : Long.compare(seconds[i], seconds[j]);
          int cp = Integer.signum(codePointCompare(codePoints[i], codePoints[j])) * (descending ? -1 : 1);
          // plain checks first: assertions only on a violation (160,000 pairs per direction)
          if (pair < 0 && cp >= 0) {
            assertThat(cp).as("%s before %s by prefixes", show(a), show(b)).isNegative();
          }
          if (cp < 0 && (pair > 0 || order.compare(rows[i], rows[j]) >= 0)) {
            assertThat(pair).as("%s before %s by code point", show(a), show(b)).isLessThanOrEqualTo(0);
            assertThat(order.compare(Row.of(a), Row.of(b))).as("full order of %s, %s", show(a), show(b)).isNegative();
          }
          int bits = codedBitsToDifference(a, b);
          if (bits <= 63) {
            if (pa == pb) {
              assertThat(pa).as("first prefixes of %s and %s (differ by bit %d)", show(a), show(b), bits)
                  .isNotEqualTo(pb);
            }
            distinguished++;
          } else if (bits <= 126) {
            if (pair == 0) {
              assertThat(seconds[i]).as("second prefixes of %s and %s (differ by bit %d)", show(a), show(b), bits)
                  .isNotEqualTo(seconds[j]);
            }
            bySecond++;
          }
        }
      }
      assertThat(distinguished).isGreaterThan(100_000);
      assertThat(bySecond).as("pairs told apart by the second prefix").isGreaterThan(500);
    }
  }

  @Test
  void nullsTakeTheSentinelOfTheirPlacement() {
    RowOrder first = new RowOrder(new int[] {0}, new boolean[] {false}, new boolean[] {true},
        new ColumnType[] {ColumnType.STRING});
    RowOrder last = new RowOrder(new int[] {0}, new boolean[] {true}, new boolean[] {false},
        new ColumnType[] {ColumnType.STRING});
    Row none = Row.of((Object) null);
    assertThat(first.first(none)).isEqualTo(Long.MIN_VALUE);
    assertThat(last.first(none)).isEqualTo(Long.MAX_VALUE);
    assertThat(first.first(Row.of("\udbff\udfff"))).isGreaterThan(first.first(Row.of("\uffff\uffff\uffff")));
  }

  /**
   * How many bits of the code tell {@code a} and {@code b} apart: 7 per unit up to U+007D and 24 per
   * other unit before their first difference, then 7 more (a unit against the end, or a 7-bit unit
   * against another or against an escape) or 24 (two escaped units); MAX_VALUE when equal.
   */
  private static int codedBitsToDifference(String a, String b) {
    int bits = 0;
    for (int i = 0; i < Math.max(a.length(), b.length()); i++) {
      if (i >= a.length() || i >= b.length()) {
        return bits + 7;
      }
      char x = a.charAt(i);
      char y = b.charAt(i);
      if (x != y) {
        return bits + (x > '}' && y > '}' ? 24 : 7);
      }
      bits += x > '}' ? 24 : 7;
    }
    return Integer.MAX_VALUE;
  }

  private static int codePointCompare(int[] x, int[] y) {
    for (int i = 0; i < Math.min(x.length, y.length); i++) {
      if (x[i] != y[i]) {
        return Integer.compare(x[i], y[i]);
      }
    }
    return Integer.compare(x.length, y.length);
  }

  private static String show(String s) {
    StringBuilder sb = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      sb.append(c < 0x7f && c >= 0x20 ? String.valueOf(c) : String.format("\\u%04x", (int) c));
    }
    return sb.append('"').toString();
  }
}
