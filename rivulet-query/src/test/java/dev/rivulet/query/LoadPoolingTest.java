package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.lit;
import static dev.rivulet.query.SourceValueSharingTest.byKey;
import static dev.rivulet.query.SourceValueSharingTest.identities;
import static dev.rivulet.query.SourceValueSharingTest.instances;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A large load into a collection no live query reads is pooled after its commit returns
 * ({@link LoadPooling}): by a pass after the next live query, or after a wait without one; before a
 * query whose rows copy values out of the load's rows; at once by {@link SourceCollection#compact}.
 * Meanwhile the rows, the queries over them and the writes to them are those of a plain map.
 */
class LoadPoolingTest {
  private static final Schema S = Schema.parse("id INT NOT NULL, status STRING, title STRING, owner INT");
  private static final Schema OWNERS = Schema.parse("id INT NOT NULL, name STRING");
  private static final int ROWS = 20_000;

  private static Row row(long id, int version) {
    // new String: every row arrives with its own title instance (50 distinct titles)
    return Row.of(id, id % 3 == 0 ? "open" : "closed", new String(("title " + (id + version) % 50).toCharArray()),
        id % 40);
  }

  private static SourceCollection loaded(Rivulet db, Map<Long, Row> model) {
    SourceCollection c = db.collection("issues", S, List.of("id"));
    SourceCollection.SyncBatch load = c.beginSync();
    for (long id = 0; id < ROWS; id++) {
      Row r = row(id, 0);
      load.write(r);
      model.put(id, r);
    }
    load.markReady().commit();
    return c;
  }

  private static Query openByTitle(SourceCollection c) {
    return Query.from("i", c).where(eq(col("i.status"), lit("open")))
        .orderBy(Query.asc(col("i.title")), Query.asc(col("i.id"))).limit(100);
  }

  @Test
  void theNextQueryIsCreatedOverTheLoadAndThePassPoolsItsRowsAfterwards() throws Exception {
    Rivulet db = Rivulet.create();
    Map<Long, Row> model = new TreeMap<>();
    SourceCollection c = loaded(db, model);
    LiveQuery q = db.liveQuery("open", openByTitle(c));
    assertThat(q.rows()).hasSize(100);
    awaitShared(c, 50);
    assertThat(instances(c.rows(), 2)).as("titles, pooled by the pass, no call to compact").isEqualTo(50);
    Set<Object> sourceTitles = identities(c.rows(), 2);
    for (Row r : q.rows()) {
      assertThat(sourceTitles).as("a filtered, ordered window holds the source's rows: pooled with them")
          .contains(r.get(2));
    }
  }

  @Test
  void withoutAQueryThePassRunsAfterItsWait() throws Exception {
    Rivulet db = Rivulet.create();
    SourceCollection c = loaded(db, new TreeMap<>());
    awaitShared(c, 50);
    assertThat(instances(c.rows(), 2)).isEqualTo(50);
  }

  @Test
  void aQueryThatCopiesValuesPoolsTheLoadBeforeReadingIt() {
    Rivulet db = Rivulet.create();
    SourceCollection c = loaded(db, new TreeMap<>());
    SourceCollection owners = db.collection("owners", OWNERS, List.of("id"));
    SourceCollection.SyncBatch b = owners.beginSync();
    for (long id = 0; id < 40; id++) {
      b.write(Row.of(id, "owner " + id));
    }
    b.markReady().commit();
    LiveQuery projected = db.liveQuery("titles", Query.from("i", c)
        .select(Query.as("id", col("i.id")), Query.as("title", col("i.title"))));
    assertThat(projected.rows()).hasSize(ROWS);
    assertThat(instances(projected.rows(), 1)).as("a projection's rows, made after the load was pooled")
        .isEqualTo(50);
    LiveQuery joined = db.liveQuery("joined", Query.from("i", c)
        .join(QueryIR.JoinKind.INNER, "o", owners, Query.on("i.owner", "o.id"))
        .select(Query.as("id", col("i.id")), Query.as("title", col("i.title")), Query.as("name", col("o.name"))));
    assertThat(joined.rows()).hasSize(ROWS);
    assertThat(instances(joined.rows(), 1)).isEqualTo(50);
    assertThat(c.queryDrains).as("the first query pooled the load; the second found nothing pending").isEqualTo(1);
  }

