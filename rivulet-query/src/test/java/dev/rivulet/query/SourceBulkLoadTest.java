package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.lit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.query.state.RowTable;
import dev.rivulet.testkit.Seeds;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A sync batch that nobody reads the change of (no live query over the collection, no listener)
 * is applied by the bulk path of {@code SourceCollection.applySync} (counted in {@code
 * bulkApplies}), and leaves the same rows as the general path, which a twin collection with a
 * listener takes: random batches of writes with repeated keys and NULLs, some with deletes or a
 * truncate (those take the general path), checked against a map after every commit. A live query
 * created afterwards hydrates (one array per source) to the naive filter, order and limit of the
 * model, and keeps agreeing through later single-row changes and retractions.
 */
class SourceBulkLoadTest {
  private static final Schema S = Schema.parse("id INT NOT NULL, status STRING, priority INT, title STRING");
  private static final String[] STATUS = {"open", "closed", null};

  @Test
  void bulkApplyIsTakenAndAgreesWithTheGeneralPath() {
    int bulk = 0;
    for (long seed : Seeds.runs(20)) {
      Random rnd = new Random(seed);
      Rivulet db = Rivulet.create();
      SourceCollection fast = db.collection("fast", S, List.of("id"));
      SourceCollection general = db.collection("general", S, List.of("id"));
      List<List<ChangeEvent>> heard = new ArrayList<>();
      general.subscribe(heard::add); // a listener: the general path records every change
      Map<Long, Row> model = new HashMap<>();
      for (int b = 0; b < 6; b++) {
        SourceCollection.SyncBatch fb = fast.beginSync();
        SourceCollection.SyncBatch gb = general.beginSync();
        int kind = rnd.nextInt(4); // 0: deletes too, 1: a truncate first, else writes only
        if (kind == 1) {
          fb.truncate();
          gb.truncate();
          model.clear();
        }
        boolean deletes = false;
        for (int k = 1 + rnd.nextInt(b == 0 ? 400 : 40); k > 0; k--) {
          long id = rnd.nextInt(300);
          if (kind == 0 && rnd.nextInt(3) == 0) {
            deletes = true;
            fb.delete(Row.of(id));
            gb.delete(Row.of(id));
            model.remove(id);
          } else {
            Row r = row(rnd, id);
            fb.write(r);
            gb.write(r);
            model.put(id, r);
          }
        }
        int before = fast.bulkApplies;
        boolean writesOnly = !deletes && fb.size() > 1;
        fb.commit();
        gb.commit();
        assertThat(fast.bulkApplies - before).as("seed %d batch %d: bulk path taken", seed, b)
            .isEqualTo(writesOnly ? 1 : 0);
        assertThat(general.bulkApplies).isZero();
        bulk += fast.bulkApplies - before;
        assertThat(byKey(fast)).as("seed %d batch %d (%s)", seed, b, Seeds.replayHint(seed)).isEqualTo(model)
            .isEqualTo(byKey(general));
      }
      assertThat(heard).isNotEmpty();
      checkLiveQuery(db, fast, model, rnd, seed);
    }
    assertThat(bulk).as("some batches took the bulk path").isPositive();
  }

  /**
   * Batches longer than a chunk of the sync batch's storage (the first chunk grown, then full
   * chunks, the last partial), some with deletes spread across chunks: the bulk path (writes only)
   * and the general path (a listener, or deletes) leave the model's rows.
   */
  @Test
  void batchesOfSeveralChunksAgreeWithTheModel() {
    int chunk = SourceCollection.CHUNK;
    for (long seed : Seeds.runs(3)) {
      Random rnd = new Random(seed);
      Rivulet db = Rivulet.create();
      SourceCollection fast = db.collection("fast", S, List.of("id"));
      SourceCollection general = db.collection("general", S, List.of("id"));
      general.subscribe(events -> { });
      Map<Long, Row> model = new HashMap<>();
      for (int b = 0; b < 4; b++) {
        SourceCollection.SyncBatch fb = fast.beginSync();
        SourceCollection.SyncBatch gb = general.beginSync();
        boolean deletes = b % 2 == 1;
        int size = chunk - 3 + rnd.nextInt(2 * chunk + 9);
        for (int k = 0; k < size; k++) {
          long id = rnd.nextInt(3 * chunk);
          if (deletes && rnd.nextInt(4) == 0) {
            fb.delete(Row.of(id));
            gb.delete(Row.of(id));
            model.remove(id);
          } else {
            Row r = row(rnd, id);
            fb.write(r);
            gb.write(r);
            model.put(id, r);
          }
        }
        assertThat(fb.size()).isEqualTo(size);
        int before = fast.bulkApplies;
        fb.commit();
        gb.commit();
        assertThat(fast.bulkApplies - before).as("seed %d batch %d: bulk path", seed, b).isEqualTo(deletes ? 0 : 1);
        assertThat(byKey(fast)).as("seed %d (%s) batch %d of %d", seed, Seeds.replayHint(seed), b, size)
            .isEqualTo(model).isEqualTo(byKey(general));
      }
    }
  }

