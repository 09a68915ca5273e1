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
 * An include whose child reads a lazy collection: the live query demands the correlation values of
 * its active buckets (one plan per include, fed from the graph's active-bucket relation after each
 * run). Pending demand does not hide the parent row, which shows its current partial value;
 * loaded rows arrive as ordinary changes of the nested value; the source's later changes reach
 * the rows that held requests cover, and only those.
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
    source.index(List.of("issue"), List.of());
  }

  private Query openIssuesWithLastComments() {
    Query last = Query.from("c", comments).where(eq(col("c.issue"), col("i.id")))
        .select(Query.as("body", col("c.body"))).orderBy(Query.desc(col("c.created"))).limit(3);
    return Query.from("i", issues).where(eq(col("i.status"), lit("open")))
        .select(Query.as("id", col("i.id")), Query.includeArray("comments", last))
        .orderBy(Query.desc(col("i.priority")));
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
    LiveQuery q = db.liveQuery("q", openIssuesWithLastComments()); // demands issues 10 and 11: one request
    List<ChangeEvent> events = new ArrayList<>();
    q.subscribe(events::addAll);
    assertThat(q.status()).isEqualTo(Status.LOADING);
    assertThat(nested(q)).isEqualTo(Map.of(11L, List.of(), 10L, List.of()));

    queued.poll().run(); // the source serves the request on "its" thread
    assertThat(queued).isEmpty();
    assertThat(nested(q)).containsExactly(Map.entry(11L, List.of("only")),
        Map.entry(10L, List.of("fourth", "third", "second")));
    assertThat(q.status()).isEqualTo(Status.READY);
    assertThat(events).extracting(ChangeEvent::type).containsOnly(ChangeEvent.Type.UPDATE).hasSize(2);
    assertThat(source.rowsScanned()).as("issue 10's four rows and issue 11's one; none of issue 99").isEqualTo(5);
    assertThat(comments.size()).as("the child's order and limit go down: issue 10's newest three, issue 11's one")
        .isEqualTo(4);

    issues.beginSync().write(Row.of(12L, "open", 1L)).commit();
    assertThat(q.status()).isEqualTo(Status.LOADING);
    assertThat(nested(q)).containsEntry(12L, List.of());
    queued.poll().run();
    assertThat(nested(q)).containsEntry(12L, List.of("late"));
    assertThat(q.status()).isEqualTo(Status.READY);

    issues.beginSync().write(Row.of(10L, "closed", 5L)).commit();
    assertThat(nested(q).keySet()).containsExactly(11L, 12L);
    assertThat(comments.size()).as("issue 11 still holds the request that loaded issue 10's rows").isEqualTo(5);
    issues.beginSync().write(Row.of(11L, "closed", 9L)).commit();
    assertThat(comments.size()).as("the first request is released: only issue 12's row stays").isEqualTo(1);
    assertThat(nested(q)).containsExactly(Map.entry(12L, List.of("late")));
  }

  @Test
  void laterChangesAtTheSourceReachOnlyCoveredRows() {
    issues.beginSync().write(Row.of(11L, "open", 9L)).markReady().commit();
    LiveQuery q = db.liveQuery("q", openIssuesWithLastComments());
    queued.poll().run();
    assertThat(nested(q)).containsExactly(Map.entry(11L, List.of("only")));
    long scanned = source.rowsScanned();

    source.put(Row.of(106L, 11L, 5L, "newer")); // covered: issue 11 is demanded
    assertThat(nested(q)).containsExactly(Map.entry(11L, List.of("newer", "only")));
    source.put(Row.of(107L, 99L, 5L, "unseen")); // issue 99 is not demanded: not loaded
    assertThat(comments.size()).isEqualTo(2);
    source.put(Row.of(104L, 99L, 1L, "only")); // moves away from issue 11
    assertThat(nested(q)).containsExactly(Map.entry(11L, List.of("newer")));
    source.put(Row.of(200L, 11L, 0L, "moved in")); // moves into issue 11
    assertThat(nested(q)).containsExactly(Map.entry(11L, List.of("newer", "moved in")));
    source.delete(Row.of(106L));
    assertThat(nested(q)).containsExactly(Map.entry(11L, List.of("moved in")));
    assertThat(source.rowsScanned()).as("changes are pushed, not scanned").isEqualTo(scanned);
    assertThat(queued).isEmpty();
    assertThat(comments.trackedKeys()).as("rows moved away or deleted are no longer owned").isEqualTo(comments.size());
  }

  @Test
  void ownershipNeverOutgrowsTheLoadedRowsOverMovesAndDeletes() {
    issues.beginSync().write(Row.of(10L, "open", 5L)).write(Row.of(11L, "open", 9L)).markReady().commit();
    LiveQuery q = db.liveQuery("q", openIssuesWithLastComments());
    queued.poll().run();
    for (long i = 0; i < 50; i++) {
      long id = 1000 + i;
      source.put(Row.of(id, 10L, 100 + i, "in 10"));
      source.put(Row.of(id, 11L, 100 + i, "in 11")); // moves between two shown issues
      source.put(Row.of(id, 99L, 100 + i, "away")); // moves out of every request
      source.put(Row.of(id, 11L, 100 + i, "back"));
      source.delete(Row.of(id));
      assertThat(comments.trackedKeys()).isEqualTo(comments.size());
    }
    assertThat(nested(q)).containsExactly(Map.entry(11L, List.of("only")),
        Map.entry(10L, List.of("fourth", "third", "second")));
    assertThat(comments.size()).isLessThanOrEqualTo(6);
  }
}
