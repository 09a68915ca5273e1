package dev.rivulet.query.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.testkit.Seeds;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Keys loaded in sequence sit at their homes in one run as long as the table: a removal, and a
 * lookup of an absent key whose home falls in that run, look at a few slots (no entry is farther
 * from its home than the table's longest probe), not at the rest of the run, and the table still
 * agrees with a map.
 */
class RowTableRunsTest {
  @Test
  void removalsAndMissesInASequentialRunStayShort() {
    int n = 100_000;
    RowTable table = new RowTable(new int[] {0});
    Row[] rows = new Row[n];
    Map<Long, Row> model = new HashMap<>();
    for (int i = 0; i < n; i++) {
      rows[i] = Row.of(i, "v" + i);
      model.put((long) i, rows[i]);
    }
    table.putRows(rows, n);
    assertThat(table.scrambled()).isFalse();
    Random rnd = new Random(Seeds.runs(1).get(0));
    long before = table.walked;
    int removals = 0;
    for (int i = 0; i < 2_000; i++) {
      long k = rnd.nextInt(n);
      Row gone = table.removeRow(Row.of(k, ""));
      assertThat(gone).isEqualTo(model.remove(k));
      removals += gone == null ? 0 : 1;
      long absent = n + 1_000_000L * (1 + rnd.nextInt(100)); // a key whose home lies in the run
      assertThat(table.getRow(Row.of(absent, ""))).isNull();
    }
    assertThat(removals).isGreaterThan(1_000);
    // a few slots an operation (the run beyond a gap is tens of thousands of slots long)
    assertThat(table.walked - before).as("slots walked by 2,000 removals and 2,000 misses").isLessThan(4 * 4_000);
    for (int i = 0; i < n; i++) {
      assertThat(table.getRow(rows[i])).isEqualTo(model.get((long) i));
    }
    assertThat(table.size()).isEqualTo(model.size());
  }
}
