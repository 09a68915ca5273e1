package dev.rivulet.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.testkit.Seeds;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A sync batch applies its writes, deletes and truncates in the order they were made, whichever
 * way {@code SyncBatch} stores them (a lone first write, the first chunk growing, full chunks, a
 * write after a delete or a truncate): random batches checked against a map after each commit.
 */
class SyncBatchOrderTest {
  private static final Schema S = Schema.parse("id INT NOT NULL, title STRING, n INT");

  @Test
  void writesDeletesAndTruncatesApplyInOrder() {
    for (long seed : Seeds.runs(5)) {
      Random rnd = new Random(seed);
      Rivulet db = Rivulet.create();
      SourceCollection c = db.collection("c", S, List.of("id"));
      Map<Long, Row> model = new HashMap<>();
      for (int b = 0; b < 8; b++) {
        SourceCollection.SyncBatch batch = c.beginSync();
        int size = rnd.nextInt(4) == 0 ? rnd.nextInt(3) : rnd.nextInt(2 * SourceCollection.CHUNK + 100);
        int deleteAt = rnd.nextBoolean() ? rnd.nextInt(size + 1) : -1;
        int truncateAt = rnd.nextInt(3) == 0 ? rnd.nextInt(size + 1) : -1;
        for (int k = 0; k < size; k++) {
          if (k == truncateAt) {
            batch.truncate();
            model.clear();
          }
          long id = rnd.nextInt(SourceCollection.CHUNK);
          if (k == deleteAt || deleteAt >= 0 && k > deleteAt && rnd.nextInt(5) == 0) {
            batch.delete(Row.of(id));
            model.remove(id);
          } else {
            Row r = Row.of(id, "t" + rnd.nextInt(20), (long) rnd.nextInt(1_000));
            batch.write(r);
            model.put(id, r);
          }
        }
        batch.commit();
        Map<Long, Row> got = new HashMap<>();
        for (Row r : c.rows()) {
          got.put((Long) r.get(0), r);
        }
        assertThat(got).as("seed %d (%s) batch %d of %d, delete at %d, truncate at %d", seed,
            Seeds.replayHint(seed), b, size, deleteAt, truncateAt).isEqualTo(model);
      }
    }
  }
}
