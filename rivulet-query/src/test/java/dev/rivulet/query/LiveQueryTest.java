package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.count;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.lit;
import static dev.rivulet.query.Exprs.max;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.RivuletException;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Example tests of live queries as collections: order, joins, grouping, transactions, layering. */
class LiveQueryTest {
  private final Rivulet db = Rivulet.create();
  private final SourceCollection issues = db.collection("issues",
      Schema.parse("id INT NOT NULL, status STRING, priority INT, title STRING, assignee INT"), List.of("id"));
  private final SourceCollection users = db.collection("users", Schema.parse("id INT NOT NULL, name STRING"),
      List.of("id"));

  private void load() {
    users.beginSync().write(Row.of(1, "ann")).write(Row.of(2, "bob")).markReady().commit();
    issues.beginSync()
        .write(Row.of(10, "open", 5, "crash", 1))
        .write(Row.of(11, "open", 9, "leak", 2))
        .write(Row.of(12, "closed", 7, "typo", 1))
        .write(Row.of(13, "open", 1, "docs", null))
        .markReady()
        .commit();
  }

  @Test
  void orderedWindowFollowsUpdates() {
    load();
    LiveQuery top = db.liveQuery("top", Query.from("i", issues)
        .where(eq(col("i.status"), lit("open")))
        .orderBy(Query.desc(col("i.priority")))
        .limit(2));
    assertThat(top.status()).isEqualTo(Status.READY);
    assertThat(top.rows()).extracting(r -> r.get(0)).containsExactly(11L, 10L);
    List<ChangeEvent> seen = new ArrayList<>();
    top.subscribe(seen::addAll);
    issues.beginSync().write(Row.of(13, "open", 20, "docs", null)).commit();
    assertThat(top.rows()).extracting(r -> r.get(0)).containsExactly(13L, 11L);
    assertThat(seen).extracting(ChangeEvent::type)
        .containsExactlyInAnyOrder(ChangeEvent.Type.INSERT, ChangeEvent.Type.DELETE);
  }

  @Test
  void largeBatchesReplaceAndRemoveManyResultRows() {
    SourceCollection.SyncBatch load = issues.beginSync();
    for (int id = 0; id < 200; id++) {
      load.write(Row.of(id, "open", id % 10, "t" + id, null));
    }
    load.markReady().commit();
    LiveQuery open = db.liveQuery("open", Query.from("i", issues).where(eq(col("i.status"), lit("open"))));
    List<ChangeEvent> seen = new ArrayList<>();
    open.subscribe(seen::addAll);
    // One batch: 100 rows change in place, 50 leave the result, 10 arrive.
    SourceCollection.SyncBatch b = issues.beginSync();
    for (int id = 0; id < 100; id++) {
      b.write(Row.of(id, "open", 99, "t" + id, null));
    }
    for (int id = 100; id < 150; id++) {
      b.write(Row.of(id, "closed", id % 10, "t" + id, null));
    }
    for (int id = 200; id < 210; id++) {
      b.write(Row.of(id, "open", 1, "t" + id, null));
    }
    b.commit();
    assertThat(open.size()).isEqualTo(160);
    assertThat(open.get(Row.of(5))).contains(Row.of(5, "open", 99, "t5", null));
    assertThat(open.get(Row.of(120))).isEmpty();
    assertThat(open.get(Row.of(205))).contains(Row.of(205, "open", 1, "t205", null));
    assertThat(seen).extracting(ChangeEvent::type).containsOnly(ChangeEvent.Type.UPDATE, ChangeEvent.Type.DELETE,
        ChangeEvent.Type.INSERT).hasSize(160);
    assertThat(seen.stream().filter(e -> e.type() == ChangeEvent.Type.UPDATE)).hasSize(100);
  }

  @Test
  void syncBatchAppliesWritesAndDeletesInOrder() {
    load();
    LiveQuery all = db.liveQuery("all", Query.from("i", issues));
    // Writes first, then deletes mixed in: a later entry for a key wins.
    issues.beginSync()
        .write(Row.of(20, "open", 1, "a", null))
        .write(Row.of(21, "open", 2, "b", null))
        .delete(Row.of(20))
        .write(Row.of(22, "open", 3, "c", null))
        .delete(Row.of(10))
        .write(Row.of(10, "closed", 4, "back", null))
        .delete(Row.of(99))
        .commit();
    assertThat(all.rows()).extracting(r -> r.get(0)).containsExactlyInAnyOrder(10L, 11L, 12L, 13L, 21L, 22L);
    assertThat(all.get(Row.of(10))).contains(Row.of(10, "closed", 4, "back", null));
    // A batch that starts with a delete.
    issues.beginSync().delete(Row.of(21)).write(Row.of(23, "open", 5, "d", null)).delete(Row.of(22)).commit();
    assertThat(all.rows()).extracting(r -> r.get(0)).containsExactlyInAnyOrder(10L, 11L, 12L, 13L, 23L);
  }

