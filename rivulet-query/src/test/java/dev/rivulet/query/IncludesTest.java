package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.count;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.lit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Example tests of includes: each mode, nesting, routes that move, NULL correlation, errors. */
class IncludesTest {
  private final Rivulet db = Rivulet.create();
  private final SourceCollection projects = db.collection("projects",
      Schema.parse("id INT NOT NULL, name STRING"), List.of("id"));
  private final SourceCollection issues = db.collection("issues",
      Schema.parse("id INT NOT NULL, project INT, status STRING, priority INT, title STRING"), List.of("id"));
  private final SourceCollection comments = db.collection("comments",
      Schema.parse("id INT NOT NULL, issue INT, created INT, body STRING, score DOUBLE"), List.of("id"));

  private void load() {
    projects.beginSync().write(Row.of(1, "core")).write(Row.of(2, "web")).markReady().commit();
    issues.beginSync()
        .write(Row.of(10, 1, "open", 5, "crash"))
        .write(Row.of(11, 1, "open", 9, "leak"))
        .write(Row.of(12, 2, "closed", 7, "typo"))
        .write(Row.of(13, null, "open", 1, "docs"))
        .markReady().commit();
    comments.beginSync()
        .write(Row.of(100, 10, 1, "first", 1.0))
        .write(Row.of(101, 10, 2, "second", 2.0))
        .write(Row.of(102, 10, 3, "third", 3.0))
        .write(Row.of(103, 10, 4, "fourth", 4.0))
        .write(Row.of(104, 11, 1, "only", 5.0))
        .markReady().commit();
  }

  private Query issuesWithComments(int limit) {
    Query last = Query.from("c", comments)
        .where(eq(col("c.issue"), col("i.id")))
        .select(Query.as("body", col("c.body")), Query.as("score", col("c.score")))
        .orderBy(Query.desc(col("c.created")))
        .limit(limit);
    Query project = Query.from("p", projects).where(eq(col("p.id"), col("i.project")))
        .select(Query.as("name", col("p.name")));
    return Query.from("i", issues)
        .where(eq(col("i.status"), lit("open")))
        .select(Query.as("id", col("i.id")), Query.includeArray("comments", last),
            Query.includeOne("project", project))
        .orderBy(Query.desc(col("i.priority")));
  }

  @SuppressWarnings("unchecked")
  private static List<Row> array(Row r, int column) {
    return (List<Row>) r.get(column);
  }

  @Test
  void arrayAndOneIncludesPerParent() {
    load();
    LiveQuery q = db.liveQuery("q", issuesWithComments(3));
    assertThat(q.status()).isEqualTo(Status.READY);
    List<Row> rows = q.rows();
    assertThat(rows).extracting(r -> r.get(0)).containsExactly(11L, 10L, 13L);
    assertThat(array(rows.get(1), 1)).extracting(r -> r.get(0)).containsExactly("fourth", "third", "second");
    assertThat(array(rows.get(1), 1).get(0).get(1)).isEqualTo(4.0); // typed: a DOUBLE column's 4 is 4.0
    assertThat(array(rows.get(0), 1)).extracting(r -> r.get(0)).containsExactly("only");
    assertThat(array(rows.get(2), 1)).isEmpty();
    assertThat(((Row) rows.get(0).get(2)).get(0)).isEqualTo("core");
    assertThat(rows.get(2).get(2)).isNull(); // NULL correlation: the empty value
    assertThat(q.relationships()).containsExactly("comments", "project");
  }

  @Test
  void childChangesReachOnlyTheirParent() {
    load();
    LiveQuery q = db.liveQuery("q", issuesWithComments(2));
    List<ChangeEvent> seen = new java.util.ArrayList<>();
    q.subscribe(seen::addAll);
    comments.beginSync().write(Row.of(105, 10, 9, "newest", 0.5)).commit();
    assertThat(seen).hasSize(1);
    assertThat(seen.get(0).type()).isEqualTo(ChangeEvent.Type.UPDATE);
    assertThat(array(seen.get(0).value(), 1)).extracting(r -> r.get(0)).containsExactly("newest", "fourth");
    seen.clear();
    comments.beginSync().write(Row.of(100, 99, 1, "first", 1.0)).commit(); // a hidden comment moves away
    assertThat(seen).isEmpty();
  }

