package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The string prefix of {@link RowOrder} (the first three UTF-16 units packed into a long, remapped
 * so that their order is code-point order) agrees with code-point order, computed here from {@link
 * String#codePoints} (not with {@code Values}): a smaller prefix means a smaller string, and a
 * smaller string never has a larger prefix. It is in effect (the fast path): strings that differ
 * within their first three units get different prefixes, so the tree and the sort decide them
 * without the full comparison. Surrogate pairs, U+E000..U+FFFF (above the surrogates as units,
 * below them as code points), U+0000 and the empty string included.
 */
class RowOrderPrefixTest {
  private static final String[] UNITS = {"a", "b", "\u0000", "\u00e9", "\ud7ff", "\ue000", "\uff5e", "\uffff",
      "\ud800\udc00", "\ud834\udd1e", "\udbff\udfff", "z"};

  @Test
  void prefixesFollowCodePointOrder() {
    Random rnd = new Random(5);
    List<String> texts = new ArrayList<>();
    texts.add("");
    for (int i = 0; i < 400; i++) {
      StringBuilder sb = new StringBuilder();
      for (int k = rnd.nextInt(5); k > 0; k--) {
        sb.append(UNITS[rnd.nextInt(UNITS.length)]);
      }
      texts.add(sb.toString());
    }
    for (boolean descending : new boolean[] {false, true}) {
      RowOrder order = new RowOrder(new int[] {0}, new boolean[] {descending}, new boolean[] {false},
          new ColumnType[] {ColumnType.STRING});
      int distinguished = 0;
      int n = texts.size();
      Row[] rows = new Row[n];
      long[] prefixes = new long[n];
      int[][] codePoints = new int[n][];
      String[] heads = new String[n];
      for (int i = 0; i < n; i++) {
        rows[i] = Row.of(texts.get(i));
        prefixes[i] = order.first(rows[i]);
        codePoints[i] = texts.get(i).codePoints().toArray();
        heads[i] = head(texts.get(i));
      }
      for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
          String a = texts.get(i);
          String b = texts.get(j);
          long pa = prefixes[i];
          long pb = prefixes[j];
          int cp = Integer.signum(codePointCompare(codePoints[i], codePoints[j])) * (descending ? -1 : 1);
          // plain checks first: assertions only on a violation (160,000 pairs per direction)
          if (pa < pb && cp >= 0) {
            assertThat(cp).as("%s before %s by prefix", show(a), show(b)).isNegative();
          }
          if (cp < 0 && (pa > pb || order.compare(rows[i], rows[j]) >= 0)) {
            assertThat(pa).as("%s before %s by code point", show(a), show(b)).isLessThanOrEqualTo(pb);
            assertThat(order.compare(Row.of(a), Row.of(b))).as("full order of %s, %s", show(a), show(b)).isNegative();
          }
          if (!heads[i].equals(heads[j])) {
            if (pa == pb) {
              assertThat(pa).as("prefixes of %s and %s (heads differ)", show(a), show(b)).isNotEqualTo(pb);
            }
            distinguished++;
          }
        }
      }
      assertThat(distinguished).isGreaterThan(100_000);
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

  /** The first three UTF-16 units (what the prefix may encode), padded so "" and "\0" differ. */
  private static String head(String s) {
    return s.length() < 3 ? s + "|" + s.length() : s.substring(0, 3);
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
