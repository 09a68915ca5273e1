package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.div;
import static dev.rivulet.query.Exprs.lit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Minimal cases of divergences the query oracle ({@link QueryOracleTest}, {@link
 * QueryMetamorphicTest}) found, shrunk by hand from the reported histories.
 */
class QueryOracleRegressionTest {
  private final Rivulet db = Rivulet.create();

  /**
   * A union all whose parts have an INT and a DOUBLE column in one position passes the build-time
   * checks (the types are comparable), so it must run: its column is typed as the common type
   * (DOUBLE, as SQL's UNION types it) and holds both parts' values. Found when the generator mixed
   * numeric types across union parts: the live query failed at hydration with "map: column 'v'
   * expects INT but row [2.5, ...] has 2.5", because the union's column took the first part's type.
   */
  @Test
  void unionOfIntAndDoubleColumnsHasTheCommonType() {
    SourceCollection a = db.collection("a", Schema.parse("id INT NOT NULL, x INT"), List.of("id"));
    SourceCollection b = db.collection("b", Schema.parse("id INT NOT NULL, y DOUBLE"), List.of("id"));
    a.beginSync().write(Row.of(1, 5)).markReady().commit();
    b.beginSync().write(Row.of(1, 2.5)).markReady().commit();
    Query union = Query.unionAll(
        Query.from("p", a).select(Query.as("v", col("p.x"))),
        Query.from("q", b).select(Query.as("v", col("q.y"))));

    LiveQuery u = db.liveQuery("u", union);
    assertThat(u.resultSchema().column(0).type()).isEqualTo(ColumnType.DOUBLE);
    assertThat(u.rows()).containsExactlyInAnyOrder(Row.of(5), Row.of(2.5));

    // DOUBLE division over the union's column, as SQL computes it (H2: 2.5 and 1.25)
    LiveQuery halves = db.liveQuery("halves", Query.from("w", union).select(Query.as("h", div(col("w.v"), lit(2)))));
    assertThat(halves.rows()).containsExactlyInAnyOrder(Row.of(2.5), Row.of(1.25));
  }

  /**
   * A sync batch that writes a key and then deletes it leaves the collection as it was: no change
   * to publish, so no listener call ({@link LiveCollection#subscribe}: "the changes of each later
   * transaction that changed this collection"). Found by the oracle's event check: the listener
   * got [INSERT [4, ..], DELETE [4]] for one transaction.
   */
  @Test
  void syncBatchThatWritesAndDeletesAKeyPublishesNothing() {
    SourceCollection t = db.collection("t", Schema.parse("id INT NOT NULL, s STRING"), List.of("id"));
    t.beginSync().markReady().commit();
    List<List<ChangeEvent>> calls = new ArrayList<>();
    t.subscribe(calls::add);

    t.beginSync().write(Row.of(4, null)).delete(Row.of(4)).commit();

    assertThat(t.rows()).isEmpty();
    assertThat(calls).isEmpty();
  }

  /**
   * Events are a transaction's net change per key: a key written twice in one sync batch is one
   * INSERT of the last row, not an INSERT of a row no reader ever saw followed by an UPDATE.
   */
  @Test
  void syncBatchThatWritesAKeyTwicePublishesOneEvent() {
    SourceCollection t = db.collection("t", Schema.parse("id INT NOT NULL, s STRING"), List.of("id"));
    t.beginSync().markReady().commit();
    List<ChangeEvent> events = new ArrayList<>();
    t.subscribe(events::addAll);

    t.beginSync().write(Row.of(3, "a")).write(Row.of(3, "b")).commit();

    assertThat(events).containsExactly(new ChangeEvent(ChangeEvent.Type.INSERT, Row.of(3), Row.of(3, "b"), null));
  }

  /** Truncating and writing back the same row in one batch changes nothing, so publishes nothing. */
  @Test
  void syncBatchThatTruncatesAndRewritesTheSameRowPublishesNothing() {
    SourceCollection t = db.collection("t", Schema.parse("id INT NOT NULL, s STRING"), List.of("id"));
    t.beginSync().write(Row.of(1, "a")).markReady().commit();
    List<List<ChangeEvent>> calls = new ArrayList<>();
    t.subscribe(calls::add);

    t.beginSync().truncate().write(Row.of(1, "a")).commit();

    assertThat(t.rows()).containsExactly(Row.of(1, "a"));
    assertThat(calls).isEmpty();
  }

  /**
   * The derived key of an outer join is the tuple of its sides' keys, so a null-extended side must
   * be told apart from a present side whose key is empty or null. Found by a long oracle campaign
   * (RIVULET_RUNS=30, seed 5100921181354150773): a global aggregate (empty key) full-joined with
   * itself without a match gave two rows with key [] and failed with "duplicate key []".
   */
  @Test
  void fullJoinOfAGlobalAggregateWithItselfKeepsBothSides() {
    SourceCollection t = db.collection("t", Schema.parse("id INT NOT NULL, x INT"), List.of("id"));
    t.beginSync().markReady().commit();
    LiveQuery agg = db.liveQuery("agg", Query.from("a", t)
        .select(Query.as("n", Exprs.count()), Query.as("s", Exprs.sum(col("a.x")))));
    LiveQuery both = db.liveQuery("both", Query.from("l", agg)
        .join(QueryIR.JoinKind.FULL, "r", agg, Query.on("l.s", "r.n"))
        .select(Query.as("ls", col("l.s")), Query.as("rn", col("r.n"))));

    assertThat(both.status()).isEqualTo(Status.READY);
    assertThat(both.rows()).containsExactlyInAnyOrder(Row.of(null, null), Row.of(null, 0));
    t.beginSync().write(Row.of(1, 7)).commit(); // now n = 1, s = 7: still no match
    assertThat(both.rows()).containsExactlyInAnyOrder(Row.of(7, null), Row.of(null, 1));
  }

  /**
   * The same with null key values (seed -4421427136461165719, shrunk): two distinct subqueries
   * that each hold a row of NULL, full-joined on their NULL columns (which never match), give one
   * null-extended row per side; both used to have the key [NULL, NULL].
   */
  @Test
  void fullJoinOfRowsWithNullKeysKeepsBothSides() {
    SourceCollection t = db.collection("t", Schema.parse("id INT NOT NULL, x INT"), List.of("id"));
    SourceCollection u = db.collection("u", Schema.parse("id INT NOT NULL, y INT"), List.of("id"));
    t.beginSync().write(Row.of(1, null)).markReady().commit();
    u.beginSync().write(Row.of(1, null)).markReady().commit();
    Query xs = Query.from("p", t).select(Query.as("v", col("p.x"))).distinct();
    Query ys = Query.from("q", u).select(Query.as("w", col("q.y"))).distinct();
    LiveQuery both = db.liveQuery("both", Query.from("a", xs)
        .join(QueryIR.JoinKind.FULL, "b", ys, Query.on("a.v", "b.w"))
        .select(Query.as("v", col("a.v")), Query.as("w", col("b.w"))));

    assertThat(both.status()).isEqualTo(Status.READY);
    assertThat(both.rows()).containsExactly(Row.of(null, null), Row.of(null, null));
    u.beginSync().write(Row.of(1, 3)).commit();
    assertThat(both.rows()).containsExactlyInAnyOrder(Row.of(null, null), Row.of(null, 3));
  }
}
