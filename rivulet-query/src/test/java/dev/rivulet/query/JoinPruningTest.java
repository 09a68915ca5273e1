package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.lit;
import static dev.rivulet.query.Exprs.not;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.OperatorStats;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A block of inner joins with a select list joins with projecting joins that carry on only the
 * columns read later (and the keys), and gives the rows a nested-loop evaluation in this test
 * gives, through a hydration and random updates; a select-all block and a left join keep plain
 * joins. Seeds: {@code -Drivulet.seed} replays one, {@code -Drivulet.runs} multiplies the runs.
 */
class JoinPruningTest {
  private static final long BASE_SEED = Long.getLong("rivulet.seed", 0x3A11EDL);
  private static final int RUNS = 4 * Integer.getInteger("rivulet.runs", 1);
  private static final Schema ISSUES = Schema.parse(
      "id INT NOT NULL, status STRING, priority INT, title STRING, created INT, assignee INT, project_id INT");
  private static final Schema USERS = Schema.parse("id INT NOT NULL, name STRING");
  private static final Schema PROJECTS = Schema.parse("id INT NOT NULL, name STRING, archived BOOL");

  private final Rivulet db = Rivulet.create();
  private final SourceCollection issues = db.collection("issues", ISSUES, List.of("id"));
  private final SourceCollection users = db.collection("users", USERS, List.of("id"));
  private final SourceCollection projects = db.collection("projects", PROJECTS, List.of("id"));
  private final Map<Object, Row> is = new HashMap<>();
  private final Map<Object, Row> us = new HashMap<>();
  private final Map<Object, Row> ps = new HashMap<>();

  private Query joined() {
    return Query.from("i", issues)
        .join(QueryIR.JoinKind.INNER, "u", users, Query.on("i.assignee", "u.id"))
        .join(QueryIR.JoinKind.INNER, "p", projects, Query.on("i.project_id", "p.id"))
        .where(Exprs.and(eq(col("i.status"), lit("open")), not(col("p.archived"))));
  }

  private Query openIssues() {
    return joined().select(Query.as("id", col("i.id")), Query.as("title", col("i.title")),
        Query.as("priority", col("i.priority")), Query.as("owner", col("u.name")), Query.as("project", col("p.name")));
  }

  /** The expected rows: every (issue, user, project) triple, nested loops over the test's copies. */
  private List<Row> expected() {
    List<Row> out = new ArrayList<>();
    for (Row i : is.values()) {
      for (Row u : us.values()) {
        for (Row p : ps.values()) {
          if (u.get(0).equals(i.get(5)) && p.get(0).equals(i.get(6)) && "open".equals(i.get(1))
              && Boolean.FALSE.equals(p.get(2))) {
            out.add(Row.of(i.get(0), i.get(3), i.get(2), u.get(1), p.get(1)));
          }
        }
      }
    }
    return out;
  }

  private static List<String> kinds(LiveQuery q) {
    return q.stats().stream().map(OperatorStats::kind).toList();
  }

  @Test
  void aSelectListJoinsWithProjectingJoinsAndAgreesWithNestedLoops() {
    Random rnd = new Random(BASE_SEED);
    for (int run = 0; run < RUNS; run++) {
      long seed = BASE_SEED + run;
      rnd.setSeed(seed);
      write(rnd, 300, run == 0);
      LiveQuery q = db.liveQuery("q" + run, openIssues());
      assertThat(kinds(q)).as("seed %d", seed).containsSubsequence("inner-join-keeping", "inner-join-keeping")
          .doesNotContain("inner-join");
      assertThat(q.rows()).as("seed %d hydration", seed).containsExactlyInAnyOrderElementsOf(expected());
      for (int step = 0; step < 10; step++) {
        write(rnd, 1 + rnd.nextInt(20), false);
        assertThat(q.rows()).as("seed %d step %d", seed, step).containsExactlyInAnyOrderElementsOf(expected());
      }
      q.close();
    }
  }

  @Test
  void selectAllAndLeftJoinsKeepPlainJoins() {
    write(new Random(BASE_SEED), 100, true);
    assertThat(kinds(db.liveQuery("all", joined()))).contains("inner-join").doesNotContain("inner-join-keeping");
    Query left = Query.from("i", issues).join(QueryIR.JoinKind.LEFT, "u", users, Query.on("i.assignee", "u.id"))
        .select(Query.as("id", col("i.id")), Query.as("owner", col("u.name")));
    assertThat(kinds(db.liveQuery("left", left))).contains("left-join").doesNotContain("inner-join-keeping");
  }

  /** Upserts and deletes {@code n} random rows across the three collections (all three ready once). */
  private void write(Random rnd, int n, boolean first) {
    SourceCollection.SyncBatch bi = issues.beginSync();
    SourceCollection.SyncBatch bu = users.beginSync();
    SourceCollection.SyncBatch bp = projects.beginSync();
    for (int k = 0; k < n; k++) {
      int which = rnd.nextInt(first ? 1 : 6);
      if (first || which < 4) {
        long id = rnd.nextInt(400);
        if (!first && rnd.nextInt(4) == 0 && is.remove(id) != null) {
          bi.delete(Row.of(id));
          continue;
        }
        Row r = Row.of(id, rnd.nextBoolean() ? "open" : "closed", (long) rnd.nextInt(5), "t" + rnd.nextInt(50),
            (long) rnd.nextInt(9), rnd.nextInt(12) == 0 ? null : (long) rnd.nextInt(20), (long) rnd.nextInt(8));
        bi.write(r);
        is.put(id, r);
      }
      if (first || which == 4) {
        long id = rnd.nextInt(20);
        Row r = Row.of(id, "u" + rnd.nextInt(30));
        bu.write(r);
        us.put(id, r);
      }
      if (first || which == 5) {
        long id = rnd.nextInt(8);
        Row r = Row.of(id, "p" + rnd.nextInt(30), rnd.nextInt(3) == 0);
        bp.write(r);
        ps.put(id, r);
      }
    }
    if (first) {
      bi.markReady();
      bu.markReady();
      bp.markReady();
    }
    bi.commit();
    bu.commit();
    bp.commit();
  }
}
