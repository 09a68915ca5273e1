package dev.rivulet.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.query.state.RowTable;
import dev.rivulet.testkit.Seeds;
import java.util.HashMap;
import java.util.HashSet;
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
          case 0 -> Row.of(k);
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
          for (Row probe : model.keySet()) {
            assertThat(table.get(probe)).isEqualTo(model.get(probe));
          }
        }
      }
      assertThat(contents(table)).isEqualTo(model);
      assertThat(new HashSet<>(table.keys())).isEqualTo(model.keySet());
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
