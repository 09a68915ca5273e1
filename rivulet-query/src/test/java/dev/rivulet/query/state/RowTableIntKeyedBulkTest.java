package dev.rivulet.query.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.testkit.Seeds;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link RowTable#putRows}' loop for keys kept in 32 bits agrees with a map and with one {@link
 * RowTable#putRow} per row, also when a batch leaves that loop midway: a key beyond 32 bits (the
 * keys widen to longs), keys sharing their low bits (a long probe run spreads the table), a
 * string key (the table compares key rows), a negative key, and repeated keys (the later row
 * wins). (Whether the table spreads may differ from the single puts': putRows sizes the table for
 * the batch first.)
 */
class RowTableIntKeyedBulkTest {
  @Test
  void putRowsAgreesWithAMapWhateverEndsTheIntKeyedLoop() {
    for (long seed : Seeds.runs(20)) {
      Random rnd = new Random(seed);
      int n = 500 + rnd.nextInt(3_000);
      int turn = rnd.nextInt(n); // where the odd key comes
      int kind = rnd.nextInt(5);
      Row[] batch = new Row[n];
      Map<Object, Row> model = new HashMap<>();
      for (int i = 0; i < n; i++) {
        Object key = rnd.nextInt(8) == 0 ? (long) rnd.nextInt(i + 1) : (long) i; // some repeats
        if (i >= turn) {
          key = switch (kind) {
            case 0 -> i == turn ? 5_000_000_000L : key; // beyond 32 bits
            case 1 -> (long) (i - turn) << 12; // same low bits: long probe runs
            case 2 -> i == turn ? "k" + i : key; // not an integer
            case 3 -> -1L - i; // negative
            default -> key;
          };
        }
        batch[i] = Row.of(key, (long) rnd.nextInt(50), i);
        model.put(batch[i].get(0), batch[i]);
      }
      RowTable bulk = new RowTable(new int[] {0});
      RowTable single = new RowTable(new int[] {0});
      bulk.putRows(batch, n);
      for (Row r : batch) {
        single.putRow(r);
      }
      String as = "seed " + seed + " (" + Seeds.replayHint(seed) + ") kind " + kind + " turn " + turn;
      assertThat(bulk.size()).as(as).isEqualTo(model.size()).isEqualTo(single.size());
      for (Row r : model.values()) {
        assertThat(bulk.getRow(r)).as(as).isSameAs(r);
      }
      assertThat(bulk.primitiveKeys()).as(as).isEqualTo(single.primitiveKeys()).isEqualTo(kind != 2);
      assertThat(bulk.intKeys()).as(as).isEqualTo(single.intKeys()).isEqualTo(kind != 0 && kind != 2);
      if (kind == 1 && n - turn > 40) {
        assertThat(bulk.scrambled()).as(as).isTrue();
      }
    }
  }
}
