package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.lit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.testkit.Seeds;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A live query installs an insert-only result change that nobody records (its hydration, a later
 * transaction that only adds rows) in one bulk put ({@code bulkInstalled} counts its rows), and
 * agrees with a twin query that has a listener (the general path, row by row) and with a naive
 * join of maps here, through random later commits (new, changed and deleted issues) that
 * replace and remove the bulk-installed rows by key.
 */
class BulkInstallTest {
  private static final Schema ISSUES = Schema.parse("id INT NOT NULL, status STRING, priority INT, assignee INT");
  private static final Schema USERS = Schema.parse("id INT NOT NULL, name STRING");

  @Test
  void bulkInstallIsTakenAndAgreesWithTheGeneralPathAndANaiveJoin() {
    for (long seed : Seeds.runs(12)) {
      String at = "seed " + seed + " (" + Seeds.replayHint(seed) + ")";
      Random rnd = new Random(seed);
      Rivulet db = Rivulet.create();
      SourceCollection issues = db.collection("issues", ISSUES, List.of("id"));
      SourceCollection users = db.collection("users", USERS, List.of("id"));
      Map<Long, Row> issueModel = new HashMap<>();
      Map<Long, String> names = new HashMap<>();
      for (long u = 0; u < 40; u++) {
        names.put(u, "user" + u);
        users.beginSync().write(Row.of(u, "user" + u)).commit();
      }
      SourceCollection.SyncBatch load = issues.beginSync();
      for (int i = 0, n = rnd.nextInt(3_000); i < n; i++) {
        Row r = randomIssue(rnd, rnd.nextInt(5_000));
        issueModel.put(r.getLong(0), r);
        load.write(r);
      }
      load.commit();
      LiveQuery bulk = db.liveQuery("bulk", query(issues, users));
      assertThat(bulk.bulkInstalled()).as(at).isEqualTo(bulk.rows().size());
      assertThat(byId(bulk)).as(at).isEqualTo(naive(issueModel, names));
      LiveQuery general = db.liveQuery("general", query(issues, users));
      List<ChangeEvent> heard = new ArrayList<>();
      general.subscribe(heard::addAll); // it records its changes: the general path from now on
      long generalBulk = general.bulkInstalled();
      for (int step = 0; step < 60; step++) {
        long before = bulk.bulkInstalled();
        boolean insertOnly = rnd.nextInt(3) == 0;
        int added = 0;
        SourceCollection.SyncBatch b = issues.beginSync();
        for (int k = 0, n = 1 + rnd.nextInt(20); k < n; k++) {
          // insert-only ids above every other step's (which may add a few past the load's 5,000):
          // an id written before would be a replacement, whose retraction takes the general path
          long id = insertOnly ? 10_000 + step * 100L + k : rnd.nextInt(5_200);
          if (!insertOnly && rnd.nextInt(4) == 0) {
            b.delete(Row.of(id));
            issueModel.remove(id);
          } else {
            Row r = randomIssue(rnd, id);
            b.write(r);
            issueModel.put(id, r);
            added += naive(Map.of(id, r), names).size(); // 1 when the new issue joins the result
          }
        }
        b.commit();
        String st = at + " step " + step;
        if (insertOnly) {
          assertThat(bulk.bulkInstalled() - before).as(st + ": insert-only").isEqualTo(added);
        }
        assertThat(byId(bulk)).as(st).isEqualTo(naive(issueModel, names)).isEqualTo(byId(general));
      }
      assertThat(general.bulkInstalled()).as(at).isEqualTo(generalBulk);
      assertThat(heard).as(at).isNotEmpty();
    }
  }

  private static Query query(SourceCollection issues, SourceCollection users) {
    return Query.from("i", issues)
        .join(QueryIR.JoinKind.INNER, "u", users, Query.on("i.assignee", "u.id"))
        .where(eq(col("i.status"), lit("open")))
        .select(Query.as("id", col("i.id")), Query.as("priority", col("i.priority")), Query.as("owner", col("u.name")));
  }

  private static Row randomIssue(Random rnd, long id) {
    return Row.of(id, rnd.nextInt(3) == 0 ? "closed" : "open", (long) rnd.nextInt(9),
        rnd.nextInt(10) == 0 ? null : (long) rnd.nextInt(45)); // some assignees have no user
  }

  private static Map<Long, Row> byId(LiveQuery q) {
    Map<Long, Row> out = new HashMap<>();
    for (Row r : q.rows()) {
      assertThat(out.put((Long) r.get(0), r)).as("two rows of issue %s", r.get(0)).isNull();
    }
    return out;
  }

  private static Map<Long, Row> naive(Map<Long, Row> issues, Map<Long, String> names) {
    Map<Long, Row> out = new HashMap<>();
    for (Row i : issues.values()) {
      Object assignee = i.get(3);
      if ("open".equals(i.get(1)) && assignee != null && names.containsKey((Long) assignee)) {
        out.put((Long) i.get(0), Row.of(i.get(0), i.get(2), names.get((Long) assignee)));
      }
    }
    return out;
  }
}
