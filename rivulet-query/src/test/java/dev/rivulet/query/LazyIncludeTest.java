package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.lit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An include whose child reads a lazy collection. Until the live query derives demand from its
 * active-bucket relation itself, this test plays that part by hand (one plan, +1 when an open
 * issue appears, -1 when it goes): pending demand does not hide the parent row, which shows its
 * current partial value, and loaded rows arrive as ordinary changes of the nested value.
 */
class LazyIncludeTest {
  private static final Schema COMMENTS = Schema.parse("id INT NOT NULL, issue INT, created INT, body STRING");
  private static final List<SubsetRequest.Order> NEWEST = List.of(SubsetRequest.Order.desc("created"));

  private final Rivulet db = Rivulet.create();
  private final SourceCollection issues = db.collection("issues",
      Schema.parse("id INT NOT NULL, status STRING, priority INT"), List.of("id"));
  private final ArrayDeque<Runnable> queued = new ArrayDeque<>(); // the source's executor, run by the test
  private final MemoryLazySource source = new MemoryLazySource(COMMENTS, List.of("id"), queued::add);
  private final LazyCollection comments = db.lazyCollection("comments", COMMENTS, List.of("id"), source);

  LazyIncludeTest() {
    source.put(Row.of(100L, 10L, 1L, "first"));
    source.put(Row.of(101L, 10L, 2L, "second"));
    source.put(Row.of(102L, 10L, 3L, "third"));
    source.put(Row.of(103L, 10L, 4L, "fourth"));
    source.put(Row.of(104L, 11L, 1L, "only"));
    source.put(Row.of(105L, 12L, 1L, "late"));
    for (long id = 200; id < 300; id++) {
      source.put(Row.of(id, 99L, id, "other")); // an issue nobody shows
    }
    source.index(List.of("issue"), NEWEST);
    synchronized (db) {
      db.demand().register("lastComments", comments, List.of("issue"), NEWEST, 3);
    }
  }

  private Query openIssuesWithLastComments() {
    Query last = Query.from("c", comments).where(eq(col("c.issue"), col("i.id")))
        .select(Query.as("body", col("c.body"))).orderBy(Query.desc(col("c.created"))).limit(3);
    return Query.from("i", issues).where(eq(col("i.status"), lit("open")))
        .select(Query.as("id", col("i.id")), Query.includeArray("comments", last))
        .orderBy(Query.desc(col("i.priority")));
  }

  private void demand(long weight, long... issueIds) {
    synchronized (db) {
      for (long id : issueIds) {
        db.demand().change("lastComments", Row.of(id), weight);
      }
      db.demand().flush();
    }
    db.runDemand();
  }

  @SuppressWarnings("unchecked")
  private static Map<Long, List<Object>> nested(LiveQuery q) {
    Map<Long, List<Object>> out = new LinkedHashMap<>();
    for (Row r : q.rows()) {
      List<Object> bodies = new ArrayList<>();
      ((List<Row>) r.get(1)).forEach(c -> bodies.add(c.get(0)));
      out.put((Long) r.get(0), bodies);
    }
    return out;
  }

  @Test
  void pendingDemandShowsTheParentWithItsPartialValueAndLoadsArriveAsChanges() {
    issues.beginSync().write(Row.of(10L, "open", 5L)).write(Row.of(11L, "open", 9L)).markReady().commit();
    LiveQuery q = db.liveQuery("q", openIssuesWithLastComments());
    List<ChangeEvent> events = new ArrayList<>();
    q.subscribe(events::addAll);
    demand(1, 10, 11); // the two active buckets of the first run: one request
    assertThat(q.status()).isEqualTo(Status.LOADING);
    assertThat(nested(q)).isEqualTo(Map.of(11L, List.of(), 10L, List.of()));

    queued.poll().run(); // the source serves the request on "its" thread
    assertThat(queued).isEmpty();
    assertThat(nested(q)).containsExactly(Map.entry(11L, List.of("only")),
        Map.entry(10L, List.of("fourth", "third", "second")));
    assertThat(q.status()).isEqualTo(Status.READY);
    assertThat(events).extracting(ChangeEvent::type).containsOnly(ChangeEvent.Type.UPDATE).hasSize(2);
    assertThat(source.rowsScanned()).as("3 newest of issue 10, 1 of issue 11; none of issue 99").isEqualTo(4);
    assertThat(comments.size()).isEqualTo(4);

    issues.beginSync().write(Row.of(12L, "open", 1L)).commit();
    demand(1, 12);
    assertThat(q.status()).isEqualTo(Status.LOADING);
    assertThat(nested(q)).containsEntry(12L, List.of());
    queued.poll().run();
    assertThat(nested(q)).containsEntry(12L, List.of("late"));
    assertThat(q.status()).isEqualTo(Status.READY);

    issues.beginSync().write(Row.of(10L, "closed", 5L)).commit();
    demand(-1, 10);
    assertThat(nested(q).keySet()).containsExactly(11L, 12L);
    assertThat(comments.size()).as("issue 11 still holds the request that loaded issue 10's rows").isEqualTo(5);
    issues.beginSync().write(Row.of(11L, "closed", 9L)).commit();
    demand(-1, 11);
    assertThat(comments.size()).as("the first request is released: only issue 12's row stays").isEqualTo(1);
    assertThat(nested(q)).containsExactly(Map.entry(12L, List.of("late")));
  }
}
