package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.gt;
import static dev.rivulet.query.Exprs.isNull;
import static dev.rivulet.query.Exprs.lit;
import static dev.rivulet.query.Exprs.or;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.OperatorStats;
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
 * A left join whose right side has one row per join key, ordered by left columns and limited,
 * takes its window on the left rows themselves (a {@code left-join-rows} join then a top-K that
 * holds the left input's rows) and joins only the window's rows again. Proven taken by the plan's
 * operators, and equal, in rows, order and window steps, to the general path (the same query
 * ordered also by a right column after the left key, which changes no order but keeps the window
 * over the joined rows).
 */
class LeftJoinWindowTest {
  private final Rivulet db = Rivulet.create();
  private final SourceCollection tasks = db.collection("tasks",
      Schema.parse("id INT NOT NULL, priority INT, title STRING, assignee INT"), List.of("id"));
  private final SourceCollection members = db.collection("members",
      Schema.parse("id INT NOT NULL, name STRING, active BOOL"), List.of("id"));

  private Query joined(boolean where) {
    Query q = Query.from("t", tasks).join(QueryIR.JoinKind.LEFT, "u", members, Query.on("t.assignee", "u.id"));
    return where ? q.where(or(isNull(col("u.id")), eq(col("u.active"), lit(true)))) : q;
  }

  /** The W5 shape; {@code general} adds a trailing order by a right column (the general path). */
  private Query windowed(boolean where, long offset, long limit, boolean general) {
    Query q = joined(where).select(Query.as("id", col("t.id")), Query.as("title", col("t.title")),
        Query.as("priority", col("t.priority")), Query.as("owner", col("u.name")), Query.as("active", col("u.active")));
    q = general ? q.orderBy(Query.desc(col("t.priority")), Query.asc(col("t.id")), Query.asc(col("u.name")))
        : q.orderBy(Query.desc(col("t.priority")), Query.asc(col("t.id")));
    return q.offset(offset).limit(limit);
  }

  private static List<String> kinds(LiveQuery q) {
    List<String> out = new ArrayList<>();
    for (OperatorStats s : q.stats()) {
      out.add(s.kind());
    }
    return out;
  }

  @Test
  void theWindowIsTakenOnTheLeftRows() {
    List<String> kinds = kinds(db.liveQuery("fast", windowed(true, 0, 3, false)));
    assertThat(kinds).contains("left-join-rows", "left-join", "map-window").doesNotContain("filter", "map");
    assertThat(kinds.stream().filter("top-k"::equals).count()).isEqualTo(2);
    assertThat(kinds.indexOf("left-join-rows")).isLessThan(kinds.indexOf("top-k"));
    assertThat(kinds.indexOf("top-k")).isLessThan(kinds.indexOf("left-join"));
  }

  @Test
  void otherShapesKeepTheJoinedWindow() {
    assertThat(kinds(db.liveQuery("general", windowed(true, 0, 3, true)))).doesNotContain("left-join-rows");
    Query onName = Query.from("t", tasks) // the right side joined on a column that is not its key
        .join(QueryIR.JoinKind.LEFT, "u", members, Query.on("t.title", "u.name"))
        .select(Query.as("id", col("t.id")), Query.as("owner", col("u.name")))
        .orderBy(Query.desc(col("t.priority")), Query.asc(col("t.id"))).limit(3);
    assertThat(kinds(db.liveQuery("onName", onName))).doesNotContain("left-join-rows");
    Query bothSides = joined(false).where(gt(col("t.priority"), col("u.id"))) // a where on both sides
        .select(Query.as("id", col("t.id"))).orderBy(Query.asc(col("t.id"))).limit(3);
    assertThat(kinds(db.liveQuery("bothSides", bothSides))).doesNotContain("left-join-rows");
    Query fromSubquery = Query.from("t", Query.from("x", tasks)) // the left side is not a collection
        .join(QueryIR.JoinKind.LEFT, "u", members, Query.on("t.assignee", "u.id"))
        .select(Query.as("id", col("t.id")), Query.as("owner", col("u.name")))
        .orderBy(Query.desc(col("t.priority")), Query.asc(col("t.id"))).limit(3);
    assertThat(kinds(db.liveQuery("fromSubquery", fromSubquery))).doesNotContain("left-join-rows");
    Query unlimited = joined(true).select(Query.as("id", col("t.id"))).orderBy(Query.asc(col("t.id")));
    assertThat(kinds(db.liveQuery("unlimited", unlimited))).doesNotContain("left-join-rows");
  }

  @Test
  void agreesWithTheJoinedWindow() {
    for (long seed : Seeds.runs(12)) {
      Random r = new Random(seed);
      Rivulet rdb = Rivulet.create();
      SourceCollection t = rdb.collection("tasks",
          Schema.parse("id INT NOT NULL, priority INT, title STRING, assignee INT"), List.of("id"));
      SourceCollection m = rdb.collection("members", Schema.parse("id INT NOT NULL, name STRING, active BOOL"),
          List.of("id"));
      Map<Integer, Row> taskRows = new HashMap<>();
      Map<Integer, Row> memberRows = new HashMap<>();
      boolean where = r.nextBoolean();
      long offset = r.nextInt(3) == 0 ? r.nextInt(4) : 0;
      long limit = 1 + r.nextInt(6);
      // a hydration first (in bulk), then single writes
      SourceCollection.SyncBatch mb = m.beginSync();
      for (int i = 0; i < 6; i++) {
        memberRows.put(i, member(r, i));
        mb.write(memberRows.get(i));
      }
      mb.markReady().commit();
      SourceCollection.SyncBatch tb = t.beginSync();
      for (int i = 0; i < 5000; i++) {
        taskRows.put(i, task(r, i));
        tb.write(taskRows.get(i));
      }
      tb.markReady().commit();
      LiveQuery fast = rdb.liveQuery("fast", forQuery(t, m, where, offset, limit, false));
      LiveQuery general = rdb.liveQuery("general", forQuery(t, m, where, offset, limit, true));
      assertThat(kinds(fast)).as("seed %d", seed).contains("left-join-rows");
      assertThat(kinds(general)).as("seed %d", seed).doesNotContain("left-join-rows");
      List<Row> folded = new ArrayList<>();
      LiveWindow window = fast.subscribeWindow(SubscribeOptions.sync().withInitialState(), b -> fold(folded, b));
      for (int step = 0; step < 150; step++) {
        int k = r.nextInt(10);
        if (k < 5) {
          int id = r.nextInt(30); // the low ids, among the high priorities, reach the window
          Row row = r.nextInt(6) == 0 ? null : task(r, id);
          write(t, taskRows, id, row, Row.of(id));
        } else {
          int id = r.nextInt(8);
          Row row = r.nextInt(8) == 0 ? null : member(r, id);
          write(m, memberRows, id, row, Row.of(id));
        }
        String at = "seed " + seed + " step " + step + " where " + where + " offset " + offset + " limit " + limit;
        assertThat(fast.rows()).as(at).isEqualTo(general.rows());
        assertThat(folded).as(at).isEqualTo(fast.rows());
      }
      window.close();
    }
  }

  private static Query forQuery(SourceCollection t, SourceCollection m, boolean where, long offset, long limit,
      boolean general) {
    Query q = Query.from("t", t).join(QueryIR.JoinKind.LEFT, "u", m, Query.on("t.assignee", "u.id"));
    if (where) {
      q = q.where(or(isNull(col("u.id")), eq(col("u.active"), lit(true))));
    }
    q = q.select(Query.as("id", col("t.id")), Query.as("title", col("t.title")),
        Query.as("priority", col("t.priority")), Query.as("owner", col("u.name")), Query.as("active", col("u.active")));
    q = general ? q.orderBy(Query.desc(col("t.priority")), Query.asc(col("t.id")), Query.asc(col("u.name")))
        : q.orderBy(Query.desc(col("t.priority")), Query.asc(col("t.id")));
    return q.offset(offset).limit(limit);
  }

  private static Row task(Random r, int id) {
    Integer assignee = r.nextInt(5) < 3 ? null : r.nextInt(8); // many NULL keys; ids 6, 7 start unmatched
    Integer priority = r.nextInt(10) == 0 ? null : r.nextInt(4);
    return Row.of(id, priority, "t" + r.nextInt(3), assignee);
  }

  private static Row member(Random r, int id) {
    return Row.of(id, r.nextInt(4) == 0 ? null : "m" + r.nextInt(3), r.nextInt(5) == 0 ? null : r.nextBoolean());
  }

  /** Writes {@code row} under {@code id}, or deletes the id's row when it is null. */
  private static void write(SourceCollection c, Map<Integer, Row> rows, int id, Row row, Row key) {
    SourceCollection.SyncBatch b = c.beginSync();
    if (row == null) {
      if (rows.remove(id) == null) {
        return;
      }
      b.delete(key);
    } else {
      rows.put(id, row);
      b.write(row);
    }
    b.commit();
  }

  private static void fold(List<Row> window, WindowBatch batch) {
    for (WindowDelta d : batch.deltas()) {
      switch (d.op()) {
        case RESET -> window.clear();
        case ENTER -> window.add(d.newIndex(), d.row());
        case LEAVE -> window.remove(d.oldIndex());
        case MOVE -> {
          window.remove(d.oldIndex());
          window.add(d.newIndex(), d.row());
        }
        case UPDATE -> window.set(d.oldIndex(), d.row());
      }
    }
  }
}
