package dev.rivulet.query.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link RowTable} with keys built to share one home slot at every capacity (long keys, and
 * general keys whose hashes fold to zero): long probe runs, the switch to scrambled homes, and
 * removals that shift entries back across the run and around the end of the table, against a
 * map after every operation.
 */
class RowTableClusteredKeysTest {
  /** Long keys whose unscrambled home, (k ^ k >>> 32) & mask, is 0 for every mask. */
  private static List<Row> clusteredLongKeys(int n) {
    List<Row> out = new ArrayList<>();
    for (long i = 1; i <= n; i++) {
      out.add(Row.of((i << 32) | i, "v" + i));
    }
    return out;
  }

  /** Two-column keys whose hash folds, (h ^ h >>> 16) & 0xffff, to 0: one home up to 65,536 slots. */
  private static List<Row> clusteredGeneralKeys(int n) {
    List<Row> out = new ArrayList<>();
    for (long i = 0; out.size() < n; i++) {
      Row key = Row.of(i, "k");
      int h = key.hashCode();
      if (((h ^ h >>> 16) & 0xffff) == 0) {
        out.add(Row.of(i, "k", "v" + i));
      }
    }
    return out;
  }

  private static void exercise(RowTable table, List<Row> rows, int[] keyColumns, long seed) {
    Map<Row, Row> model = new HashMap<>();
    Random rnd = new Random(seed);
    List<Row> order = new ArrayList<>(rows);
    for (Row r : order) {
      assertThat(table.putRow(r)).isNull();
      model.put(r.project(keyColumns), r);
      assertThat(table.getRow(r)).isEqualTo(r);
    }
    assertThat(table.size()).isEqualTo(rows.size());
    java.util.Collections.shuffle(order, rnd);
    for (int i = 0; i < order.size(); i++) {
      Row r = order.get(i);
      assertThat(table.removeRow(r)).as("remove %d of %d", i, order.size()).isEqualTo(r);
      model.remove(r.project(keyColumns));
      if (i % 5 == 0 || i > order.size() - 8) {
        for (Row s : rows) {
          assertThat(table.getRow(s)).as("after %d removals", i + 1).isEqualTo(model.get(s.project(keyColumns)));
        }
      }
      if (i % 3 == 0) { // put some back, so removals meet runs in every state
        Row back = order.get(rnd.nextInt(i + 1));
        if (!model.containsKey(back.project(keyColumns))) {
          table.putRow(back);
          model.put(back.project(keyColumns), back);
        }
      }
    }
    assertThat(table.size()).isEqualTo(model.size());
  }

  @Test
  void clusteredLongKeysStayFindableThroughInsertsAndRemovals() {
    for (int n : new int[] {20, 60, 300}) {
      exercise(new RowTable(new int[] {0}), clusteredLongKeys(n), new int[] {0}, n);
    }
  }

  @Test
  void clusteredGeneralKeysStayFindableThroughInsertsAndRemovals() {
    for (int n : new int[] {20, 60}) {
      exercise(new RowTable(new int[] {0, 1}), clusteredGeneralKeys(n), new int[] {0, 1}, n);
    }
  }

  @Test
  void runsThatWrapAroundTheEndOfTheTable() {
    // Keys whose home is the last slot of a 16-slot table: their run wraps to slot 0 and on.
    RowTable table = new RowTable(new int[] {0});
    List<Row> rows = new ArrayList<>();
    for (long i = 0; rows.size() < 7; i++) {
      long k = (i << 32) | 15 | (i << 4);
      if (((k ^ k >>> 32) & 15) == 15) {
        rows.add(Row.of(k, i));
      }
    }
    exercise(table, rows, new int[] {0}, 7);
  }
}
