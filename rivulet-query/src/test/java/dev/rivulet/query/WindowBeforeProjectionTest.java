package dev.rivulet.query;

import static dev.rivulet.query.Exprs.add;
import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.isNull;
import static dev.rivulet.query.Exprs.lit;
import static dev.rivulet.query.Exprs.or;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Graph;
import dev.rivulet.engine.GraphBuilder;
import dev.rivulet.engine.OperatorStats;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.query.compile.QueryPlans;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A block ordered by plain columns takes its window before its projection, so only the window's
 * changes are projected; a joined row whose shown columns did not change is then no change. A
 * where-conjunct on a left join's right side is tested in the join, on right rows.
 */
class WindowBeforeProjectionTest {
  private final Rivulet db = Rivulet.create();
  private final SourceCollection tasks = db.collection("tasks",
      Schema.parse("id INT NOT NULL, priority INT, title STRING, assignee INT"), List.of("id"));
  private final SourceCollection members = db.collection("members",
      Schema.parse("id INT NOT NULL, name STRING, active BOOL, email STRING"), List.of("id"));

  private Query leftJoined() {
    return Query.from("t", tasks)
        .join(QueryIR.JoinKind.LEFT, "u", members, Query.on("t.assignee", "u.id"))
        .where(or(isNull(col("u.id")), eq(col("u.active"), lit(true))));
  }

  private Query byPriority() {
    return leftJoined()
        .select(Query.as("id", col("t.id")), Query.as("title", col("t.title")), Query.as("owner", col("u.name")))
        .orderBy(Query.desc(col("t.priority")), Query.asc(col("t.id")))
        .limit(2);
  }

  private static List<String> kinds(QueryIR ir) {
    GraphBuilder b = Graph.builder();
    b.output("out", QueryPlans.plan(ir, b).result().stream());
    List<String> out = new ArrayList<>();
    for (OperatorStats s : b.build().stats()) {
      out.add(s.kind());
    }
    return out;
  }

  @Test
  void anOrderByPlainColumnsWindowsBeforeTheProjection() {
    List<String> kinds = kinds(byPriority().raw());
    assertThat(kinds).contains("top-k", "map-window").doesNotContain("map");
    assertThat(kinds.indexOf("top-k")).isLessThan(kinds.indexOf("map-window"));
  }

  @Test
  void aFilterOnTheLeftJoinedSideIsTestedInTheJoin() {
    assertThat(kinds(byPriority().raw())).contains("left-join").doesNotContain("filter");
    QueryIR later = Query.from("t", tasks) // a later right join null-extends u again: filtered after it
        .join(QueryIR.JoinKind.LEFT, "u", members, Query.on("t.assignee", "u.id"))
        .join(QueryIR.JoinKind.RIGHT, "m", members, Query.on("t.assignee", "m.id"))
        .where(eq(col("u.active"), lit(true))).raw();
    assertThat(kinds(later)).contains("filter");
  }

  @Test
  void anOrderWithoutALimitProjectsFirst() {
    QueryIR ir = leftJoined()
        .select(Query.as("id", col("t.id")), Query.as("owner", col("u.name")))
        .orderBy(Query.desc(col("t.priority")), Query.asc(col("t.id"))).raw();
    List<String> kinds = kinds(ir);
    assertThat(kinds).contains("map", "top-k").doesNotContain("map-window");
    assertThat(kinds.indexOf("map")).isLessThan(kinds.indexOf("top-k"));
  }

  @Test
  void anOrderByAnExpressionProjectsFirst() {
    QueryIR ir = leftJoined()
        .select(Query.as("id", col("t.id")), Query.as("owner", col("u.name")))
        .orderBy(Query.desc(add(col("t.priority"), lit(1))), Query.asc(col("t.id")))
        .limit(2).raw();
    List<String> kinds = kinds(ir);
    assertThat(kinds).contains("map", "top-k").doesNotContain("map-window");
    assertThat(kinds.indexOf("map")).isLessThan(kinds.indexOf("top-k"));
  }

  @Test
  void aChangeOfAColumnNotShownIsNoChange() {
    members.beginSync().write(Row.of(1, "ann", true, "a@x")).write(Row.of(2, "bob", false, "b@x")).markReady().commit();
    tasks.beginSync().write(Row.of(10, 5, "ten", 1)).write(Row.of(11, 9, "eleven", null))
        .write(Row.of(12, 7, "twelve", 2)).write(Row.of(13, 1, "thirteen", 1)).markReady().commit();
    LiveQuery q = db.liveQuery("w", byPriority());
    assertThat(q.rows()).containsExactly(Row.of(11, "eleven", null), Row.of(10, "ten", "ann"));
    List<Change> seen = new ArrayList<>();
    q.subscribeChanges(SubscribeOptions.sync(), batch -> seen.addAll(batch.changes()));
    seen.clear(); // the initial state, if delivered

    members.beginSync().write(Row.of(1, "ann", true, "ann@y")).commit(); // email is not shown
    assertThat(seen).isEmpty();
    assertThat(q.rows()).containsExactly(Row.of(11, "eleven", null), Row.of(10, "ten", "ann"));

    members.beginSync().write(Row.of(1, "anne", true, "ann@y")).commit();
    assertThat(seen).hasSize(1);
    assertThat(seen.get(0)).isEqualTo(new Change.Edit(Row.of(10, "ten", "anne"), Row.of(10, "ten", "ann")));
    assertThat(q.rows()).containsExactly(Row.of(11, "eleven", null), Row.of(10, "ten", "anne"));

    members.beginSync().write(Row.of(2, "bob", true, "b@x")).commit(); // task 12 (priority 7) enters
    assertThat(q.rows()).containsExactly(Row.of(11, "eleven", null), Row.of(12, "twelve", "bob"));
    members.beginSync().write(Row.of(2, "bob", false, "b@x")).commit(); // and leaves
    assertThat(q.rows()).containsExactly(Row.of(11, "eleven", null), Row.of(10, "ten", "anne"));
    members.beginSync().delete(Row.of(2)).commit(); // unmatched now: null-extended, shown
    assertThat(q.rows()).containsExactly(Row.of(11, "eleven", null), Row.of(12, "twelve", null));
  }
}
