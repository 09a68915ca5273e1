package dev.rivulet.query.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.testkit.Seeds;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link RowTable#putNew} agrees with one {@link RowTable#putRow} per row up to the first row whose
 * key is present (in the table or earlier in the batch), which it names and does not put; on a
 * table of key rows (keys of two or three columns, nulls and strings among them), the rows it put
 * are then found, replaced and removed by key, and listed with their keys, like those putRow put.
 */
class RowTablePutNewTest {
  @Test
  void putNewAgreesWithPutRowUpToTheFirstPresentKey() {
    for (long seed : Seeds.runs(40)) {
      Random rnd = new Random(seed);
      int[] keyAt = switch (rnd.nextInt(3)) {
        case 0 -> new int[] {0};
        case 1 -> new int[] {2, 0};
        default -> new int[] {0, 1, 3};
      };
      RowTable bulk = new RowTable(keyAt);
      RowTable single = new RowTable(keyAt);
      boolean unique = rnd.nextBoolean(); // keys drawn without repeats: every batch goes in whole
      Set<Row> drawn = new HashSet<>();
      for (int b = 0; b < 4; b++) {
        int n = rnd.nextInt(b == 0 ? 3_000 : 60);
        Row[] batch = new Row[n + 2]; // longer than n: only the first n count
        for (int i = 0; i < batch.length; i++) {
          Row r;
          do {
            r = randomRow(rnd, unique ? 1_000_000 : 400, i);
          } while (unique && !drawn.add(r.project(keyAt)));
          batch[i] = r;
        }
        int stop = bulk.putNew(batch, n);
        int expected = n;
        for (int i = 0; i < n; i++) {
          if (single.getRow(batch[i]) != null) {
            expected = i;
            break;
          }
          single.putRow(batch[i]);
        }
        String at = "seed %d batch %d (%s)".formatted(seed, b, Seeds.replayHint(seed));
        assertThat(stop).as(at).isEqualTo(expected);
        if (unique) {
          assertThat(stop).as(at).isEqualTo(n);
        }
        assertThat(bulk.size()).as(at).isEqualTo(single.size());
        for (Row r : batch) {
          assertThat(bulk.getRow(r)).as(at + " key of %s", r).isEqualTo(single.getRow(r));
          assertThat(bulk.get(r.project(keyAt))).as(at + " key of %s", r).isEqualTo(single.get(r.project(keyAt)));
        }
        assertThat(new HashSet<>(bulk.keys())).as(at).isEqualTo(new HashSet<>(single.keys()));
        // Replace, then remove, some of the rows by key.
        for (int i = 0; i < n; i += 3) {
          Row r = batch[i];
          Object[] v = new Object[r.width()];
          for (int c = 0; c < v.length; c++) {
            v[c] = r.get(c);
          }
          v[4] = "replaced";
          Row replacement = Row.of(v);
          assertThat(bulk.putRow(replacement)).as(at).isEqualTo(single.putRow(replacement));
          if (i % 2 == 0) {
            assertThat(bulk.removeRow(replacement)).as(at).isEqualTo(single.removeRow(replacement));
          }
        }
        assertThat(bulk.size()).as(at).isEqualTo(single.size());
        for (Row r : batch) {
          assertThat(bulk.getRow(r)).as(at + " key of %s", r).isEqualTo(single.getRow(r));
        }
      }
    }
  }

  @Test
  void keyRowsAreMadeOnlyWhenAskedFor() {
    RowTable t = new RowTable(new int[] {0, 1});
    Row[] batch = new Row[100];
    for (int i = 0; i < batch.length; i++) {
      batch[i] = Row.of((long) i, "u" + (i % 7), null, null, i);
    }
    assertThat(t.putNew(batch, batch.length)).isEqualTo(100);
    assertThat(t.keyRowsMade()).as("no key row made by the put").isZero();
    assertThat(t.primitiveKeys()).isFalse();
    assertThat(t.scrambled()).as("several key columns: spread from the start").isTrue();
    assertThat(t.putNew(new Row[] {Row.of(5L, "u5", 1L, null, "again")}, 1)).isZero();
    assertThat(t.keyRowsMade()).as("a refused put makes none either").isZero();
    assertThat(t.get(Row.of(5L, "u5"))).isSameAs(batch[5]);
    assertThat(t.keyRowsMade()).as("a lookup makes the key rows it compares").isBetween(1, 99);
    assertThat(t.keys()).hasSize(100).contains(Row.of(99L, "u1"));
    assertThat(t.keyRowsMade()).isEqualTo(100);
  }

  private static Row randomRow(Random rnd, int range, int i) {
    long a = rnd.nextInt(range);
    Object b = rnd.nextInt(8) == 0 ? null : "s" + rnd.nextInt(range);
    Object d = rnd.nextInt(5) == 0 ? null : (long) rnd.nextInt(range);
    return Row.of(a, b, (long) rnd.nextInt(3), d, i);
  }
}