  /**
   * A query that copies values learns from the load's first rows whether any column replaces
   * values; a load whose columns do not (unique titles, constants, small integers) is left to the
   * pass, and the query's rows are still the load's.
   */
  @Test
  void aCopyingQueryLeavesALoadWhoseColumnsDoNotRepeatToThePass() throws Exception {
    Rivulet db = Rivulet.create();
    SourceCollection c = db.collection("issues", S, List.of("id"));
    SourceCollection.SyncBatch load = c.beginSync();
    for (long id = 0; id < ROWS; id++) {
      load.write(Row.of(id, id % 3 == 0 ? "open" : "closed", "title " + id, id % 40));
    }
    load.markReady().commit();
    LiveQuery projected = db.liveQuery("titles", Query.from("i", c)
        .select(Query.as("id", col("i.id")), Query.as("title", col("i.title"))));
    assertThat(c.queryDrains).as("nothing to share: the query did not pool the load").isZero();
    assertThat(projected.rows()).hasSize(ROWS);
    for (Row r : projected.rows()) {
      assertThat(r.get(1)).isEqualTo("title " + r.get(0));
    }
    c.compact();
    assertThat(instances(c.rows(), 2)).isEqualTo(ROWS);
  }

  @Test
  void aLoadIntoACollectionAQueryReadsIsPooledByItsCommit() {
    Rivulet db = Rivulet.create();
    SourceCollection c = db.collection("issues", S, List.of("id"));
    LiveQuery projected = db.liveQuery("titles", Query.from("i", c)
        .select(Query.as("id", col("i.id")), Query.as("title", col("i.title"))));
    SourceCollection.SyncBatch load = c.beginSync();
    for (long id = 0; id < ROWS; id++) {
      load.write(row(id, 0));
    }
    load.markReady().commit();
    assertThat(instances(c.rows(), 2)).as("pooled before the commit ran the query").isEqualTo(50);
    assertThat(instances(projected.rows(), 1)).isEqualTo(50);
  }

  @Test
  void writesAndQueriesWhileThePassRunsSeeAPlainMap() throws Exception {
    for (int round = 0; round < 5; round++) {
      Rivulet db = Rivulet.create();
      Map<Long, Row> model = new TreeMap<>();
      SourceCollection c = loaded(db, model);
      LiveQuery open = db.liveQuery("open", openByTitle(c)); // the pass starts now, on its thread
      LiveQuery all = db.liveQuery("all", Query.from("i", c).where(eq(col("i.status"), lit("closed"))));
      for (long id = round; id < ROWS; id += 97) { // updates and deletes while it pools
        Row r = row(id, 1 + round);
        if (id % 5 == 0) {
          c.beginSync().delete(Row.of(id)).commit();
          model.remove(id);
        } else {
          c.beginSync().write(r).commit();
          model.put(id, r);
        }
      }
      LiveQuery copied = db.liveQuery("copied", Query.from("i", c)
          .select(Query.as("id", col("i.id")), Query.as("title", col("i.title"))));
      c.compact();
      assertThat(byKey(c.rows())).isEqualTo(model);
      List<Row> open0 = model.values().stream().filter(r -> "open".equals(r.get(1)))
          .sorted((a, b) -> {
            int t = ((String) a.get(2)).compareTo((String) b.get(2));
            return t != 0 ? t : Long.compare(a.getLong(0), b.getLong(0));
          }).limit(100).toList();
      assertThat(open.rows()).as("round %d: the window", round).containsExactlyElementsOf(open0);
      Map<Long, Row> closed = new TreeMap<>();
      model.forEach((k, r) -> {
        if ("closed".equals(r.get(1))) {
          closed.put(k, r);
        }
      });
      assertThat(byKey(all.rows())).isEqualTo(closed);
      Map<Long, Row> titles = new TreeMap<>();
      model.forEach((k, r) -> titles.put(k, Row.of(k, r.get(2))));
      assertThat(byKey(copied.rows())).isEqualTo(titles);
      assertThat(instances(c.rows(), 2)).as("round %d: the loaded rows' titles pooled, the updates' kept", round)
          .isLessThanOrEqualTo(50 + ROWS / 97 + 1);
    }
  }

  /** Waits up to 10 s until {@code c}'s titles are held by {@code n} instances. */
  private static void awaitShared(SourceCollection c, int n) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (instances(c.rows(), 2) > n && System.nanoTime() < end) {
      Thread.sleep(5);
    }
  }
}