  @Test
  void aCommentMovingBetweenIssuesMovesInOneTransaction() {
    load();
    LiveQuery q = db.liveQuery("q", issuesWithComments(3));
    List<List<ChangeEvent>> batches = new java.util.ArrayList<>();
    q.subscribe(batches::add);
    comments.beginSync().write(Row.of(103, 11, 4, "fourth", 4.0)).commit();
    assertThat(batches).hasSize(1);
    assertThat(batches.get(0)).hasSize(2);
    Row i10 = q.get(Row.of(10)).orElseThrow();
    Row i11 = q.get(Row.of(11)).orElseThrow();
    assertThat(array(i10, 1)).extracting(r -> r.get(0)).containsExactly("third", "second", "first");
    assertThat(array(i11, 1)).extracting(r -> r.get(0)).containsExactly("fourth", "only");
  }

  @Test
  void aParentMovingToAnotherBucketTakesItsValue() {
    load();
    LiveQuery q = db.liveQuery("q", issuesWithComments(3));
    issues.beginSync().write(Row.of(13, 2, "open", 1, "docs")).commit();
    assertThat(((Row) q.get(Row.of(13)).orElseThrow().get(2)).get(0)).isEqualTo("web");
    issues.beginSync().write(Row.of(13, null, "open", 1, "docs")).commit();
    assertThat(q.get(Row.of(13)).orElseThrow().get(2)).isNull();
  }

  @Test
  void nestedThreeLevelsAndConcat() {
    load();
    Query bodies = Query.from("c", comments).where(eq(col("c.issue"), col("i.id")))
        .select(Query.as("body", col("c.body"))).orderBy(Query.asc(col("c.created")));
    Query issuesOf = Query.from("i", issues).where(eq(col("i.project"), col("p.id")))
        .select(Query.as("id", col("i.id")), Query.includeConcat("bodies", bodies, ","),
            Query.includeArray("top", Query.from("c2", comments).where(eq(col("c2.issue"), col("i.id")))
                .select(Query.as("n", count())).groupBy(col("c2.issue"))))
        .orderBy(Query.asc(col("i.id")));
    LiveQuery q = db.liveQuery("q", Query.from("p", projects)
        .select(Query.as("name", col("p.name")), Query.includeArray("issues", issuesOf))
        .orderBy(Query.asc(col("p.id"))));
    Row core = q.rows().get(0);
    List<Row> coreIssues = array(core, 1);
    assertThat(coreIssues).extracting(r -> r.get(0)).containsExactly(10L, 11L);
    assertThat(coreIssues.get(0).get(1)).isEqualTo("first,second,third,fourth");
    assertThat(array(coreIssues.get(0), 2)).extracting(r -> r.get(0)).containsExactly(4L);
    comments.beginSync().delete(Row.of(101)).commit();
    coreIssues = array(q.rows().get(0), 1);
    assertThat(coreIssues.get(0).get(1)).isEqualTo("first,third,fourth");
    assertThat(array(coreIssues.get(0), 2)).extracting(r -> r.get(0)).containsExactly(3L);
    assertThat(array(q.rows().get(1), 1)).extracting(r -> r.get(1)).containsExactly("");
  }

