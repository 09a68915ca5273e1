package dev.rivulet.query.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.testkit.Seeds;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link DenseKeySet} agrees with a hash set: keys within a range its reach always covers (up to
 * three times the keys wide, in random order, so that the bitmap grows up and down), added in
 * random blocks ({@code addAll}) or one by one ({@code add}), with repeats, NULLs, strings and
 * keys just past either end of the 32-bit range;
 * the first row it refuses is the first whose key is a repeat or not an integer within 32 bits,
 * and every key before it is in. Keys spread wider than its reach are refused.
 */
class DenseKeySetTest {
  @Test
  void refusesExactlyTheFirstRepeatedOrNonIntKey() {
    for (long seed : Seeds.runs(40)) {
      Random rnd = new Random(seed);
      int n = 1 + rnd.nextInt(20_000);
      long base = switch (rnd.nextInt(3)) {
        case 0 -> Integer.MAX_VALUE - rnd.nextInt(3 * n + 1); // keys run past the top
        case 1 -> Integer.MIN_VALUE + rnd.nextInt(n + 1); // some keys run below the bottom
        default -> rnd.nextInt() / 2;
      };
      int odd = rnd.nextInt(4) == 0 ? rnd.nextInt(n) : -1; // a NULL or a string there
      Row[] rows = new Row[n];
      for (int i = 0; i < n; i++) {
        Object key = base - n + rnd.nextInt(3 * n);
        if (i == odd) {
          key = rnd.nextBoolean() ? null : "k" + i;
        }
        rows[i] = Row.of(key, (long) i);
      }
      Set<Long> oracle = new HashSet<>();
      int expected = n;
      for (int i = 0; i < n && expected == n; i++) {
        Object k = rows[i].get(0);
        if (!(k instanceof Long l) || l < Integer.MIN_VALUE || l > Integer.MAX_VALUE || !oracle.add(l)) {
          expected = i;
        }
      }
      DenseKeySet set = new DenseKeySet();
      int taken = n;
      for (int from = 0; from < n; ) {
        int to = Math.min(n, from + 1 + rnd.nextInt(70));
        int stop = rnd.nextBoolean() ? set.addAll(rows, from, to, 0) : addEach(set, rows, from, to);
        assertThat(stop).isBetween(from, to);
        if (stop < to) {
          taken = stop;
          break;
        }
        from = to;
      }
      String as = "seed " + seed + " (" + Seeds.replayHint(seed) + ") base " + base + " n " + n;
      assertThat(taken).as(as).isEqualTo(expected);
      assertThat(set.size()).as(as).isEqualTo(expected);
    }
  }

  /** {@link DenseKeySet#add} of each key of {@code rows[from, to)} in turn; the first refused, or {@code to}. */
  private static int addEach(DenseKeySet set, Row[] rows, int from, int to) {
    for (int i = from; i < to; i++) {
      if (!set.add(rows[i].get(0))) {
        return i;
      }
    }
    return to;
  }

  @Test
  void keysSpreadWiderThanItsReachAreRefused() {
    Row[] rows = new Row[100];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = Row.of(1_000_000L * i, (long) i);
    }
    DenseKeySet set = new DenseKeySet();
    assertThat(set.addAll(rows, 0, rows.length, 0)).isEqualTo(1);
    assertThat(set.size()).isEqualTo(1);
    assertThat(set.add(rows[1].get(0))).isFalse();
    assertThat(set.add(rows[0].get(0))).as("present already").isFalse();
    assertThat(set.add(1L)).isTrue();
    assertThat(set.size()).isEqualTo(2);
  }
}
