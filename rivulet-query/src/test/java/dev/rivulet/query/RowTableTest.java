package dev.rivulet.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.query.state.RowTable;
import dev.rivulet.testkit.Seeds;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link RowTable} against a {@link HashMap} under random puts (key given or derived from the row),
 * replacements and removals.
 */
class RowTableTest {
  @Test
  void behavesLikeAMapUnderRandomOperations() {
    for (long seed : Seeds.runs(24)) {
      Random rnd = new Random(seed);
      // Dense and strided (low bits shared: forces the multiplicative spread) long keys,
      // two-column keys, and long keys until a first string key switches the table over.
      int kind = rnd.nextInt(4);
      int domain = 1 + rnd.nextInt(3000);
      // Rows hold their key up front, so puts can go either way: key given or derived.
      RowTable table = new RowTable(kind == 2 ? new int[] {0, 1} : new int[] {0});
      Map<Row, Row> model = new HashMap<>();
      for (int op = 0; op < 20_000; op++) {
        int k = rnd.nextInt(domain);
        Row key = switch (kind) {
          case 0 -> Row.of(k - domain / 2); // negative keys too
          case 1 -> Row.of((long) k << 20);
          case 2 -> Row.of(k % 7, "k" + k / 7);
          default -> op > 5_000 && k % 50 == 0 ? Row.of("s" + k) : Row.of(k);
        };
        if (rnd.nextInt(3) == 0) {
          assertThat(table.remove(key)).as("seed %d op %d remove %s", seed, op, key).isEqualTo(model.remove(key));
        } else {
          Row row = key.concat(Row.of(op));
          Row before = rnd.nextBoolean() ? table.put(key, row) : table.putRow(row);
          assertThat(before).as("seed %d op %d put %s", seed, op, key).isEqualTo(model.put(key, row));
        }
        assertThat(table.size()).isEqualTo(model.size());
        if (op % 997 == 0) {
          assertThat(contents(table)).as("seed %d op %d", seed, op).isEqualTo(model);
          assertRowsInOneOrder(table, model);
          for (Row probe : model.keySet()) {
            assertThat(table.get(probe)).isEqualTo(model.get(probe));
          }
        }
      }
      assertThat(contents(table)).isEqualTo(model);
      assertThat(new HashSet<>(table.keys())).isEqualTo(model.keySet());
    }
  }

  /**
   * The bulk calls ({@code putRows}, {@code putNew}) and the row-keyed ones ({@code getRow},
   * {@code removeRow}) against a map, the rows read back through every reader ({@code toArray},
   * {@code forEachRow}, {@code forEach}, {@code keys}) in one order, as removals move rows about.
   */
  @Test
  void bulkAndRowKeyedCallsKeepEveryReaderInOneOrder() {
    for (long seed : Seeds.runs(12)) {
      Random rnd = new Random(seed);
      boolean wide = rnd.nextBoolean(); // keys beyond 32 bits
      boolean text = rnd.nextInt(3) == 0; // a text key: key rows instead of primitives
      RowTable table = new RowTable(new int[] {0});
      Map<Row, Row> model = new HashMap<>();
      int domain = 1 + rnd.nextInt(5_000);
      // keys around 0 or just below 2^31 (some then beyond 32 bits) or -2^31
      long base = new long[] {-domain / 2, Integer.MAX_VALUE - domain / 2, Integer.MIN_VALUE}[rnd.nextInt(3)];
      for (int round = 0; round < 60; round++) {
        int n = rnd.nextInt(400);
        Row[] batch = new Row[n];
        for (int i = 0; i < n; i++) {
          long k = rnd.nextInt(domain) * (wide ? 1L << 33 : 1L) + base;
          batch[i] = Row.of(text ? (Object) ("k" + k) : (Object) k, round * 1_000 + i);
        }
        if (rnd.nextBoolean()) {
          table.putRows(batch, n);
          for (Row r : batch) {
            model.put(Row.of(r.get(0)), r);
          }
        } else {
          int put = table.putNew(batch, n);
          for (int i = 0; i < put; i++) {
            assertThat(model.put(Row.of(batch[i].get(0)), batch[i])).as("seed %d round %d", seed, round).isNull();
          }
          if (put < n) {
            assertThat(model).containsKey(Row.of(batch[put].get(0)));
          }
        }
        for (int i = rnd.nextInt(300); i > 0; i--) {
          long k = rnd.nextInt(domain) * (wide ? 1L << 33 : 1L) + base;
          Row probe = Row.of(text ? (Object) ("k" + k) : (Object) k, -1);
          Row key = Row.of(probe.get(0));
          assertThat(table.getRow(probe)).isEqualTo(model.get(key));
          assertThat(table.removeRow(probe)).as("seed %d round %d remove %s", seed, round, key).isEqualTo(model.remove(key));
        }
        assertThat(table.size()).isEqualTo(model.size());
        assertRowsInOneOrder(table, model);
      }
    }
  }

  /** Every reader sees the model's rows, in one order: forEachRow's is toArray's, forEach's keys are keys()'s. */
  private static void assertRowsInOneOrder(RowTable table, Map<Row, Row> model) {
    Row[] array = table.toArray();
    assertThat(array).containsExactlyInAnyOrderElementsOf(model.values());
    List<Row> each = new ArrayList<>();
    table.forEachRow(each::add);
    assertThat(each).containsExactly(array);
    List<Row> keys = new ArrayList<>();
    List<Row> rows = new ArrayList<>();
    table.forEach((k, r) -> {
      keys.add(k);
      rows.add(r);
    });
    assertThat(rows).containsExactly(array);
    assertThat(table.keys()).isEqualTo(keys);
    for (int i = 0; i < keys.size(); i++) {
      assertThat(model.get(keys.get(i))).isSameAs(rows.get(i));
    }
  }

  @Test
  void reserveKeepsContents() {
    RowTable table = new RowTable(new int[] {0});
    for (int i = 0; i < 100; i++) {
      table.put(Row.of(i), Row.of(i, "v"));
    }
    table.reserve(100_000);
    assertThat(table.size()).isEqualTo(100);
    assertThat(table.get(Row.of(42))).isEqualTo(Row.of(42, "v"));
    assertThat(table.get(Row.of(100))).isNull();
  }

  private static Map<Row, Row> contents(RowTable table) {
    Map<Row, Row> out = new HashMap<>();
    table.forEach(out::put);
    return out;
  }
}
