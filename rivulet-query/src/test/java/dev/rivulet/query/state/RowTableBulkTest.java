package dev.rivulet.query.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.testkit.Seeds;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link RowTable#putRows} agrees with one {@link RowTable#putRow} per row (a later row of a key
 * wins), into an empty table or one holding rows, with primitive keys or key rows (a string key
 * switches the table); {@link RowTable#toArray} lists the rows in {@link RowTable#forEachRow}'s
 * order.
 */
class RowTableBulkTest {
  @Test
  void putRowsAgreesWithPutRowAndToArrayWithForEachRow() {
    for (long seed : Seeds.runs(30)) {
      Random rnd = new Random(seed);
      RowTable bulk = new RowTable(new int[] {0});
      RowTable single = new RowTable(new int[] {0});
      boolean strings = rnd.nextInt(3) == 0;
      for (int b = 0; b < 4; b++) {
        int n = rnd.nextInt(b == 0 ? 2_000 : 50);
        Row[] batch = new Row[n + 3]; // longer than n: only the first n count
        for (int i = 0; i < batch.length; i++) {
          long id = rnd.nextInt(500);
          Object key = strings && rnd.nextInt(10) == 0 ? "k" + id : (Object) id;
          batch[i] = Row.of(key, rnd.nextBoolean() ? null : (long) rnd.nextInt(9), i);
        }
        bulk.putRows(batch, n);
        for (int i = 0; i < n; i++) {
          single.putRow(batch[i]);
        }
        assertThat(bulk.size()).as("seed %d batch %d (%s)", seed, b, Seeds.replayHint(seed)).isEqualTo(single.size());
        for (Row r : batch) {
          assertThat(bulk.getRow(r)).as("seed %d key %s", seed, r.get(0)).isEqualTo(single.getRow(r));
        }
        List<Row> scanned = new ArrayList<>();
        bulk.forEachRow(scanned::add);
        assertThat(bulk.toArray()).as("seed %d", seed).containsExactlyElementsOf(scanned);
      }
    }
  }
}