  @Test
  void collectionIncludesShareOneFacadePerBucket() {
    load();
    Query siblings = Query.from("s", issues).where(eq(col("s.project"), col("i.project")))
        .select(Query.as("id", col("s.id")), Query.as("title", col("s.title"))).orderBy(Query.desc(col("s.priority")));
    LiveQuery q = db.liveQuery("q", Query.from("i", issues)
        .select(Query.as("id", col("i.id")), Query.include("siblings", siblings)).orderBy(Query.asc(col("i.id"))));
    LiveCollection of10 = (LiveCollection) q.get(Row.of(10)).orElseThrow().get(1);
    LiveCollection of11 = (LiveCollection) q.get(Row.of(11)).orElseThrow().get(1);
    LiveCollection of13 = (LiveCollection) q.get(Row.of(13)).orElseThrow().get(1);
    assertThat(of10).isSameAs(of11);
    assertThat(of10.rows()).extracting(r -> r.get(0)).containsExactly(11L, 10L);
    assertThat(of13.rows()).isEmpty(); // NULL correlation: an empty collection
    List<ChangeEvent> parentEvents = new java.util.ArrayList<>();
    List<ChangeEvent> facadeEvents = new java.util.ArrayList<>();
    q.subscribe(parentEvents::addAll);
    of10.subscribe(facadeEvents::addAll);
    issues.beginSync().write(Row.of(11, 1, "open", 9, "leak!")).commit(); // a child edit: the facade's event only
    assertThat(parentEvents).isEmpty(); // the parents' rows hold the same facade: not re-emitted
    assertThat(facadeEvents).extracting(ChangeEvent::type).containsExactly(ChangeEvent.Type.UPDATE);
    assertThat(of10.rows()).extracting(r -> r.get(1)).containsExactly("leak!", "crash");
    issues.beginSync().write(Row.of(10, 2, "open", 5, "crash")).commit(); // 10 moves to project 2
    LiveCollection moved = (LiveCollection) q.get(Row.of(10)).orElseThrow().get(1);
    assertThat(moved).isNotSameAs(of10);
    assertThat(moved.rows()).extracting(r -> r.get(0)).containsExactly(12L, 10L);
    assertThat(of10.rows()).extracting(r -> r.get(0)).containsExactly(11L);
    issues.beginSync().delete(Row.of(11)).commit(); // the last route to project 1 leaves
    assertThat(of10.rows()).isEmpty();
    issues.beginSync().write(Row.of(11, 1, "open", 9, "leak")).commit(); // a new active interval, a new facade
    LiveCollection again = (LiveCollection) q.get(Row.of(11)).orElseThrow().get(1);
    assertThat(again).isNotSameAs(of10);
    assertThat(again.rows()).extracting(r -> r.get(0)).containsExactly(11L);
    assertThat(of10.rows()).isEmpty();
  }

  @Test
  void malformedIncludesNameTheInclude() {
    assertThatThrownBy(() -> db.liveQuery("a", Query.from("i", issues).select(Query.as("id", col("i.id")),
        Query.includeArray("cs", Query.from("c", comments)))))
        .isInstanceOf(QueryException.class).hasMessageContaining("include 'cs'");
    assertThatThrownBy(() -> db.liveQuery("b", Query.from("i", issues).select(Query.as("id", col("i.id")),
        Query.includeArray("cs", Query.from("c", comments).where(Exprs.gt(col("c.issue"), col("i.id")))))))
        .isInstanceOf(QueryException.class).hasMessageContaining("include 'cs'").hasMessageContaining("equality");
    assertThatThrownBy(() -> db.liveQuery("c", Query.from("i", issues).select(Query.as("id", col("i.id")),
        Query.includeConcat("cs", Query.from("c", comments).where(eq(col("c.issue"), col("i.id"))), ","))))
        .isInstanceOf(QueryException.class).hasMessageContaining("include 'cs'").hasMessageContaining("one column");
    assertThatThrownBy(() -> db.liveQuery("d", Query.from("i", issues).select(Query.as("id", col("i.id")),
        Query.includeArray("cs", Query.from("i", comments).where(eq(col("i.issue"), col("i.id")))))))
        .isInstanceOf(QueryException.class).hasMessageContaining("alias 'i'");
    assertThatThrownBy(() -> db.liveQuery("f", Query.from("i", issues).select(Query.as("__corr0_0", col("i.id")))))
        .isInstanceOf(QueryException.class).hasMessageContaining("'__corr0_0' is not allowed");
    Expr inc = Query.includeArray("cs", Query.from("c", comments).where(eq(col("c.issue"), col("i.id")))).expr();
    assertThatThrownBy(() -> db.liveQuery("e", Query.from("i", issues).where(Exprs.isNull(inc))))
        .isInstanceOf(QueryException.class).hasMessageContaining("only as a whole select item");
  }
}
