package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
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
 * A live query with nested includes remembers the public rows it published as a key's new row
 * and takes a key's old row from there when it is published again ({@code LiveQuery#shownHits});
 * what it delivers is what it would compute: every edit's old row is the row last delivered for
 * that key, and every delivered row is the row the query shows for its key then (also when a new
 * row took the shown form of equal nested values from the key's old row, {@code
 * LiveQuery#shownFromEarlier}).
 */
class ShownRowsCacheTest {
  @Test
  void editsCarryTheRowLastDeliveredForTheirKey() {
    for (long seed : Seeds.runs(6)) {
      Rivulet db = Rivulet.create();
      SourceCollection issues = db.collection("issues", Schema.parse("id INT NOT NULL, title STRING"), List.of("id"));
      SourceCollection comments = db.collection("comments",
          Schema.parse("id INT NOT NULL, issue INT, created INT, body STRING"), List.of("id"));
      Random rnd = new Random(seed);
      for (long i = 0; i < 8; i++) {
        issues.beginSync().write(Row.of(i, "t" + i)).commit();
      }
      Query newest = Query.from("c", comments).where(eq(col("c.issue"), col("i.id")))
          .select(Query.as("id", col("c.id")), Query.as("body", col("c.body")))
          .orderBy(Query.desc(col("c.created")), Query.desc(col("c.id"))).limit(2);
      Query first = Query.from("f", comments).where(eq(col("f.issue"), col("i.id")))
          .select(Query.as("body", col("f.body"))).orderBy(Query.asc(col("f.id"))).limit(1);
      LiveQuery q = db.liveQuery("nested", Query.from("i", issues)
          .select(Query.as("id", col("i.id")), Query.as("title", col("i.title")),
              Query.includeArray("newest", newest), Query.includeOne("first", first))
          .orderBy(Query.asc(col("i.id"))));
      Map<Object, Row> seen = new HashMap<>();
      List<String> problems = new ArrayList<>();
      q.subscribeChanges(SubscribeOptions.sync().withInitialState(), batch -> {
        for (Change c : batch.changes()) {
          if (c instanceof Change.Add a) {
            seen.put(a.row().get(0), a.row());
          } else if (c instanceof Change.Edit e) {
            if (!e.old().equals(seen.get(e.old().get(0)))) {
              problems.add("edit's old " + e.old() + " is not the last delivered " + seen.get(e.old().get(0)));
            }
            seen.put(e.row().get(0), e.row());
          } else if (c instanceof Change.Remove r) {
            seen.remove(r.row().get(0));
          }
        }
      });
      long nextComment = 0;
      List<Long> live = new ArrayList<>();
      for (int step = 0; step < 200; step++) {
        int what = rnd.nextInt(6);
        if (what == 0 && !live.isEmpty()) {
          comments.beginSync().delete(Row.of(live.remove(rnd.nextInt(live.size())))).commit();
        } else if (what == 1) {
          long id = rnd.nextInt(8);
          issues.beginSync().write(Row.of(id, "t" + id + "/" + step)).commit();
        } else {
          live.add(nextComment);
          comments.beginSync().write(Row.of(nextComment++, (long) rnd.nextInt(8), (long) rnd.nextInt(50), "b" + step))
              .commit();
        }
        Map<Object, Row> shows = new HashMap<>();
        q.rows().forEach(r -> shows.put(r.get(0), r));
        assertThat(seen).as("seed %d, step %d: delivered rows are the rows shown", seed, step).isEqualTo(shows);
      }
      assertThat(problems).as("seed %d", seed).isEmpty();
      assertThat(q.shownHits()).as("seed %d: old rows taken from the published ones", seed).isPositive();
      assertThat(q.shownFromEarlier()).as("seed %d: new rows shown with the old one's nested values at hand", seed)
          .isPositive();
    }
  }
}
