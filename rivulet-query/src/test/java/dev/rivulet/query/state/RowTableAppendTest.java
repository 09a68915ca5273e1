package dev.rivulet.query.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.testkit.Seeds;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link RowTable#appendDistinct}: a first load of distinct integer keys in a dense range is
 * appended with its keys unmapped, its rows read in load order; the first keyed call maps them,
 * and from then on the table agrees with a map under random puts, reads and removals. A load it
 * refuses (a repeated key, keys too sparse, a key that is no integer, a table not empty, a table
 * of key rows) leaves the table as it was, and the usual put gives a later row of a key the win.
 */
class RowTableAppendTest {
  private static Row[][] chunks(Row[] rows, int chunk) {
    List<Row[]> out = new ArrayList<>();
    for (int from = 0; from < rows.length; from += chunk) {
      out.add(Arrays.copyOfRange(rows, from, Math.min(rows.length, from + chunk)));
    }
    return out.toArray(new Row[0][]);
  }

  @Test
  void anAppendedLoadIsMappedByTheFirstKeyedCallAndThenAgreesWithAMap() {
    for (long seed : Seeds.runs(20)) {
      Random rnd = new Random(seed);
      int n = 2 + rnd.nextInt(5_000);
      long base = rnd.nextBoolean() ? 0 : rnd.nextInt(1 << 20) - (1 << 19) + (rnd.nextBoolean() ? 5_000_000_000L : 0);
      List<Long> ids = new ArrayList<>();
      for (long i = 0; i < n * 2L; i += 1 + rnd.nextInt(2)) { // dense, with gaps
        ids.add(base + i);
      }
      java.util.Collections.shuffle(ids, rnd);
      int m = Math.min(n, ids.size());
      Row[] load = new Row[m];
      Map<Long, Row> model = new LinkedHashMap<>();
      for (int i = 0; i < m; i++) {
        load[i] = Row.of(ids.get(i), "v" + i);
        model.put(ids.get(i), load[i]);
      }
      String as = "seed " + seed + " (" + Seeds.replayHint(seed) + ")";
      RowTable t = new RowTable(new int[] {0});
      int chunk = 1 + rnd.nextInt(700);
      assertThat(t.appendDistinct(chunks(load, chunk), chunk, m)).as(as).isTrue();
      assertThat(t.unmapped()).as(as).isTrue();
      assertThat(t.toArray()).as(as + ": the rows in load order, no key mapped").containsExactly(load);
      assertThat(t.unmapped()).as(as).isTrue();
      for (int step = 0; step < 2_000; step++) {
        long id = base + rnd.nextInt(n * 2 + 10);
        switch (rnd.nextInt(4)) {
          case 0 -> assertThat(t.getRow(Row.of(id, "?"))).as(as).isSameAs(model.get(id));
          case 1 -> {
            Row r = Row.of(id, "w" + step);
            assertThat(t.putRow(r)).as(as).isSameAs(model.put(id, r));
          }
          case 2 -> assertThat(t.removeRow(Row.of(id, "?"))).as(as).isSameAs(model.remove(id));
          default -> assertThat(t.get(Row.of(id))).as(as).isSameAs(model.get(id));
        }
        assertThat(t.unmapped()).as(as).isFalse();
      }
      assertThat(t.size()).as(as).isEqualTo(model.size());
      assertThat(t.toArray()).as(as).containsExactlyInAnyOrderElementsOf(model.values());
    }
  }

  @Test
  void aLoadItRefusesLeavesTheTableAsItWas() {
    Row[] repeated = {Row.of(1L, "a"), Row.of(2L, "b"), Row.of(1L, "c")};
    Row[] sparse = {Row.of(0L, "a"), Row.of(1_000L, "b"), Row.of(5L, "c")};
    Row[] text = {Row.of(1L, "a"), Row.of("k", "b")};
    for (Row[] load : List.of(repeated, sparse, text)) {
      RowTable t = new RowTable(new int[] {0});
      assertThat(t.appendDistinct(chunks(load, 2), 2, load.length)).isFalse();
      assertThat(t.size()).isZero();
      assertThat(t.unmapped()).isFalse();
      t.putRows(load, load.length);
      assertThat(t.getRow(load[0])).isSameAs(load == repeated ? repeated[2] : load[0]);
    }
    RowTable full = new RowTable(new int[] {0});
    full.putRow(Row.of(7L, "x"));
    assertThat(full.appendDistinct(chunks(repeated, 1), 1, 2)).as("a table with rows").isFalse();
    RowTable wide = new RowTable(new int[] {0, 1});
    assertThat(wide.appendDistinct(chunks(sparse, 1), 1, 2)).as("a key of two columns").isFalse();
  }

  @Test
  void theKeysRangeIsBoundedByTheLoadsSize() {
    int n = 1_000;
    Row[] dense = new Row[n];
    Row[] sparse = new Row[n];
    for (int i = 0; i < n; i++) {
      long far = (long) RowTable.DENSE * n / 4;
      dense[i] = Row.of(i == n / 2 ? far : n - i, "d"); // descending, one key a quarter of the bound away
      sparse[i] = Row.of(i == n / 2 ? 2L * RowTable.DENSE * n : (long) i, "s");
    }
    RowTable a = new RowTable(new int[] {0});
    RowTable b = new RowTable(new int[] {0});
    assertThat(a.appendDistinct(chunks(dense, 64), 64, n)).isTrue();
    assertThat(b.appendDistinct(chunks(sparse, 64), 64, n)).isFalse();
    assertThat(a.get(Row.of((long) RowTable.DENSE * n / 4))).isSameAs(dense[n / 2]);
    assertThat(a.get(Row.of(1L))).isSameAs(dense[n - 1]);
  }
}
