package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.testkit.Seeds;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Recovery from a duplicate key against a model: a live query keyed by a column that random
 * writes make collide is in ERROR exactly while two of its result rows share the key, keeps its
 * last published rows meanwhile, and is READY with the model's rows otherwise; a keyed subscriber
 * and a window subscriber, folded, always hold what the query shows. The model is plain Java over
 * the written rows (sorted by value then id, the query's total order, then cut to the limit).
 */
class RecoveryOracleTest {
  @Test
  void aQueryIsFailedExactlyWhileItsKeyIsNotUnique() {
    int recoveries = 0;
    for (long seed : Seeds.runs(60)) {
      Random r = new Random(seed);
      Rivulet db = Rivulet.create();
      SourceCollection t = db.collection("t", Schema.parse("id INT NOT NULL, g INT, v INT"), List.of("id"));
      t.beginSync().markReady().commit();
      Integer limit = r.nextBoolean() ? null : 1 + r.nextInt(5);
      Query q = Query.from("t", t).select(Query.as("g", col("t.g")), Query.as("v", col("t.v")))
          .orderBy(Query.asc(col("t.v")));
      LiveQuery live = db.liveQuery("byG", limit == null ? q : q.limit(limit), List.of("g"));
      Map<Row, Row> keyed = new HashMap<>();
      live.subscribe(SubscribeOptions.sync().withInitialState(), b -> {
        for (ChangeEvent e : b.events()) {
          if (e.value() == null) {
            keyed.remove(e.key());
          } else {
            keyed.put(e.key(), e.value());
          }
        }
      });
      List<WindowBatch> batches = new ArrayList<>();
      live.subscribeWindow(SubscribeOptions.sync(), batches::add);
      Map<Long, Row> rows = new TreeMap<>();
      List<Row> published = live.rows();
      boolean wasFailed = false;
      for (int step = 0; step < 40; step++) {
        SourceCollection.SyncBatch b = t.beginSync();
        for (int i = 1 + r.nextInt(3); i > 0; i--) {
          long id = r.nextInt(8);
          if (r.nextInt(3) == 0) {
            b.delete(Row.of(id));
            rows.remove(id);
          } else {
            Row row = Row.of(id, r.nextInt(4), r.nextInt(6));
            b.write(row);
            rows.put(id, row);
          }
        }
        b.commit(); // returns normally: a failure is the query's (its status and error)
        List<Row> want = model(rows, limit);
        boolean unique = uniqueKeys(want);
        String at = "seed " + seed + " step " + step + " rows " + rows.values();
        if (unique) {
          assertThat(live.status()).as(at).isEqualTo(Status.READY);
          assertThat(live.rows()).as(at).isEqualTo(want);
          published = want;
          recoveries += wasFailed ? 1 : 0;
        } else {
          assertThat(live.status()).as(at).isEqualTo(Status.ERROR);
          assertThat(live.error()).as(at).hasMessageContaining("duplicate key");
          assertThat(live.rows()).as(at + ": the last published rows").isEqualTo(published);
        }
        wasFailed = !unique;
        assertThat(new HashSet<>(keyed.values())).as(at).isEqualTo(new HashSet<>(published));
        assertThat(keyed).as(at).hasSize(published.size());
        List<WindowDelta> steps = new ArrayList<>();
        batches.forEach(w -> steps.addAll(w.deltas()));
        assertThat(WindowStepsTest.apply(List.of(), steps)).as(at).isEqualTo(published);
      }
    }
    assertThat(recoveries).as("histories that recovered").isGreaterThan(10);
  }

  private static List<Row> model(Map<Long, Row> rows, Integer limit) {
    List<Row> sorted = new ArrayList<>(rows.values());
    sorted.sort(Comparator.comparingLong((Row x) -> ((Number) x.get(2)).longValue())
        .thenComparingLong(x -> ((Number) x.get(0)).longValue()));
    // The window (by v, then id), then its rows reduced by the key g: equal rows (same g and v,
    // the visible value and the order key) are one public row; the result is ordered by v, then g.
    Set<Row> out = new java.util.TreeSet<>(Comparator.comparingLong((Row x) -> ((Number) x.get(1)).longValue())
        .thenComparingLong(x -> ((Number) x.get(0)).longValue()));
    for (Row x : sorted.subList(0, limit == null ? sorted.size() : Math.min(limit, sorted.size()))) {
      out.add(Row.of(x.get(1), x.get(2)));
    }
    return new ArrayList<>(out);
  }

  private static boolean uniqueKeys(List<Row> result) {
    Set<Object> seen = new HashSet<>();
    for (Row x : result) {
      if (!seen.add(x.get(0))) {
        return false;
      }
    }
    return true;
  }
}
