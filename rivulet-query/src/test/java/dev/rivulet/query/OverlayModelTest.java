package dev.rivulet.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.testkit.Seeds;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link SourceCollection}'s visible rows against a naive model of the documented rule: the
 * synced rows overlaid by the pending transactions' writes in apply order, over random
 * interleavings of sync batches (with truncates), applies, confirms and rollbacks.
 */
class OverlayModelTest {
  @Test
  void visibleRowsFollowTheModel() {
    for (long seed : Seeds.runs(200)) {
      run(seed);
    }
  }

  private static void run(long seed) {
    Random rnd = new Random(seed);
    Rivulet db = Rivulet.create();
    SourceCollection c = db.collection("c", Schema.parse("id INT NOT NULL, v INT"), List.of("id"));
    Map<Row, Row> synced = new HashMap<>();
    List<Transaction> pending = new ArrayList<>();
    Map<Transaction, Map<Row, Row>> writes = new HashMap<>();
    for (int step = 0; step < 60; step++) {
      int op = rnd.nextInt(10);
      if (op < 4) {
        SourceCollection.SyncBatch b = c.beginSync();
        if (rnd.nextInt(12) == 0) {
          b.truncate();
          synced.clear();
        }
        for (int i = rnd.nextInt(3); i >= 0; i--) {
          Row key = Row.of(rnd.nextInt(6));
          if (rnd.nextInt(4) == 0) {
            b.delete(key);
            synced.remove(key);
          } else {
            Row row = Row.of(key.get(0), rnd.nextInt(100));
            b.write(row);
            synced.put(key, row);
          }
        }
        b.commit();
      } else if (op < 7) {
        Transaction tx = db.transaction();
        Map<Row, Row> mine = new LinkedHashMap<>();
        for (int i = rnd.nextInt(3); i >= 0; i--) {
          Row key = Row.of(rnd.nextInt(6));
          Row now = mine.containsKey(key) ? mine.get(key) : model(synced, pending, writes).get(key);
          if (now == null) {
            Row row = Row.of(key.get(0), rnd.nextInt(100));
            tx.insert(c, row);
            mine.put(key, row);
          } else if (rnd.nextBoolean()) {
            tx.delete(c, key);
            mine.put(key, null);
          } else {
            Row row = Row.of(key.get(0), rnd.nextInt(100));
            tx.update(c, row);
            mine.put(key, row);
          }
        }
        tx.apply();
        pending.add(tx);
        writes.put(tx, mine);
      } else if (!pending.isEmpty()) {
        Transaction tx = pending.remove(rnd.nextInt(pending.size()));
        if (rnd.nextBoolean()) {
          tx.confirm();
          writes.get(tx).forEach((k, v) -> {
            if (v == null) {
              synced.remove(k);
            } else {
              synced.put(k, v);
            }
          });
        } else {
          tx.rollback();
        }
      }
      assertThat(c.rows())
          .as("seed %d (replay with RIVULET_SEED=%d) step %d", seed, seed, step)
          .containsExactlyInAnyOrderElementsOf(model(synced, pending, writes).values());
    }
  }

  private static Map<Row, Row> model(Map<Row, Row> synced, List<Transaction> pending,
      Map<Transaction, Map<Row, Row>> writes) {
    Map<Row, Row> visible = new HashMap<>(synced);
    for (Transaction t : pending) {
      writes.get(t).forEach((k, v) -> {
        if (v == null) {
          visible.remove(k);
        } else {
          visible.put(k, v);
        }
      });
    }
    return visible;
  }
}