  /**
   * A first load of at least {@code RowTable.DEFER_AT} distinct ids (shuffled) goes into the
   * collection's table without its slot table (the fast path: {@code deferred()}), its live query
   * hydrates to the model without building it, and the first keyed change does; later writes,
   * deletes and reads by key agree with the model. A load that repeats an id, or a batch with a
   * delete, takes the path that builds the slot table at once, and its later row of a key wins.
   */
  @Test
  void aLargeFirstLoadOfIdsLeavesTheKeyTableToTheFirstKeyedChange() {
    for (long seed : Seeds.runs(2)) {
      for (int kind = 0; kind < 3; kind++) { // 0: distinct ids, 1: an id repeated, 2: a delete too
        load(seed, kind);
      }
    }
  }

  /** One load of {@code kind} (see the test above), then the query, the pass and keyed changes. */
  private static void load(long seed, int kind) {
    Random rnd = new Random(seed * 3 + kind);
    int n = RowTable.DEFER_AT + rnd.nextInt(3 * SourceCollection.CHUNK);
    Rivulet db = Rivulet.create();
    SourceCollection c = db.collection("c", S, List.of("id"));
    Map<Long, Row> model = new HashMap<>();
    List<Long> ids = new ArrayList<>();
    for (long id = 1; id <= n; id++) {
      ids.add(id);
    }
    java.util.Collections.shuffle(ids, rnd);
    SourceCollection.SyncBatch batch = c.beginSync();
    for (int i = 0; i < n; i++) {
      long id = kind == 1 && i == n / 2 ? ids.get(rnd.nextInt(i)) : ids.get(i);
      Row r = row(rnd, id);
      batch.write(r);
      model.put(id, r);
      if (kind == 2 && i == n / 3) {
        long gone = ids.get(rnd.nextInt(i));
        batch.delete(Row.of(gone));
        model.remove(gone);
      }
    }
    String as = "seed " + seed + " (" + Seeds.replayHint(seed) + ") kind " + kind;
    batch.markReady().commit();
    assertThat(c.rows.deferred()).as(as).isEqualTo(kind == 0);
    assertThat(byKey(c)).as(as).isEqualTo(model);
    LiveQuery q = db.liveQuery("q", Query.from("i", c).where(eq(col("i.status"), lit("open")))
        .orderBy(Query.desc(col("i.priority")), Query.asc(col("i.id"))).limit(10));
    assertThat(q.rows()).as(as + ": hydrated").isEqualTo(naive(model));
    assertThat(c.rows.deferred()).as(as + ": a query reads the rows alone").isEqualTo(kind == 0);
    for (int k = 0; k < 200; k++) {
      long id = 1 + rnd.nextInt(n + 20);
      if (rnd.nextInt(3) == 0) {
        c.beginSync().delete(Row.of(id)).commit();
        model.remove(id);
      } else {
        Row r = row(rnd, id);
        c.beginSync().write(r).commit();
        model.put(id, r);
      }
      assertThat(c.rows.deferred()).as(as).isFalse();
      assertThat(c.rows.getRow(Row.of(id))).as(as + " change " + k).isEqualTo(model.get(id));
      assertThat(q.rows()).as(as + " change " + k).isEqualTo(naive(model));
    }
    assertThat(byKey(c)).as(as).isEqualTo(model);
  }

  /** A live query over {@code c} agrees with the model after hydration and after later changes. */
  private static void checkLiveQuery(Rivulet db, SourceCollection c, Map<Long, Row> model, Random rnd, long seed) {
    LiveQuery q = db.liveQuery("q", Query.from("i", c).where(eq(col("i.status"), lit("open")))
        .orderBy(Query.desc(col("i.priority")), Query.asc(col("i.id"))).limit(10));
    assertThat(q.rows()).as("seed %d: hydrated", seed).isEqualTo(naive(model));
    int before = c.bulkApplies;
    for (int k = 0; k < 30; k++) {
      long id = rnd.nextInt(300);
      if (rnd.nextInt(3) == 0) {
        c.beginSync().delete(Row.of(id)).commit();
        model.remove(id);
      } else {
        Row r = row(rnd, id);
        c.beginSync().write(r).write(r).commit(); // two writes, but a live query reads the change
        model.put(id, r);
      }
      assertThat(q.rows()).as("seed %d change %d", seed, k).isEqualTo(naive(model));
    }
    assertThat(c.bulkApplies).as("observed: the general path").isEqualTo(before);
  }

  private static List<Row> naive(Map<Long, Row> model) {
    // Descending, NULLs first; then the id ascending.
    Comparator<Row> byPriority = Comparator.comparing(r -> (Long) r.get(2),
        Comparator.nullsFirst(Comparator.<Long>reverseOrder()));
    return model.values().stream().filter(r -> "open".equals(r.get(1)))
        .sorted(byPriority.thenComparing(r -> (Long) r.get(0))).limit(10).toList();
  }

  private static Row row(Random rnd, long id) {
    Long priority = rnd.nextInt(6) == 0 ? null : (long) rnd.nextInt(5);
    return Row.of(id, STATUS[rnd.nextInt(STATUS.length)], priority, rnd.nextBoolean() ? "t" + rnd.nextInt(3) : null);
  }

  private static Map<Long, Row> byKey(SourceCollection c) {
    Map<Long, Row> out = new HashMap<>();
    for (Row r : c.rows()) {
      out.put((Long) r.get(0), r);
    }
    return out;
  }
}
