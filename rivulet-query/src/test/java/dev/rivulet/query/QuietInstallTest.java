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
 * A row installed into a collection whose change nobody reads (no live query over it, no
 * listener of its events) is not compared with the row it replaces (counted in {@code
 * quietInstalls}); the rows it leaves agree with a twin collection that has a listener (the
 * general path, which compares) and with a map, through random single-row sync commits (the
 * same row again, a new row, a delete of a present or absent key). Once a live query reads the
 * quiet collection, its installs compare again: the query agrees with a naive filter of the map,
 * and a row written again unchanged reaches neither the query nor a listener.
 */
class QuietInstallTest {
  private static final Schema S = Schema.parse("id INT NOT NULL, status STRING, priority INT");

  @Test
  void quietInstallIsTakenAndAgreesWithTheComparingPath() {
    for (long seed : Seeds.runs(20)) {
      String at = "seed " + seed + " (" + Seeds.replayHint(seed) + ")";
      Random rnd = new Random(seed);
      Rivulet db = Rivulet.create();
      SourceCollection quiet = db.collection("quiet", S, List.of("id"));
      SourceCollection loud = db.collection("loud", S, List.of("id"));
      List<ChangeEvent> heard = new ArrayList<>();
      loud.subscribe(heard::addAll);
      Map<Long, Row> model = new HashMap<>();
      int commits = 0;
      for (int i = 0; i < 300; i++) {
        long before = quiet.quietInstalls;
        int expectedEvents = heard.size() + step(db, rnd, model, quiet, loud);
        commits++;
        assertThat(quiet.quietInstalls - before).as(at).isEqualTo(1);
        assertThat(heard).as(at).hasSize(expectedEvents);
        assertThat(byKey(quiet)).as(at).isEqualTo(model).isEqualTo(byKey(loud));
      }
      assertThat(loud.quietInstalls).as(at).isZero();
      assertThat(quiet.quietInstalls).as(at).isEqualTo(commits);

      LiveQuery open = db.liveQuery("open", Query.from("i", quiet).where(eq(col("i.status"), lit("open"))));
      List<ChangeEvent> queryHeard = new ArrayList<>();
      open.subscribe(queryHeard::addAll);
      long quietBefore = quiet.quietInstalls;
      for (int i = 0; i < 100; i++) {
        int expectedEvents = heard.size() + step(db, rnd, model, quiet, loud);
        assertThat(heard).as(at).hasSize(expectedEvents);
        assertThat(new HashMap<>(byKey(open))).as(at).isEqualTo(naiveOpen(model));
      }
      assertThat(quiet.quietInstalls).as(at + ": observed, it compares").isEqualTo(quietBefore);
      Row same = model.values().stream().filter(r -> "open".equals(r.get(1))).findFirst().orElse(null);
      if (same != null) {
        int q = queryHeard.size();
        int l = heard.size();
        db.beginSync().write(quiet, Row.of(same.get(0), same.get(1), same.get(2)))
            .write(loud, Row.of(same.get(0), same.get(1), same.get(2))).commit();
        assertThat(queryHeard).as(at + ": an unchanged row is no change").hasSize(q);
        assertThat(heard).as(at).hasSize(l);
      }
    }
  }

  /**
   * One random single-row commit to both collections (each its own transaction), applied to
   * {@code model}; returns how many events the listener of {@code loud} should hear (0 or 1).
   */
  private static int step(Rivulet db, Random rnd, Map<Long, Row> model, SourceCollection quiet,
      SourceCollection loud) {
    long id = rnd.nextInt(20);
    Row now = model.get(id);
    int kind = rnd.nextInt(4);
    if (kind == 0) { // a delete, of a present key or an absent one
      quiet.beginSync().delete(Row.of(id)).commit();
      db.beginSync().delete(loud, Row.of(id)).commit();
      model.remove(id);
      return now == null ? 0 : 1;
    }
    Row next = kind == 1 && now != null
        ? Row.of(now.get(0), now.get(1), now.get(2)) // the same values again, in a new row
        : Row.of(id, rnd.nextBoolean() ? "open" : "closed", (long) rnd.nextInt(5));
    quiet.beginSync().write(next).commit();
    db.beginSync().write(loud, next).commit();
    model.put(id, next);
    return next.equals(now) ? 0 : 1;
  }

  private static Map<Long, Row> naiveOpen(Map<Long, Row> model) {
    Map<Long, Row> out = new HashMap<>();
    model.forEach((k, r) -> {
      if ("open".equals(r.get(1))) {
        out.put(k, r);
      }
    });
    return out;
  }

  private static Map<Long, Row> byKey(BaseCollection c) {
    Map<Long, Row> out = new HashMap<>();
    for (Row r : c.rows()) {
      out.put((Long) r.get(0), r);
    }
    return out;
  }
}
