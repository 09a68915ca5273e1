package dev.rivulet.query.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.testkit.Seeds;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link RowTable}'s read-ahead by primitive key (its {@code lead}): a table loaded in key order
 * finds every row where the guess put it ({@link RowTable#leadHits} counts each lookup), and the
 * answers agree with a map whether the guess holds or not: after removals move rows into gaps,
 * after keys that are not in order, and in a table whose keys do not sit at their homes.
 */
class RowTableLeadTest {
  @Test
  void aTableLoadedInKeyOrderFindsEveryRowByTheGuess() {
    for (int first : new int[] {0, 1, 1_000}) {
      RowTable t = new RowTable(new int[] {0});
      Map<Long, Row> model = new HashMap<>();
      for (long k = first; k < first + 5_000; k++) {
        Row row = Row.of(k, "v" + k);
        assertThat(t.putRow(row)).isNull();
        model.put(k, row);
      }
      Random rnd = new Random(first);
      long lookups = 0;
      long before = t.leadHits;
      for (int i = 0; i < 20_000; i++) {
        long k = first + rnd.nextInt(5_000);
        if (rnd.nextBoolean()) {
          Row row = Row.of(k, "w" + i);
          assertThat(t.putRow(row)).as("first %d: replaced row of %d", first, k).isEqualTo(model.put(k, row));
        } else {
          assertThat(t.getRow(Row.of(k, null))).as("first %d: row of %d", first, k).isEqualTo(model.get(k));
        }
        lookups++;
      }
      assertThat(t.leadHits - before).as("keys from %d: every lookup read its row ahead", first).isEqualTo(lookups);
    }
  }

  @Test
  void answersAgreeWithAMapWhenTheGuessFails() {
    for (long seed : Seeds.runs(6)) {
      for (int kind = 0; kind < 3; kind++) {
        Random rnd = new Random(seed * 31 + kind);
        RowTable t = new RowTable(new int[] {0});
        Map<Long, Row> model = new HashMap<>();
        int n = 3_000;
        for (int i = 0; i < n; i++) {
          long k = switch (kind) {
            case 0 -> i; // in order: the guess holds until removals move rows
            case 1 -> rnd.nextInt(4 * n); // any order
            default -> (long) i << 24; // shared low bits: far from their homes
          };
          Row row = Row.of(k, i);
          assertThat(t.putRow(row)).isEqualTo(model.put(k, row));
        }
        Long[] keys = model.keySet().toArray(new Long[0]);
        long hits = t.leadHits;
        int lookups = 0;
        for (int op = 0; op < 20_000; op++) {
          long k = rnd.nextInt(10) == 0 ? keyOf(kind, rnd.nextInt(4 * n)) : keys[rnd.nextInt(keys.length)];
          String what = "seed " + seed + " kind " + kind + " op " + op + " key " + k;
          switch (rnd.nextInt(6)) {
            case 0 -> assertThat(t.removeRow(Row.of(k, null))).as(what).isEqualTo(model.remove(k));
            case 1, 2 -> {
              Row row = Row.of(k, op);
              assertThat(t.putRow(row)).as(what).isEqualTo(model.put(k, row));
              lookups++;
            }
            default -> {
              assertThat(t.getRow(Row.of(k, null))).as(what).isEqualTo(model.get(k));
              lookups++;
            }
          }
          assertThat(t.size()).isEqualTo(model.size());
        }
        long used = t.leadHits - hits;
        assertThat(used).as("seed %d kind %d: some lookups miss the guess", seed, kind).isLessThan(lookups);
        for (Map.Entry<Long, Row> e : model.entrySet()) {
          assertThat(t.getRow(Row.of(e.getKey(), null))).isEqualTo(e.getValue());
        }
      }
    }
  }

  private static long keyOf(int kind, int i) {
    return kind == 2 ? (long) i << 24 : i;
  }
}
