package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.count;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.lit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.Column;
import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A live query that reads another live query shows its source's failure and closing (ERROR,
 * naming the source) and recovers with it; and the visible schema of a live query keeps NOT
 * NULL where a column cannot be null.
 */
class LiveQuerySourcesTest {
  private final Rivulet db = Rivulet.create();
  private final List<String> reported = new ArrayList<>();
  private final SourceCollection issues = db.collection("issues",
      Schema.parse("id INT NOT NULL, status STRING, priority INT NOT NULL, owner INT"), List.of("id"));
  private final SourceCollection users = db.collection("users", Schema.parse("id INT NOT NULL, name STRING"),
      List.of("id"));

  LiveQuerySourcesTest() {
    db.onError((c, e) -> reported.add(c.name()));
    users.beginSync().write(Row.of(1, "ann")).write(Row.of(2, "bob")).markReady().commit();
    issues.beginSync().write(Row.of(10, "open", 5, 1)).write(Row.of(11, "closed", 9, 2)).markReady().commit();
  }

  /** Keyed by status: fails while two issues share a status. */
  private LiveQuery byStatus() {
    return db.liveQuery("byStatus", Query.from("i", issues)
        .select(Query.as("status", col("i.status")), Query.as("priority", col("i.priority"))), List.of("status"));
  }

  /** Folds keyed events into rows by key. */
  private static Map<Row, Row> fold(Map<Row, Row> into, List<ChangeEvent> events) {
    for (ChangeEvent e : events) {
      if (e.value() == null) {
        into.remove(e.key());
      } else {
        into.put(e.key(), e.value());
      }
    }
    return into;
  }

  @Test
  void aReaderOfAFailedLiveQueryIsInErrorNamingItAndRecoversWithIt() {
    LiveQuery source = byStatus();
    LiveQuery reader = db.liveQuery("reader", Query.from("s", source).where(eq(col("s.status"), lit("open"))));
    LiveQuery second = db.liveQuery("second", Query.from("r", reader).select(Query.as("n", count())));
    Map<Row, Row> folded = new HashMap<>();
    reader.subscribe(SubscribeOptions.sync().withInitialState(), b -> fold(folded, b.events()));
    assertThat(reader.rows()).containsExactly(Row.of("open", 5));

    issues.beginSync().write(Row.of(12, "open", 1, 1)).commit(); // two open issues
    assertThat(source.status()).isEqualTo(Status.ERROR);
    assertThat(reader.status()).isEqualTo(Status.ERROR);
    assertThat(reader.error()).hasMessageContaining("source 'byStatus'").hasCause(source.error());
    assertThat(second.status()).isEqualTo(Status.ERROR);
    assertThat(second.error()).hasMessageContaining("source 'reader'").hasCause(reader.error());
    assertThat(reported).containsExactly("byStatus", "reader", "second");
    assertThat(reader.rows()).containsExactly(Row.of("open", 5)); // the last published rows

    issues.beginSync().write(Row.of(10, "open", 6, 1)).write(Row.of(13, "closed", 3, 2)).commit(); // still failed
    assertThat(reader.status()).isEqualTo(Status.ERROR);
    assertThat(reader.rows()).containsExactly(Row.of("open", 5));
    assertThat(folded.values()).containsExactly(Row.of("open", 5)); // nothing delivered

    issues.beginSync().delete(Row.of(12)).delete(Row.of(13)).commit(); // unique again
    assertThat(source.status()).isEqualTo(Status.READY);
    assertThat(reader.status()).isEqualTo(Status.READY);
    assertThat(reader.error()).isNull();
    assertThat(second.status()).isEqualTo(Status.READY);
    assertThat(reader.rows()).containsExactly(Row.of("open", 6)); // re-derived
    assertThat(folded.values()).containsExactly(Row.of("open", 6)); // subscribers got the difference
    assertThat(second.rows()).containsExactly(Row.of(1L));
    assertThat(reported).hasSize(3);

    issues.beginSync().write(Row.of(14, "blocked", 2, 2)).commit(); // and they follow it again
    assertThat(db.liveQuery("fresh", Query.from("s", source)).rows()).hasSize(3);
    assertThat(reader.rows()).containsExactly(Row.of("open", 6));
  }

  @Test
  void aReaderCreatedOverAFailedLiveQueryStartsInErrorAndRecoversWithIt() {
    LiveQuery source = byStatus();
    issues.beginSync().write(Row.of(12, "closed", 1, 1)).commit();
    assertThat(source.status()).isEqualTo(Status.ERROR);
    LiveQuery reader = db.liveQuery("reader", Query.from("s", source));
    assertThat(reader.status()).isEqualTo(Status.ERROR);
    assertThat(reader.error()).hasMessageContaining("source 'byStatus'");
    assertThat(reader.ready()).isCompletedExceptionally();
    issues.beginSync().delete(Row.of(11)).commit();
    assertThat(reader.status()).isEqualTo(Status.READY);
    assertThat(reader.rows()).containsExactlyInAnyOrderElementsOf(source.rows()).hasSize(2);
  }

