package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.count;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.gt;
import static dev.rivulet.query.Exprs.lit;
import static dev.rivulet.query.Exprs.sum;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A live query read by another, for each way its stored rows can be laid out: visible columns
 * only, hidden key columns after them, hidden sort columns after the keys, a derived key of
 * several columns, and a custom key; the reader sees the source's visible rows and keys.
 */
class LayeredShapesTest {
  private final Rivulet db = Rivulet.create();
  private final SourceCollection issues = db.collection("issues",
      Schema.parse("id INT NOT NULL, status STRING, priority INT, owner INT"), List.of("id"));

  private void load() {
    issues.beginSync()
        .write(Row.of(1, "open", 5, 7)).write(Row.of(2, "open", 9, 7)).write(Row.of(3, "done", 7, 8))
        .write(Row.of(4, "open", 1, 8))
        .markReady().commit();
  }

  private LiveQuery readAll(String name, LiveQuery source) {
    return db.liveQuery(name, Query.from("s", source));
  }

  @Test
  void aReaderOfAnOrderedQueryWithAHiddenSortColumnSeesTheVisibleRows() {
    load();
    // Sorted by priority, which is not selected: the stored rows hold it after the key.
    LiveQuery top = db.liveQuery("top", Query.from("i", issues).where(eq(col("i.status"), lit("open")))
        .select(Query.as("id", col("i.id")), Query.as("owner", col("i.owner")))
        .orderBy(Query.desc(col("i.priority"))).limit(2));
    LiveQuery reader = readAll("reader", top);
    assertThat(top.rows()).containsExactly(Row.of(2, 7), Row.of(1, 7));
    assertThat(reader.rows()).containsExactlyInAnyOrder(Row.of(2, 7), Row.of(1, 7));
    LiveQuery perOwner = db.liveQuery("perOwner", Query.from("t", top).groupBy(col("t.owner"))
        .select(Query.as("owner", col("t.owner")), Query.as("n", count())));
    assertThat(perOwner.rows()).containsExactly(Row.of(7, 2));
    issues.beginSync().write(Row.of(4, "open", 20, 8)).commit();
    assertThat(reader.rows()).containsExactlyInAnyOrder(Row.of(4, 8), Row.of(2, 7));
    assertThat(perOwner.rows()).containsExactlyInAnyOrder(Row.of(7, 1), Row.of(8, 1));
  }

  @Test
  void aReaderOfAProjectionSeesItsRowsAndKeys() {
    load();
    // The key (id) is not selected: it is kept as a hidden column.
    LiveQuery owners = db.liveQuery("owners", Query.from("i", issues).select(Query.as("owner", col("i.owner"))));
    LiveQuery reader = readAll("reader", owners);
    assertThat(reader.rows()).containsExactlyInAnyOrder(Row.of(7), Row.of(7), Row.of(8), Row.of(8));
    LiveQuery total = db.liveQuery("total", Query.from("o", owners).select(Query.as("s", sum(col("o.owner")))));
    assertThat(total.rows()).containsExactly(Row.of(30));
    issues.beginSync().delete(Row.of(3)).commit();
    assertThat(reader.rows()).containsExactlyInAnyOrder(Row.of(7), Row.of(7), Row.of(8));
    assertThat(total.rows()).containsExactly(Row.of(22));
  }

  @Test
  void aReaderOfAGroupedQueryAndOfAJoin() {
    load();
    LiveQuery grouped = db.liveQuery("grouped", Query.from("i", issues).groupBy(col("i.owner"), col("i.status"))
        .select(Query.as("owner", col("i.owner")), Query.as("status", col("i.status")), Query.as("n", count())));
    LiveQuery busy = db.liveQuery("busy", Query.from("g", grouped).where(gt(col("g.n"), lit(1))));
    assertThat(busy.rows()).containsExactly(Row.of(7, "open", 2));
    SourceCollection owners = db.collection("owners", Schema.parse("id INT NOT NULL, name STRING"), List.of("id"));
    owners.beginSync().write(Row.of(7, "ann")).write(Row.of(8, "bo")).markReady().commit();
    LiveQuery joined = db.liveQuery("joined", Query.from("i", issues)
        .join(QueryIR.JoinKind.INNER, "o", owners, Query.on("i.owner", "o.id"))
        .select(Query.as("id", col("i.id")), Query.as("name", col("o.name"))));
    LiveQuery names = db.liveQuery("names", Query.from("j", joined).where(eq(col("j.name"), lit("bo"))));
    assertThat(names.rows()).containsExactlyInAnyOrder(Row.of(3, "bo"), Row.of(4, "bo"));
    owners.beginSync().write(Row.of(8, "bob")).commit();
    assertThat(names.rows()).isEmpty();
  }

  @Test
  void aReaderOfACustomKeyedQuery() {
    load();
    LiveQuery byOwner = db.liveQuery("byOwner", Query.from("i", issues).where(eq(col("i.status"), lit("done")))
        .select(Query.as("owner", col("i.owner")), Query.as("p", col("i.priority"))), List.of("owner"));
    LiveQuery reader = readAll("reader", byOwner);
    assertThat(reader.rows()).containsExactly(Row.of(8, 7));
    issues.beginSync().write(Row.of(3, "done", 2, 8)).commit();
    assertThat(reader.rows()).containsExactly(Row.of(8, 2));
  }
}
