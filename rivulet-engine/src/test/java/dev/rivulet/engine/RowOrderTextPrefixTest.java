package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A text first key's prefixes ({@link TextPrefix}: 18 ASCII characters in the two longs)
 * keep the {@link dev.rivulet.engine.state.OrderStatisticTree.Prefix} contract against the full
 * order, in both directions and null placements, over ASCII, the escape's edge ('}' and '~'),
 * NUL, Latin-1, units above U+E000, surrogate pairs and empty strings; the batch {@link
 * RowOrder#prefixes} gives the same longs; and the second long tells apart titles that differ
 * only after their 16th character.
 */
class RowOrderTextPrefixTest {
  private static final String[] PIECES = {"a", "z", " ", "}", "~", "\u007f", "\u0000", "é", "ÿ", "\uE000", "\uFFFF",
      "\uD83D\uDE00", "\uD800\uDC00", "cache in module ", "1", "10", ""};

  @Test
  void prefixesNeverContradictTheOrder() {
    Random rnd = new Random(11);
    for (int run = 0; run < 40; run++) {
      RowOrder order = new RowOrder(new int[] {0, 1}, new boolean[] {rnd.nextBoolean(), false},
          new boolean[] {rnd.nextBoolean(), false}, new ColumnType[] {ColumnType.STRING, ColumnType.INT});
      int n = 150;
      Row[] rows = new Row[n];
      for (int i = 0; i < n; i++) {
        StringBuilder b = new StringBuilder();
        for (int k = rnd.nextInt(12); k > 0; k--) {
          b.append(PIECES[rnd.nextInt(PIECES.length)]);
        }
        rows[i] = Row.of(rnd.nextInt(15) == 0 ? null : b.toString(), (long) i);
      }
      long[] first = new long[n];
      long[] second = new long[n];
      order.prefixes(rows, n, first, second);
      for (int i = 0; i < n; i++) {
        assertThat(first[i]).as("batch first").isEqualTo(order.first(rows[i]));
        assertThat(second[i]).as("batch second").isEqualTo(order.second(rows[i]));
        for (int j = 0; j < n; j++) {
          if (order.compare(rows[i], rows[j]) < 0) {
            String what = "run " + run + ": " + rows[i] + " < " + rows[j] + " in " + order;
            assertThat(first[i]).as(what).isLessThanOrEqualTo(first[j]);
            if (first[i] == first[j]) {
              assertThat(second[i]).as(what).isLessThanOrEqualTo(second[j]);
            }
          }
        }
      }
    }
  }

  @Test
  void theSecondLongSeparatesTitlesThatDifferAfterSixteenCharacters() {
    RowOrder order = new RowOrder(new int[] {0, 1}, new boolean[] {false, false}, new boolean[] {false, false},
        new ColumnType[] {ColumnType.STRING, ColumnType.INT});
    Row a = Row.of("cache in module 1", 1L);
    Row b = Row.of("cache in module 10", 2L);
    Row c = Row.of("cache in module 2", 3L);
    assertThat(order.first(a)).isEqualTo(order.first(b)).isEqualTo(order.first(c));
    assertThat(order.second(a)).isLessThan(order.second(b));
    assertThat(order.second(b)).isLessThan(order.second(c));
  }
}