  @Test
  void aReaderOfAClosedSourceIsInErrorForGoodAndANewOneIsRefused() {
    LiveQuery source = db.liveQuery("openOnes", Query.from("i", issues).where(eq(col("i.status"), lit("open"))));
    LiveQuery reader = db.liveQuery("reader", Query.from("s", source).select(Query.as("n", count())));
    LiveQuery ofUsers = db.liveQuery("ofUsers", Query.from("u", users));
    source.close();
    assertThat(reader.status()).isEqualTo(Status.ERROR);
    assertThat(reader.error()).hasMessageContaining("source 'openOnes' is closed");
    assertThat(reported).containsExactly("reader");
    issues.beginSync().write(Row.of(12, "open", 1, 1)).commit(); // commits, nothing else fails
    assertThat(reader.status()).isEqualTo(Status.ERROR);
    assertThat(reader.rows()).containsExactly(Row.of(1L));
    assertThat(reported).hasSize(1);
    assertThatThrownBy(() -> db.liveQuery("late", Query.from("s", source)))
        .isInstanceOf(QueryException.class)
        .hasMessageContaining("source 'openOnes' is closed");

    users.close(); // a source collection too
    assertThat(ofUsers.status()).isEqualTo(Status.ERROR);
    assertThat(ofUsers.error()).hasMessageContaining("source 'users' is closed");
    assertThat(ofUsers.rows()).hasSize(2);
    assertThatThrownBy(() -> db.liveQuery("late", Query.from("u", users))).isInstanceOf(QueryException.class);
  }

  @Test
  void aSourceClosedFromACallbackFailsItsReadersAtTheNextTransaction() {
    LiveQuery source = db.liveQuery("openOnes", Query.from("i", issues).where(eq(col("i.status"), lit("open"))));
    LiveQuery reader = db.liveQuery("reader", Query.from("s", source).select(Query.as("n", count())));
    List<ChangeEvent> seen = new ArrayList<>();
    reader.subscribe(seen::addAll);
    issues.subscribe(events -> source.close());
    issues.beginSync().write(Row.of(12, "open", 1, 1)).commit(); // published whole, then closed
    assertThat(source.status()).isEqualTo(Status.CLOSED);
    assertThat(reader.rows()).containsExactly(Row.of(2L));
    assertThat(seen).extracting(ChangeEvent::value).containsExactly(Row.of(2L));
    assertThat(reader.status()).isEqualTo(Status.READY);
    issues.beginSync().write(Row.of(13, "open", 1, 1)).commit();
    assertThat(reader.status()).isEqualTo(Status.ERROR);
    assertThat(reader.error()).hasMessageContaining("source 'openOnes' is closed");
    assertThat(reader.rows()).containsExactly(Row.of(2L));
    assertThat(reported).containsExactly("reader");
  }

  @Test
  void theResultSchemaKeepsNotNullWhereAColumnCannotBeNull() {
    LiveQuery direct = db.liveQuery("direct", Query.from("i", issues)
        .select(Query.as("id", col("i.id")), Query.as("status", col("i.status")), Query.as("one", lit(1)),
            Query.as("none", lit(null)), Query.as("p", Exprs.add(col("i.priority"), lit(1)))));
    assertThat(direct.resultSchema().columns()).containsExactly(
        Column.notNull("id", ColumnType.INT), Column.of("status", ColumnType.STRING),
        Column.notNull("one", ColumnType.INT), direct.resultSchema().column(3), Column.of("p", ColumnType.INT));
    assertThat(direct.resultSchema().column(3).nullable()).isTrue();
    assertThat(db.liveQuery("all", Query.from("i", issues)).resultSchema()).isEqualTo(issues.schema());
    assertThat(db.liveQuery("sorted", Query.from("i", issues).orderBy(Query.asc(col("i.priority"))).limit(1))
        .resultSchema()).isEqualTo(issues.schema());

    LiveQuery joined = db.liveQuery("joined", Query.from("i", issues)
        .join(QueryIR.JoinKind.LEFT, "u", users, Query.on("i.owner", "u.id"))
        .select(Query.as("issue", col("i.id")), Query.as("user", col("u.id")), Query.as("name", col("u.name"))));
    assertThat(joined.resultSchema().columns()).containsExactly(Column.notNull("issue", ColumnType.INT),
        Column.of("user", ColumnType.INT), Column.of("name", ColumnType.STRING));
    LiveQuery everything = db.liveQuery("everything", Query.from("u", users)
        .join(QueryIR.JoinKind.RIGHT, "i", issues, Query.on("u.id", "i.owner")));
    assertThat(everything.resultSchema().columns()).extracting(Column::nullable)
        .containsExactly(true, true, false, true, false, true);

    LiveQuery grouped = db.liveQuery("grouped", Query.from("i", issues).groupBy(col("i.priority"), col("i.status"))
        .select(Query.as("p", col("i.priority")), Query.as("s", col("i.status")), Query.as("n", count()),
            Query.as("top", Exprs.max(col("i.id")))));
    assertThat(grouped.resultSchema().columns()).extracting(Column::nullable).containsExactly(false, true, false, true);

    LiveQuery union = db.liveQuery("union", Query.unionAll(
        Query.from("i", issues).select(Query.as("x", col("i.id")), Query.as("y", lit("a"))),
        Query.from("u", users).select(Query.as("x", col("u.id")), Query.as("y", col("u.name")))));
    assertThat(union.resultSchema().columns()).extracting(Column::nullable).containsExactly(false, true);

    // A reader of a live query sees the same: its source's NOT NULL columns stay NOT NULL.
    LiveQuery reader = db.liveQuery("reader", Query.from("d", direct).select(Query.as("id", col("d.id"))));
    assertThat(reader.resultSchema().columns()).containsExactly(Column.notNull("id", ColumnType.INT));
  }
}
