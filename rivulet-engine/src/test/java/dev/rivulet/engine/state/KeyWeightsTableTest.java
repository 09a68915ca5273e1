package dev.rivulet.engine.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link KeyWeights#longKeyRange} and {@link KeyWeights#passingInto} (the table a bulk pass reads
 * instead of probing) agree with a map of the same additions and removals: a range holding every
 * {@code Long} key held (exact while none was removed, and again once the table was empty), every
 * key's passing weight in the table and {@code ABSENT} elsewhere, and false when a held key lies
 * outside the range asked for, also at the extremes of {@code long}.
 */
class KeyWeightsTableTest {
  @Test
  void theTableAndRangeAgreeWithAMap() {
    for (long seed = 1; seed <= 20; seed++) {
      Random rnd = new Random(seed);
      KeyWeights w = new KeyWeights();
      Map<Long, long[]> ref = new HashMap<>();
      long base = rnd.nextBoolean() ? -50 : 1_000;
      // The keys added since the reference was last empty, and whether one was removed since.
      long addedLeast = Long.MAX_VALUE;
      long addedGreatest = Long.MIN_VALUE;
      boolean removed = false;
      String at = "seed " + seed;
      for (int step = 0; step < 2000; step++) {
        long key = base + rnd.nextInt(200);
        long total = rnd.nextInt(3) == 0 && ref.containsKey(key) ? -ref.get(key)[0] : 1;
        long pass = total < 0 ? -ref.get(key)[1] : rnd.nextInt(2);
        w.add(key, total, pass);
        w.add("other" + rnd.nextInt(5), 1, 1); // keys of another kind are not in the table
        long[] r = ref.computeIfAbsent(key, k -> new long[2]);
        r[0] += total;
        r[1] += pass;
        addedLeast = Math.min(addedLeast, key);
        addedGreatest = Math.max(addedGreatest, key);
        if (r[0] == 0) {
          ref.remove(key);
          removed = true;
        }
        if (ref.isEmpty()) {
          assertThat(w.longKeyRange()).as(at + " step " + step + ": no Long key held").isNull();
          addedLeast = Long.MAX_VALUE;
          addedGreatest = Long.MIN_VALUE;
          removed = false;
        } else if (!removed) {
          assertThat(w.longKeyRange()).as(at + " step " + step + ": exact while none was removed")
              .containsExactly(addedLeast, addedGreatest);
        }
      }
      long least = ref.keySet().stream().mapToLong(Long::longValue).min().orElseThrow();
      long greatest = ref.keySet().stream().mapToLong(Long::longValue).max().orElseThrow();
      long[] range = w.longKeyRange();
      assertThat(range[0]).as(at + ": every key at or above the least bound").isLessThanOrEqualTo(least);
      assertThat(range[1]).as(at + ": every key at or below the greatest bound").isGreaterThanOrEqualTo(greatest);
      assertThat(range[0]).as(at + ": the bounds are keys added since the table was empty").isGreaterThanOrEqualTo(addedLeast);
      assertThat(range[1]).as(at).isLessThanOrEqualTo(addedGreatest);
      long[] table = new long[(int) (greatest - least) + 3];
      assertThat(w.passingInto(least - 1, table)).as(at).isTrue();
      for (int i = 0; i < table.length; i++) {
        long[] r = ref.get(least - 1 + i);
        assertThat(table[i]).as(at + " key " + (least - 1 + i)).isEqualTo(r == null ? KeyWeights.ABSENT : r[1]);
      }
      assertThat(w.passingInto(least, new long[(int) (greatest - least)])).as(at + ": the greatest key is outside").isFalse();
      assertThat(w.passingInto(least + 1, new long[(int) (greatest - least)])).as(at).isFalse();
    }
  }

  @Test
  void extremeKeysAreOutsideANarrowTableAndNoLongKeysHaveNoRange() {
    KeyWeights w = new KeyWeights();
    assertThat(w.longKeyRange()).isNull();
    w.add("k", 1, 1);
    assertThat(w.longKeyRange()).as("a key of another kind only").isNull();
    w.add(Long.MIN_VALUE, 1, 1);
    w.add(Long.MAX_VALUE, 2, 1);
    assertThat(w.longKeyRange()).containsExactly(Long.MIN_VALUE, Long.MAX_VALUE);
    assertThat(w.passingInto(Long.MAX_VALUE, new long[4])).as("MIN_VALUE - MAX_VALUE wraps to 1").isFalse();
    assertThat(w.passingInto(Long.MIN_VALUE, new long[4])).as("MAX_VALUE is far above").isFalse();
    w.add(Long.MIN_VALUE, -1, -1);
    long[] t = new long[2];
    assertThat(w.passingInto(Long.MAX_VALUE - 1, t)).isTrue();
    assertThat(t).containsExactly(KeyWeights.ABSENT, 1);
    w.add(Long.MAX_VALUE, -2, -1);
    assertThat(w.longKeyRange()).as("no Long key left").isNull();
    w.add(7L, 1, 1);
    w.add(3L, 1, 0);
    assertThat(w.longKeyRange()).as("bounds start again once the table is empty").containsExactly(3L, 7L);
  }
}
