package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.OperatorStats;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The update path of a view with an array and a singleton include (W4's shape): a change of the
 * array's child passes through its own left join only (the singleton is joined before it), and the
 * edit it publishes shows only the list's new element, the kept ones being the instances delivered
 * before; what is delivered equals the rows the query shows and those of a fresh query.
 */
class IncludeUpdatePathTest {
  private final Rivulet db = Rivulet.create();
  private final SourceCollection issues = db.collection("issues",
      Schema.parse("id INT NOT NULL, title STRING, project INT"), List.of("id"));
  private final SourceCollection projects = db.collection("projects", Schema.parse("id INT NOT NULL, name STRING"),
      List.of("id"));
  private final SourceCollection comments = db.collection("comments",
      Schema.parse("id INT NOT NULL, issue INT, created INT, body STRING"), List.of("id"));
  private long nextComment;

  IncludeUpdatePathTest() {
    for (long p = 0; p < 3; p++) {
      projects.beginSync().write(Row.of(p, "p" + p)).commit();
    }
    for (long i = 0; i < 6; i++) {
      issues.beginSync().write(Row.of(i, "t" + i, i % 3)).commit();
      for (int k = 0; k < 4; k++) {
        comment(i);
      }
    }
  }

  private void comment(long issue) {
    long id = nextComment++;
    comments.beginSync().write(Row.of(id, issue, id * 10, "b" + id)).commit();
  }

  /** The array include (select order: first) and the singleton include of the project. */
  private Query view() {
    Query newest = Query.from("c", comments).where(eq(col("c.issue"), col("i.id")))
        .select(Query.as("id", col("c.id")), Query.as("body", col("c.body")))
        .orderBy(Query.desc(col("c.created")), Query.desc(col("c.id"))).limit(3);
    Query project = Query.from("p", projects).where(eq(col("p.id"), col("i.project")))
        .select(Query.as("name", col("p.name")));
    return Query.from("i", issues)
        .select(Query.as("id", col("i.id")), Query.as("title", col("i.title")),
            Query.includeArray("comments", newest), Query.includeOne("project", project))
        .orderBy(Query.asc(col("i.id")));
  }

  @Test
  void aCommentPassesThroughOneLeftJoinAndAProjectRenameThroughBoth() {
    LiveQuery q = db.liveQuery("view", view());
    assertThat(q.relationships()).containsExactly("comments", "project"); // slots stay in select order
    long[] before = leftJoinsExamined(q);
    comment(2);
    long[] afterComment = leftJoinsExamined(q);
    assertThat(afterComment).hasSize(2);
    int moved = 0;
    for (int j = 0; j < 2; j++) {
      moved += afterComment[j] != before[j] ? 1 : 0;
    }
    assertThat(moved).as("left joins that examined rows for a comment").isEqualTo(1);
    assertThat(q.rows()).isEqualTo(db.liveQuery("fresh1", view()).rows());

    projects.beginSync().write(Row.of(2L, "renamed")).commit();
    long[] afterRename = leftJoinsExamined(q);
    for (int j = 0; j < 2; j++) {
      assertThat(afterRename[j]).as("left join %d after a rename", j).isGreaterThan(afterComment[j]);
    }
    assertThat(q.rows()).isEqualTo(db.liveQuery("fresh2", view()).rows());
  }

  @Test
  void anEditShowsOnlyTheNewElementOfAList() {
    LiveQuery q = db.liveQuery("view", view());
    List<Change.Edit> edits = new ArrayList<>();
    q.subscribeChanges(SubscribeOptions.sync(), batch -> {
      for (Change c : batch.changes()) {
        if (c instanceof Change.Edit e) {
          edits.add(e);
        }
      }
    });
    long templatedBefore = q.shownFromEarlier();
    comment(4); // the newest of issue 4: first in its list, the oldest of three drops out
    assertThat(edits).hasSize(1);
    Change.Edit e = edits.get(0);
    List<?> was = (List<?>) e.old().get(2);
    List<?> now = (List<?>) e.row().get(2);
    assertThat(now).hasSize(3);
    assertThat(now.get(1)).isSameAs(was.get(0)); // the kept elements: the rows delivered before
    assertThat(now.get(2)).isSameAs(was.get(1));
    assertThat(now.get(0)).isNotIn(was);
    assertThat(e.row().get(3)).isSameAs(e.old().get(3)); // the project: unchanged, as delivered
    assertThat(q.shownFromEarlier()).isGreaterThan(templatedBefore);
    // The same as showing the row anew: the query's rows, and a fresh query's.
    Row shown = q.rows().get(4);
    assertThat(e.row()).isEqualTo(shown);
    assertThat(now).isEqualTo(shown.get(2));
    assertThat(q.rows()).isEqualTo(db.liveQuery("fresh", view()).rows());
  }

  @Test
  void aBucketsNewValueKeepsTheElementRowsOfItsKeptChildren() {
    LiveQuery q = db.liveQuery("view", view());
    dev.rivulet.engine.RowList was = storedComments(q, 3);
    comment(3);
    dev.rivulet.engine.RowList now = storedComments(q, 3);
    assertThat(now.size()).isEqualTo(3);
    assertThat(now.get(1)).isSameAs(was.get(0)); // kept, not projected again
    assertThat(now.get(2)).isSameAs(was.get(1));
    // A change of a kept comment that its element does not show leaves the value itself as it was.
    comments.beginSync().write(Row.of(14L, 3L, 141L, "b14")).commit(); // created 140 -> 141: same order
    assertThat((Object) storedComments(q, 3)).isSameAs(now);
    // Agreement with a fresh query (its values made without a last value) and the rows shown.
    assertThat(q.rows()).isEqualTo(db.liveQuery("fresh", view()).rows());
    comments.beginSync().delete(Row.of(nextComment - 1)).commit(); // the newest goes: an older one comes back
    assertThat(storedComments(q, 3).get(0)).isSameAs(now.get(1));
    assertThat(q.rows()).isEqualTo(db.liveQuery("fresh2", view()).rows());
  }

  @Test
  void anOrderedArrayIsSplicedFromItsChildsWindowAndAnUnorderedOneIsReduced() {
    LiveQuery q = db.liveQuery("view", view());
    assertThat(kinds(q)).containsOnlyOnce("window-list", "reduce"); // the array spliced, the singleton reduced
    Query unordered = Query.from("i", issues).select(Query.as("id", col("i.id")), Query.includeArray("comments",
        Query.from("c", comments).where(eq(col("c.issue"), col("i.id"))).select(Query.as("id", col("c.id")))));
    LiveQuery plain = db.liveQuery("unordered", unordered);
    assertThat(kinds(plain)).contains("reduce").doesNotContain("window-list");
    comment(5);
    comments.beginSync().delete(Row.of(0L)).commit();
    comments.beginSync().write(Row.of(1L, 5L, 1L, "moved")).commit(); // an old comment of issue 0 moves to issue 5
    assertThat(q.rows()).isEqualTo(db.liveQuery("fresh", view()).rows());
    assertThat(plain.rows()).isEqualTo(db.liveQuery("fresh2", unordered).rows());
  }

  private static List<String> kinds(LiveQuery q) {
    return q.stats().stream().map(OperatorStats::kind).toList();
  }

  @Test
  void examinedIsTheSumOfTheOperatorsCounters() {
    LiveQuery q = db.liveQuery("view", view());
    long hydrated = q.examined();
    assertThat(hydrated).isEqualTo(sumOfStats(q)).isPositive();
    comment(1);
    long afterComment = q.examined();
    assertThat(afterComment).isEqualTo(sumOfStats(q)).isGreaterThan(hydrated);
    issues.beginSync().write(Row.of(99L, "t99", 1L)).commit();
    assertThat(q.examined()).isEqualTo(sumOfStats(q)).isGreaterThan(afterComment);
  }

  private static long sumOfStats(LiveQuery q) {
    return q.stats().stream().mapToLong(OperatorStats::examined).sum();
  }

  private static dev.rivulet.engine.RowList storedComments(LiveQuery q, long issue) {
    for (Row r : q.storedRows()) {
      if (r.get(0).equals(issue)) {
        return (dev.rivulet.engine.RowList) r.get(2);
      }
    }
    throw new AssertionError("no stored row for issue " + issue);
  }

  private static long[] leftJoinsExamined(LiveQuery q) {
    return q.stats().stream().filter(s -> s.kind().equals("left-join-setting")).mapToLong(OperatorStats::examined).toArray();
  }
}
