package dev.rivulet.query.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link RowTable}'s fast paths agree with its general path and with a map: primitive long keys
 * ({@link RowTable#primitiveKeys}) against the same operations on a table that compares key rows
 * (switched for good by one string key, then emptied of it), under dense keys, keys that share
 * their low bits (long probe runs: the switch to the multiplicative spread, {@link
 * RowTable#scrambled}) and keys that all home to the table's last slots (probe runs and backward
 * shifts that wrap around the end).
 */
class RowTableFastPathTest {
  @Test
  void primitiveKeysAgreeWithKeyRowsAndAMap() {
    for (int kind = 0; kind < 3; kind++) {
      Random rnd = new Random(kind * 104_729L + 3);
      RowTable fast = new RowTable(new int[] {0});
      RowTable general = new RowTable(new int[] {0});
      general.put(Row.of("switch"), Row.of("switch", 0));
      general.remove(Row.of("switch"));
      assertThat(general.primitiveKeys()).isFalse();
      Map<Row, Row> model = new HashMap<>();
      boolean scrambled = false;
      for (int op = 0; op < 30_000; op++) {
        int k = rnd.nextInt(op < 15_000 ? 2_000 : 300);
        long key = switch (kind) {
          case 0 -> k; // dense, in sequence
          case 1 -> (long) k << 24; // shared low bits: long probe runs
          default -> ((long) k << 16) | 0xFFFF; // all home to the last slot while the table is small
        };
        Row row = Row.of(key, op);
        int what = rnd.nextInt(5);
        if (what == 0) {
          Row want = model.remove(Row.of(key));
          assertThat(fast.removeRow(row)).as("kind %d op %d remove %d", kind, op, key).isEqualTo(want);
          assertThat(general.removeRow(row)).isEqualTo(want);
        } else if (what == 1) {
          Row want = model.remove(Row.of(key));
          assertThat(fast.remove(Row.of(key))).isEqualTo(want);
          assertThat(general.remove(Row.of(key))).isEqualTo(want);
        } else {
          Row want = model.put(Row.of(key), row);
          boolean byRow = what == 2;
          assertThat(byRow ? fast.putRow(row) : fast.put(Row.of(key), row)).as("kind %d op %d put", kind, op)
              .isEqualTo(want);
          assertThat(byRow ? general.putRow(row) : general.put(Row.of(key), row)).isEqualTo(want);
        }
        assertThat(fast.size()).isEqualTo(model.size());
        assertThat(general.size()).isEqualTo(model.size());
        scrambled |= fast.scrambled();
        if (op % 3_001 == 0) {
          for (Map.Entry<Row, Row> e : model.entrySet()) {
            assertThat(fast.get(e.getKey())).isEqualTo(e.getValue());
            assertThat(fast.getRow(e.getValue())).isEqualTo(e.getValue());
            assertThat(general.get(e.getKey())).isEqualTo(e.getValue());
          }
        }
      }
      assertThat(fast.primitiveKeys()).as("kind %d stayed on primitive keys", kind).isTrue();
      assertThat(general.primitiveKeys()).isFalse();
      assertThat(new HashSet<>(fast.keys())).isEqualTo(model.keySet());
      assertThat(new HashSet<>(fast.rows())).isEqualTo(new HashSet<>(model.values()));
      assertThat(new HashSet<>(general.rows())).isEqualTo(new HashSet<>(model.values()));
      if (kind > 0) {
        assertThat(scrambled).as("kind %d switched to the multiplicative spread", kind).isTrue();
      }
    }
  }

  @Test
  void aFirstOtherKeySwitchesForGoodAndKeepsTheRows() {
    RowTable t = new RowTable(new int[] {0});
    for (long i = 0; i < 100; i++) {
      t.putRow(Row.of(i, "v" + i));
    }
    assertThat(t.primitiveKeys()).isTrue();
    t.putRow(Row.of("s", "x"));
    assertThat(t.primitiveKeys()).isFalse();
    t.removeRow(Row.of("s", "x"));
    assertThat(t.primitiveKeys()).isFalse();
    for (long i = 0; i < 100; i++) {
      assertThat(t.getRow(Row.of(i, null))).isEqualTo(Row.of(i, "v" + i));
    }
    assertThat(t.get(Row.of(2.5))).isNull();
  }
}
