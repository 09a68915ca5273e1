package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.lit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.OperatorStats;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The shape of compiled graphs: pushdown below and into joins, and the minimal no-join pipeline. */
class PlanShapeTest {
  private final Rivulet db = Rivulet.create();
  private final SourceCollection issues = db.collection("issues",
      Schema.parse("id INT NOT NULL, status STRING, priority INT, assignee INT"), List.of("id"));
  private final SourceCollection users = db.collection("users", Schema.parse("id INT NOT NULL, name STRING"),
      List.of("id"));

  PlanShapeTest() {
    SourceCollection.SyncBatch b = issues.beginSync();
    for (int i = 0; i < 300; i++) {
      b.write(Row.of(i, i % 3 == 0 ? "open" : "closed", i % 100, i % 10));
    }
    b.markReady().commit();
    SourceCollection.SyncBatch u = users.beginSync();
    for (int i = 0; i < 10; i++) {
      u.write(Row.of(i, "u" + i));
    }
    u.markReady().commit();
  }

  @Test
  void wherePushedBelowInnerJoin() {
    LiveQuery q = db.liveQuery("q", Query.from("i", issues)
        .join(QueryIR.JoinKind.INNER, "u", users, Query.on("i.assignee", "u.id"))
        .where(eq(col("i.status"), lit("open"))));
    assertThat(q.size()).isEqualTo(100);
    OperatorStats join = find(q, "inner-join");
    // Only the 100 open issues (and the 10 users) reach the join's state.
    assertThat(join.retained()).isEqualTo(110);
    assertThat(indexOf(q, "filter")).isLessThan(indexOf(q, "inner-join"));
  }

  @Test
  void whereOnNullSupplyingSideIsTestedInTheLeftJoin() {
    LiveQuery q = db.liveQuery("q", Query.from("i", issues)
        .join(QueryIR.JoinKind.LEFT, "u", users, Query.on("i.assignee", "u.id"))
        .where(eq(col("u.name"), lit("u1"))));
    assertThat(q.size()).isEqualTo(30);
    // Not a filter below the join on users (the other issues would then be null-extended and
    // kept): the left join tests each user row before pairing it, and a null-extended row fails.
    assertThat(indexOf(q, "filter")).isEqualTo(-1);
    assertThat(find(q, "left-join").retained()).isEqualTo(310);
  }

  @Test
  void noJoinQueryIsFilterThenTopK() {
    LiveQuery q = db.liveQuery("q", Query.from("i", issues)
        .where(eq(col("i.status"), lit("open")))
        .orderBy(Query.desc(col("i.priority")), Query.asc(col("i.id")))
        .limit(5));
    List<String> kinds = q.stats().stream().map(OperatorStats::kind).toList();
    assertThat(kinds).containsExactly("input", "filter", "top-k", "output");
  }

  private static OperatorStats find(LiveQuery q, String kind) {
    return q.stats().stream().filter(s -> s.kind().equals(kind)).findFirst().orElseThrow();
  }

  private static int indexOf(LiveQuery q, String kind) {
    List<OperatorStats> stats = q.stats();
    for (int i = 0; i < stats.size(); i++) {
      if (stats.get(i).kind().equals(kind)) {
        return i;
      }
    }
    return -1;
  }
}
