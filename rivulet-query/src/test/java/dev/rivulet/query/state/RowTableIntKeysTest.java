package dev.rivulet.query.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link RowTable} keeps primitive keys in 32 bits while they fit ({@link RowTable#intKeys}, the
 * fast path) and widens them for good to 64 bits on the first key that does not, without losing or
 * confusing a row: keys {@code k} and {@code k + 2^32} (equal in their low 32 bits) stay apart, and
 * the table agrees with a map before and after the widening, through removals and growth.
 */
class RowTableIntKeysTest {
  @Test
  void keysWidenFrom32To64BitsAndAgreeWithAMap() {
    for (long wideKey : new long[] {1L << 32, -(1L << 31) - 1, Long.MAX_VALUE, Long.MIN_VALUE}) {
      Random rnd = new Random(wideKey);
      RowTable table = new RowTable(new int[] {0});
      Map<Long, Row> model = new HashMap<>();
      for (int op = 0; op < 20_000; op++) {
        boolean wide = op >= 10_000;
        long k = rnd.nextInt(3_000) - 1_500 + (wide && rnd.nextBoolean() ? wideKey : 0);
        if (op == 10_000) {
          k = wideKey;
        }
        Row row = Row.of(k, op);
        if (rnd.nextInt(4) == 0 && op != 10_000) { // op 10,000 puts the first wide key
          assertThat(table.removeRow(row)).as("remove %d at %d", k, op).isEqualTo(model.remove(k));
        } else {
          assertThat(table.putRow(row)).as("put %d at %d", k, op).isEqualTo(model.put(k, row));
        }
        assertThat(table.intKeys()).as("op %d", op).isEqualTo(!wide);
        assertThat(table.size()).isEqualTo(model.size());
        if (op % 2_500 == 0 || op == 10_000) {
          for (int probe = -1_600; probe < 1_600; probe += 7) {
            for (long p : new long[] {probe, probe + wideKey}) {
              assertThat(table.getRow(Row.of(p))).as("get %d at %d", p, op).isEqualTo(model.get(p));
              assertThat(table.get(Row.of(p))).isEqualTo(model.get(p));
            }
          }
          Map<Long, Row> seen = new HashMap<>();
          table.forEach((key, r) -> seen.put(key.getLong(0), r));
          assertThat(seen).isEqualTo(model);
        }
      }
      assertThat(table.primitiveKeys()).isTrue();
    }
  }
}
