package dev.rivulet.query.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.testkit.Seeds;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link RowTable}'s slot table past one page (32,768 slots): probe runs and removals' backward
 * shifts that cross from one page into the next and wrap from the last page to the first, a
 * rehash that grows one page into several, and the switches to 64-bit keys and to key rows on a
 * table of several pages, all against a map.
 */
class RowTablePagesTest {
  private static final int PAGE = 1 << 15;

  @Test
  void probeRunsAcrossPagesAgreeWithAMap() {
    for (long seed : Seeds.runs(3)) {
      for (int kind = 0; kind < 4; kind++) {
        Random rnd = new Random(seed * 7 + kind);
        RowTable t = new RowTable(new int[] {0});
        Map<Long, Row> model = new HashMap<>();
        Row[] load = new Row[40_000]; // two pages and more: 65,536 slots
        for (int i = 0; i < load.length; i++) {
          load[i] = Row.of((long) i, "v" + i);
          model.put((long) i, load[i]);
        }
        if (kind % 2 == 0) {
          t.putRows(load, load.length); // the bulk path
        } else {
          for (Row r : load) {
            t.putRow(r);
          }
        }
        assertThat(t.capacity()).isGreaterThan(PAGE);
        int capacity = t.capacity();
        for (int op = 0; op < 30_000; op++) {
          long k = key(kind, rnd, capacity);
          String what = "seed " + seed + " kind " + kind + " op " + op + " key " + k;
          switch (rnd.nextInt(4)) {
            case 0 -> assertThat(t.removeRow(Row.of(k, null))).as(what).isEqualTo(model.remove(k));
            case 1 -> assertThat(t.getRow(Row.of(k, null))).as(what).isEqualTo(model.get(k));
            default -> put(t, model, Row.of(k, op), what);
          }
          if (kind == 3 && op == 15_000) {
            put(t, model, Row.of(1L << 40, "wide"), what); // 64-bit keys from here on
            assertThat(t.intKeys()).isFalse();
          }
        }
        assertThat(t.primitiveKeys()).isTrue();
        assertAll(t, model, "seed " + seed + " kind " + kind);
        t.put(Row.of("text"), Row.of("text", 0)); // to key rows: every slot's tag is rewritten
        assertThat(t.primitiveKeys()).isFalse();
        t.remove(Row.of("text"));
        assertAll(t, model, "seed " + seed + " kind " + kind + " as key rows");
      }
    }
  }

  /**
   * Keys that home around a page's edges (kind 1), to the table's last slots so runs wrap to
   * slot 0 (kind 2), or anywhere (kinds 0 and 3); colliding keys share low bits with a loaded key.
   */
  private static long key(int kind, Random rnd, int capacity) {
    long collide = (long) capacity * (1 + rnd.nextInt(3));
    return switch (kind) {
      case 1 -> PAGE * (1 + rnd.nextInt(capacity / PAGE - 1)) - 8 + rnd.nextInt(16) + (rnd.nextBoolean() ? collide : 0);
      case 2 -> capacity - 1 - rnd.nextInt(8) + (rnd.nextBoolean() ? collide : 0);
      default -> rnd.nextInt(60_000);
    };
  }

  private static void put(RowTable t, Map<Long, Row> model, Row row, String what) {
    assertThat(t.putRow(row)).as(what).isEqualTo(model.put((Long) row.get(0), row));
    assertThat(t.size()).as(what).isEqualTo(model.size());
  }

  private static void assertAll(RowTable t, Map<Long, Row> model, String what) {
    for (Map.Entry<Long, Row> e : model.entrySet()) {
      assertThat(t.get(Row.of(e.getKey()))).as(what).isEqualTo(e.getValue());
    }
    assertThat(new HashSet<>(t.rows())).as(what).isEqualTo(new HashSet<>(model.values()));
  }
}