  @Test
  void joinAndGroup() {
    load();
    LiveQuery perUser = db.liveQuery("perUser", Query.from("i", issues)
        .join(QueryIR.JoinKind.INNER, "u", users, Query.on("i.assignee", "u.id"))
        .groupBy(col("u.name"))
        .select(Query.as("name", col("u.name")), Query.as("n", count()), Query.as("top", max(col("i.priority")))));
    assertThat(perUser.rows()).containsExactlyInAnyOrder(Row.of("ann", 2, 7), Row.of("bob", 1, 9));
    issues.beginSync().write(Row.of(13, "open", 8, "docs", 2)).commit();
    assertThat(perUser.get(Row.of("bob"))).contains(Row.of("bob", 2, 9));
  }

  @Test
  void optimisticWriteThenRollbackRestoresExactly() {
    load();
    LiveQuery open = db.liveQuery("open", Query.from("i", issues).where(eq(col("i.status"), lit("open"))));
    List<Row> before = open.rows();
    Transaction tx = db.transaction();
    tx.insert(issues, Row.of(14, "open", 3, "new", 1)).update(issues, Row.of(10, "closed", 5, "crash", 1));
    tx.apply();
    assertThat(open.get(Row.of(14))).isPresent();
    assertThat(open.get(Row.of(10))).isEmpty();
    tx.rollback();
    assertThat(open.rows()).containsExactlyInAnyOrderElementsOf(before);
    assertThat(tx.state()).isEqualTo(Transaction.State.ROLLED_BACK);
  }

  @Test
  void confirmedWritesBecomeSynced() {
    load();
    Transaction tx = db.transaction();
    tx.delete(issues, Row.of(12)).apply();
    tx.confirm();
    assertThat(issues.get(Row.of(12))).isEmpty();
    issues.beginSync().write(Row.of(99, "open", 1, "x", null)).commit();
    assertThat(issues.get(Row.of(12))).isEmpty();
  }

  @Test
  void layeredQueriesSeeOneTransaction() {
    load();
    LiveQuery open = db.liveQuery("open", Query.from("i", issues).where(eq(col("i.status"), lit("open"))));
    LiveQuery counted = db.liveQuery("counted", Query.from("o", open).select(Query.as("n", count())));
    List<String> observed = new ArrayList<>();
    counted.subscribe(ev -> observed.add(open.size() + "/" + counted.rows().get(0).get(0)));
    issues.beginSync().write(Row.of(12, "open", 7, "typo", 1)).write(Row.of(15, "open", 2, "more", 2)).commit();
    assertThat(observed).containsExactly("5/5");
  }

  @Test
  void badRowIsRejectedWithoutChangingState() {
    load();
    assertThatThrownBy(() -> issues.beginSync().write(Row.of("x", "open", 1, "t", null)))
        .hasMessageContaining("issues")
        .hasMessageContaining("id");
    assertThat(issues.size()).isEqualTo(4);
  }

  @Test
  void joinedQueryWithTwoRowsForOneKeyFailsClearly() {
    load();
    SourceCollection tags = db.collection("tags", Schema.parse("issue INT NOT NULL, tag STRING NOT NULL"),
        List.of("issue", "tag"));
    tags.beginSync().write(Row.of(10, "a")).markReady().commit();
    LiveQuery q = db.liveQuery("tagged", Query.from("i", issues)
        .join(QueryIR.JoinKind.INNER, "g", tags, Query.on("i.id", "g.issue"))
        .select(Query.as("id", col("i.id")), Query.as("tag", col("g.tag"))), List.of("id"));
    assertThat(q.rows()).containsExactly(Row.of(10, "a"));
    List<String> reported = new ArrayList<>();
    db.onError((c, e) -> reported.add(c.name() + ": " + e.getMessage()));
    tags.beginSync().write(Row.of(10, "b")).commit(); // committed: the failure is the query's
    assertThat(q.status()).isEqualTo(Status.ERROR);
    assertThat(q.error()).isInstanceOf(RivuletException.class).hasMessageContaining("duplicate key [10]");
    assertThat(reported).singleElement().asString().startsWith("tagged: ").contains("duplicate key [10]");
    assertThat(tags.size()).isEqualTo(2); // the committed sync write is kept
  }

  @Test
  void integerOverflowInAProjectionIsExactAndOrdered() {
    SourceCollection nums = db.collection("nums", Schema.parse("id INT NOT NULL, a INT, b INT"), List.of("id"));
    nums.beginSync()
        .write(Row.of(1, Long.MAX_VALUE, 2))
        .write(Row.of(2, 5, 6))
        .write(Row.of(3, Long.MIN_VALUE, -3))
        .markReady()
        .commit();
    LiveQuery sums = db.liveQuery("sums", Query.from("n", nums)
        .select(Query.as("id", col("n.id")), Query.as("s", Exprs.add(col("n.a"), col("n.b"))))
        .orderBy(Query.desc(Exprs.add(col("n.a"), col("n.b")))));
    assertThat(sums.rows()).containsExactly(
        Row.of(1, new java.math.BigDecimal(Long.MAX_VALUE).add(java.math.BigDecimal.valueOf(2))),
        Row.of(2, 11),
        Row.of(3, new java.math.BigDecimal(Long.MIN_VALUE).subtract(java.math.BigDecimal.valueOf(3))));
  }
}
