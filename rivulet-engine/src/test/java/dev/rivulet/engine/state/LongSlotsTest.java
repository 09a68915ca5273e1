package dev.rivulet.engine.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link LongSlots}, driven as its indexes drive it (a payload array moved along on removal and
 * growth), agrees with a {@link HashMap} under random claims, lookups and removals over keys that
 * collide in their low bits, keys that share one home slot (long probe runs wrapping around the
 * table's end, long backward shifts), the extremes of {@code long} and 0, from a table of 2 slots
 * grown many times. Seeds: {@code -Drivulet.seed} replays one, {@code -Drivulet.runs} multiplies
 * the runs.
 */
class LongSlotsTest {
  private static final long BASE_SEED = Long.getLong("rivulet.seed", 0x510757L);
  private static final int RUNS = 16 * Integer.getInteger("rivulet.runs", 1);

  /** A slot table with one int per slot, kept as an index keeps its payload. */
  private static final class Table {
    LongSlots slots = new LongSlots(2);
    int[] values = new int[slots.slots()];

    Integer get(long key) {
      int s = slots.find(key);
      return s < 0 ? null : values[s];
    }

    void put(long key, int value) {
      int s = slots.claim(key);
      values[s < 0 ? ~s : s] = value;
      if (slots.crowded()) {
        LongSlots old = slots;
        int[] was = values;
        slots = new LongSlots(old.capacity() * 2);
        values = new int[slots.slots()];
        for (int i = 0; i < was.length; i++) {
          if (old.used(i)) {
            values[~slots.claim(old.key(i))] = was[i];
          }
        }
      }
    }

    boolean remove(long key) {
      int s = slots.find(key);
      if (s < 0) {
        return false;
      }
      for (int from; (from = slots.vacate(s)) >= 0; s = from) {
        values[s] = values[from];
      }
      return true;
    }
  }

  private static List<Long> keyPool(Random rnd) {
    List<Long> keys = new ArrayList<>(List.of(0L, -1L, 1L, Long.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE + 1));
    keys.addAll(LongKeyedBagsTest.lastSlotKeys(48));
    for (long k = 1; k <= 48; k++) {
      keys.add(k << 40); // equal low 40 bits
      keys.add(k << 32 | 7);
    }
    for (int i = 0; i < 100; i++) {
      keys.add(rnd.nextBoolean() ? rnd.nextLong() : rnd.nextInt(300));
    }
    return keys;
  }

  @Test
  void agreesWithAHashMapThroughClaimsRemovalsAndGrowth() {
    for (int run = 0; run < RUNS; run++) {
      long seed = BASE_SEED + run;
      Random rnd = new Random(seed);
      List<Long> keys = keyPool(rnd);
      Table table = new Table();
      Map<Long, Integer> model = new HashMap<>();
      for (int step = 0; step < 6000; step++) {
        long key = keys.get(rnd.nextInt(keys.size()));
        String where = "seed " + seed + " step " + step + " key " + key;
        int op = rnd.nextInt(10);
        if (op < 5 - step / 1500) { // additions dominate early, removals late: growth, then long removal chains
          int value = rnd.nextInt();
          table.put(key, value);
          model.put(key, value);
        } else if (op < 8) {
          assertThat(table.remove(key)).as(where).isEqualTo(model.remove(key) != null);
        } else {
          assertThat(table.get(key)).as(where).isEqualTo(model.get(key));
        }
        assertThat(table.slots.size()).as(where).isEqualTo(model.size());
        assertThat(table.slots.crowded()).as(where).isFalse();
        if (step % 97 == 0 || model.size() < 8) {
          checkAll(table, model, keys, where);
        }
      }
      checkAll(table, model, keys, "seed " + seed + " at the end");
    }
  }

  /** Every pool key answers as the model does, and the used slots are exactly the model's keys. */
  private static void checkAll(Table table, Map<Long, Integer> model, List<Long> keys, String where) {
    for (long k : keys) {
      assertThat(table.get(k)).as(where + ", lookup of " + k).isEqualTo(model.get(k));
    }
    Map<Long, Integer> held = new HashMap<>();
    for (int s = 0; s < table.slots.slots(); s++) {
      if (table.slots.used(s)) {
        assertThat(held.put(table.slots.key(s), table.values[s])).as(where + ", key twice: " + table.slots.key(s)).isNull();
        assertThat(table.slots.find(table.slots.key(s))).as(where).isEqualTo(s);
      }
    }
    assertThat(held).as(where).isEqualTo(model);
  }

  @Test
  void aRemovalShiftsBackARunThatWrapsAroundTheEnd() {
    List<Long> same = LongKeyedBagsTest.lastSlotKeys(4); // all home to slot 7 of 8
    LongSlots slots = new LongSlots(8);
    for (long k : same) {
      assertThat(slots.home(k)).isEqualTo(7);
      assertThat(slots.claim(k)).isNegative();
    }
    assertThat(slots.find(same.get(3))).isEqualTo(2); // the run: 7, 0, 1, 2
    assertThat(slots.vacate(slots.find(same.get(0)))).isEqualTo(0); // slot 0's key fills slot 7
    assertThat(slots.vacate(0)).isEqualTo(1);
    assertThat(slots.vacate(1)).isEqualTo(2);
    assertThat(slots.vacate(2)).isEqualTo(-1);
    assertThat(slots.find(same.get(0))).isEqualTo(-1);
    assertThat(slots.find(same.get(1))).isEqualTo(7);
    assertThat(slots.find(same.get(3))).isEqualTo(1);
    assertThat(slots.used(2)).isFalse();
    assertThat(slots.size()).isEqualTo(3);
  }

  @Test
  void keyZeroHasItsOwnSlotAfterTheProbedOnes() {
    LongSlots slots = new LongSlots(4);
    assertThat(slots.find(0)).isEqualTo(-1);
    assertThat(slots.used(4)).isFalse();
    assertThat(slots.claim(0)).isEqualTo(~4);
    assertThat(slots.claim(0)).isEqualTo(4);
    assertThat(slots.used(4)).isTrue();
    assertThat(slots.key(4)).isZero();
    assertThat(slots.vacate(4)).isEqualTo(-1);
    assertThat(slots.find(0)).isEqualTo(-1);
    assertThat(slots.size()).isZero();
  }

  @Test
  void theHashOfATableSizeIsItsHome() {
    Random rnd = new Random(BASE_SEED);
    for (int bits = 1; bits <= 20; bits++) {
      LongSlots slots = new LongSlots(1 << bits);
      for (int i = 0; i < 50; i++) {
        long k = rnd.nextLong();
        assertThat(LongSlots.hash(k, bits)).as("bits %d key %d", bits, k).isEqualTo(slots.home(k));
      }
    }
  }

  @Test
  void aCapacityMustBeAPowerOfTwoOfAtLeastTwo() {
    for (int bad : new int[] {0, 1, 3, 12, -8}) {
      assertThatThrownBy(() -> new LongSlots(bad)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("power of two").hasMessageContaining("got " + bad);
    }
  }
}
