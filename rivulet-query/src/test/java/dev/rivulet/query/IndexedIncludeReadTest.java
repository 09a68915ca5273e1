package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.gt;
import static dev.rivulet.query.Exprs.lit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.OperatorStats;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.testkit.Seeds;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * An include whose child reads an eager collection directly (W4's comments) semi-joins it with
 * its active buckets in an operator that indexes the collection's rows itself: the collection's
 * input is not hydrated (it examines nothing when the query is created) and no join retains the
 * child's rows (the singleton's projects take the same path). The same view with a child filter that keeps every row takes the general path
 * (the filtered relation inner-joined with the buckets); through a random history of comment,
 * issue and project writes, both show the same rows, as does a fresh query after each step.
 */
class IndexedIncludeReadTest {
  private final Rivulet db = Rivulet.create();
  private final SourceCollection issues = db.collection("issues",
      Schema.parse("id INT NOT NULL, title STRING, project INT, prio INT, open BOOLEAN"), List.of("id"));
  private final SourceCollection projects = db.collection("projects", Schema.parse("id INT NOT NULL, name STRING"),
      List.of("id"));
  private final SourceCollection comments = db.collection("comments",
      Schema.parse("id INT NOT NULL, issue INT, created INT, body STRING"), List.of("id"));

  /** W4's shape; {@code general}: the child filters its comments by a condition every comment meets. */
  private Query view(boolean general) {
    Query newest = Query.from("c", comments)
        .where(general ? Exprs.and(eq(col("c.issue"), col("i.id")), gt(col("c.id"), lit(-1))) : eq(col("c.issue"),
            col("i.id")))
        .select(Query.as("id", col("c.id")), Query.as("body", col("c.body")))
        .orderBy(Query.desc(col("c.created")), Query.desc(col("c.id"))).limit(3);
    Query project = Query.from("p", projects).where(eq(col("p.id"), col("i.project")))
        .select(Query.as("name", col("p.name")));
    return Query.from("i", issues).where(eq(col("i.open"), lit(true)))
        .select(Query.as("id", col("i.id")), Query.as("prio", col("i.prio")),
            Query.includeArray("comments", newest), Query.includeOne("project", project))
        .orderBy(Query.desc(col("i.prio")), Query.asc(col("i.id"))).limit(5);
  }

  private static List<String> kinds(LiveQuery q) {
    return q.stats().stream().map(OperatorStats::kind).toList();
  }

  private static long inputExamined(LiveQuery q, String source) {
    return q.stats().stream().filter(s -> s.name().startsWith("input:") && s.name().endsWith(":" + source))
        .mapToLong(OperatorStats::examined).sum();
  }

  @Test
  void theFastPathIsTakenAndShowsWhatTheGeneralPathShows() {
    for (long seed : Seeds.runs(8)) {
      Random rnd = new Random(seed);
      for (long p = 0; p < 4; p++) {
        projects.beginSync().write(Row.of(p, "p" + p)).commit();
      }
      for (long i = 0; i < 30; i++) {
        issues.beginSync().write(Row.of(i, "t" + i, rnd.nextInt(5), rnd.nextInt(10), rnd.nextBoolean())).commit();
      }
      for (long c = 0; c < 200; c++) {
        comments.beginSync().write(Row.of(c, rnd.nextInt(32), rnd.nextInt(50), "b" + c)).commit();
      }
      LiveQuery fast = db.liveQuery("fast" + seed, view(false));
      LiveQuery general = db.liveQuery("general" + seed, view(true));
      String hint = Seeds.replayHint(seed);
      // both includes' children read their tables directly in the fast view; the general one's comments do not
      assertThat(kinds(fast)).as(hint).filteredOn("semi-join"::equals).hasSize(2);
      assertThat(kinds(fast)).as(hint).doesNotContain("inner-join");
      assertThat(kinds(general)).as(hint).filteredOn("semi-join"::equals).hasSize(1);
      assertThat(kinds(general)).as(hint).contains("inner-join");
      assertThat(inputExamined(fast, "comments")).as(hint + ": the fast path's comments input is not hydrated")
          .isZero();
      assertThat(inputExamined(general, "comments")).as(hint).isEqualTo(comments.size());
      assertThat(fast.rows()).as(hint).isEqualTo(general.rows());
      for (int step = 0; step < 150; step++) {
        write(rnd);
        assertThat(fast.rows()).as(hint + " step " + step).isEqualTo(general.rows());
      }
      LiveQuery again = db.liveQuery("again" + seed, view(false));
      assertThat(again.rows()).as(hint).isEqualTo(fast.rows());
      for (LiveQuery q : List.of(fast, general, again)) {
        q.close();
      }
      clear();
    }
  }

  /** One random write: a comment added, moved, edited or deleted, an issue moved, or a project renamed. */
  private void write(Random rnd) {
    int what = rnd.nextInt(10);
    if (what < 6) {
      long id = rnd.nextInt(260);
      if (rnd.nextInt(4) == 0) {
        comments.beginSync().delete(Row.of(id)).commit();
      } else {
        comments.beginSync().write(Row.of(id, rnd.nextInt(32), rnd.nextInt(50), "e" + rnd.nextInt(9))).commit();
      }
    } else if (what < 9) {
      long i = rnd.nextInt(30);
      issues.beginSync().write(Row.of(i, "t" + i, rnd.nextInt(5), rnd.nextInt(10), rnd.nextBoolean())).commit();
    } else {
      long p = rnd.nextInt(4);
      projects.beginSync().write(Row.of(p, "r" + rnd.nextInt(9))).commit();
    }
  }

  private void clear() {
    for (SourceCollection c : List.of(issues, projects, comments)) {
      for (KeyedRow e : c.entries()) {
        c.beginSync().delete(e.key()).commit();
      }
    }
  }
}
