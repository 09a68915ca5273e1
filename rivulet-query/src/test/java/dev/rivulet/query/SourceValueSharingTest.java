package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.lit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A source collection keeps the rows written to it in batches of several writes with their
 * repeated values shared (one title instance per distinct title), by the bulk load and by a later
 * batch that a live query reads, keeps a row written alone as given, and its rows and a live query
 * over them stay those of a plain map. (When a large load is pooled: {@code LoadPoolingTest}.)
 */
class SourceValueSharingTest {
  private static final Schema S = Schema.parse("id INT NOT NULL, status STRING, title STRING, owner INT");

  private static Row row(long id, int version) {
    // new String: every row arrives with its own title instance
    return Row.of(id, id % 3 == 0 ? "open" : "closed", new String(("title " + (id + version) % 50).toCharArray()),
        1_000 + (id * 7 + version) % 300);
  }

  @Test
  void writtenRowsShareRepeatedValuesAndStayEqual() {
    Rivulet db = Rivulet.create();
    SourceCollection c = db.collection("issues", S, List.of("id"));
    Map<Long, Row> model = new TreeMap<>();
    SourceCollection.SyncBatch load = c.beginSync();
    for (long id = 0; id < 20_000; id++) {
      Row r = row(id, 0);
      load.write(r);
      model.put(id, r);
    }
    load.markReady().commit();
    LiveQuery open = db.liveQuery("open", Query.from("i", c).where(eq(col("i.status"), lit("open"))));
    for (long id = 0; id < 20_000; id += 7) {
      Row r = row(id, 1);
      Object title = r.get(2);
      c.beginSync().write(r).commit();
      assertThat(r.get(2)).as("a batch of one write keeps its values").isSameAs(title);
      model.put(id, r);
    }
    SourceCollection.SyncBatch two = c.beginSync();
    for (long id = 3; id < 20_000; id += 7) {
      Row r = row(id, 2);
      two.write(r);
      model.put(id, r);
    }
    two.commit();
    assertThat(byKey(c.rows())).isEqualTo(model);
    Map<Long, Row> openModel = new TreeMap<>();
    model.forEach((k, r) -> {
      if ("open".equals(r.get(1))) {
        openModel.put(k, r);
      }
    });
    assertThat(byKey(open.rows())).isEqualTo(openModel);
    c.compact(); // the load's own pass may still be running (LoadPoolingTest)
    assertThat(instances(c.rows(), 2)).as("titles: 50 distinct, of 20,000 rows, 2,858 written alone")
        .isLessThan(2_858 + 500);
    List<Row> batched = c.rows().stream().filter(r -> r.getLong(0) % 7 == 3).toList();
    assertThat(instances(batched, 2)).as("titles of the later batch's 2,857 rows").isLessThanOrEqualTo(50);
    assertThat(instances(c.rows(), 3)).as("owners: 300 distinct, of 20,000 rows, 2,858 written alone")
        .isLessThan(2_858 + 2_000);
  }

  @Test
  void aSyncTransactionAndAShortBatchShareTheirLastBlock() {
    Rivulet db = Rivulet.create();
    SourceCollection c = db.collection("issues", S, List.of("id"));
    SourceCollection d = db.collection("others", S, List.of("id"));
    SyncTransaction tx = db.beginSync();
    for (long id = 0; id < 150; id++) { // two full blocks and a part: the part is shared at commit
      tx.write(c, row(id, 0));
      tx.write(d, row(id, 0));
    }
    tx.commit();
    assertThat(instances(c.rows(), 2)).as("titles: 50 distinct, one instance each (the partial block's too)")
        .isEqualTo(50);
    assertThat(instances(d.rows(), 2)).isEqualTo(50);
    SourceCollection.SyncBatch small = c.beginSync();
    for (long id = 1_000; id < 1_010; id++) { // ten rows, one partial block, of titles seen before
      small.write(row(id, 0));
    }
    small.commit();
    assertThat(c.rows()).hasSize(160);
    assertThat(instances(c.rows(), 2)).as("the ten rows hold the earlier instances").isEqualTo(50);
  }

  @Test
  void everyRowOfALoadIsPooledWhateverTheBatchSize() {
    // Sizes around a block's end (64 rows), the first chunk's doublings and a chunk's end (4,096).
    for (int n : new int[] {2, 63, 64, 65, 127, 128, 129, 200, 4_095, 4_096, 4_097, 8_193}) {
      Rivulet db = Rivulet.create();
      SourceCollection c = db.collection("issues", S, List.of("id"));
      SourceCollection.SyncBatch load = c.beginSync();
      for (long id = 0; id < n; id++) {
        load.write(row(id, 0));
      }
      load.commit();
      if (n >= SourceCollection.CHUNK) {
        c.compact(); // a load this large is pooled after the next query (LoadPoolingTest)
      }
      assertThat(c.rows()).as("%d rows", n).hasSize(n);
      assertThat(instances(c.rows(), 2)).as("titles of a load of %d rows: one instance per distinct title", n)
          .isEqualTo(Math.min(n, 50));
    }
  }

  @Test
  void aLoadIsPooledAtCommitNotByWrite() {
    // write itself never calls the pool (its optimised compile stays small): a batch below a
    // chunk is pooled by its commit, before it returns.
    Rivulet db = Rivulet.create();
    SourceCollection c = db.collection("issues", S, List.of("id"));
    SourceCollection.SyncBatch load = c.beginSync();
    List<Row> written = new java.util.ArrayList<>();
    for (long id = 0; id < SourceCollection.CHUNK - 1; id++) {
      Row r = row(id, 0);
      load.write(r);
      written.add(r);
    }
    assertThat(instances(written, 2)).as("written, not committed: nothing pooled yet")
        .isEqualTo(SourceCollection.CHUNK - 1);
    load.commit();
    assertThat(instances(written, 2)).as("committed: pooled").isEqualTo(50);
  }

  @Test
  void aBatchWithDeletesOrATruncateIsPooledPastAChunkEnd() {
    // Deletes make the batch keep keys (each entry then goes through add); a truncate starts it over.
    Rivulet db = Rivulet.create();
    SourceCollection c = db.collection("issues", S, List.of("id"));
    SourceCollection.SyncBatch load = c.beginSync();
    for (long id = 0; id < 5_000; id++) { // past a chunk's end: the first chunk is pooled before the truncate
      load.write(row(id, 0));
    }
    load.truncate();
    for (long id = 0; id < 9_000; id++) {
      load.write(row(id, 0));
      if (id % 100 == 99) {
        load.delete(Row.of(id - 50));
      }
    }
    load.commit();
    c.compact();
    assertThat(c.rows()).hasSize(9_000 - 90);
    assertThat(instances(c.rows(), 2)).as("titles: one instance per distinct title").isEqualTo(50);
  }

  /** The rows by their first column (an INT key). */
  static Map<Long, Row> byKey(List<Row> rows) {
    Map<Long, Row> out = new TreeMap<>();
    for (Row r : rows) {
      out.put(r.getLong(0), r);
    }
    return out;
  }

  /** How many instances hold the values of {@code column} (equal values may be one or several). */
  static int instances(List<Row> rows, int column) {
    return identities(rows, column).size();
  }

  /** The instances that hold the values of {@code column}. */
  static Set<Object> identities(List<Row> rows, int column) {
    Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    rows.forEach(r -> seen.add(r.get(column)));
    return seen;
  }
}
