package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.lit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A source records its changes for live queries only while one reads it: once the last reader
 * closes (or its creation fails), a load into the source takes the bulk path again, and a query
 * opened later still sees every row (review-query's finding: the mark was never cleared).
 */
class ReadersCountTest {
  private static final Schema ITEMS = Schema.parse("id INT NOT NULL, status STRING");

  private static void load(SourceCollection c, long from, long to) {
    SourceCollection.SyncBatch b = c.beginSync();
    for (long id = from; id < to; id++) {
      b.write(Row.of(id, id % 2 == 0 ? "open" : "closed"));
    }
    b.markReady().commit();
  }

  private static Query open(SourceCollection items) {
    return Query.from("i", items).where(eq(col("i.status"), lit("open")));
  }

  @Test
  void aSourceReadByNobodyLoadsInBulkAgain() {
    Rivulet db = Rivulet.create();
    SourceCollection items = db.collection("items", ITEMS, List.of("id"));
    load(items, 0, 100);
    assertThat(items.bulkApplies).isEqualTo(1);
    LiveQuery a = db.liveQuery("a", open(items));
    LiveQuery b = db.liveQuery("b", Query.from("x", items).join(QueryIR.JoinKind.INNER, "y", items,
        Query.on("x.id", "y.id")).select(Query.as("id", col("x.id")))); // reads it twice
    load(items, 100, 200);
    assertThat(items.bulkApplies).as("read: every change recorded").isEqualTo(1);
    assertThat(a.rows()).hasSize(100);
    assertThat(b.rows()).hasSize(200);
    a.close();
    load(items, 200, 300);
    assertThat(items.bulkApplies).as("still read by b").isEqualTo(1);
    assertThat(b.rows()).hasSize(300);
    b.close();
    b.close(); // a second close changes nothing
    load(items, 300, 400);
    assertThat(items.bulkApplies).as("read by nobody").isEqualTo(2);
    LiveQuery c = db.liveQuery("c", open(items));
    assertThat(c.rows()).hasSize(200);
    load(items, 400, 410);
    assertThat(c.rows()).hasSize(205);
    assertThat(items.bulkApplies).isEqualTo(2);
  }
}
