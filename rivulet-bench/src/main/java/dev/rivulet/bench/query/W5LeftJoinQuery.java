package dev.rivulet.bench.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.isNull;
import static dev.rivulet.query.Exprs.lit;
import static dev.rivulet.query.Exprs.or;

import dev.rivulet.bench.peers.PeerTasks;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.query.Query;
import dev.rivulet.query.QueryIR;
import dev.rivulet.query.SourceCollection;
import java.util.ArrayList;
import java.util.List;

/**
 * W5, a left join with NULL-heavy keys, filtered on the joined side, ordered and limited:
 *
 * <pre>
 * SELECT t.id, t.title, t.priority, t.assignee, u.name AS owner, u.active AS active
 * FROM tasks t LEFT JOIN members u ON t.assignee = u.id
 * WHERE u.id IS NULL OR u.active = true
 * ORDER BY t.priority DESC, t.id ASC
 * LIMIT 50
 * </pre>
 *
 * <p>At {@code n} tasks (60% unassigned) and {@code n / 100} members ({@link PeerTasks}). The naive
 * check filters, sorts and cuts the driver's arrays with plain loops and compares in order, so it
 * shares nothing with the query layer but the public {@link Row}.
 */
final class W5LeftJoinQuery {
  static final String NAME = "W5";
  static final Schema TASKS = Schema.parse("id INT NOT NULL, priority INT, title STRING, assignee INT");
  static final Schema MEMBERS = Schema.parse("id INT NOT NULL, name STRING, active BOOL");

  private W5LeftJoinQuery() {}

  static Row row(PeerTasks.Task t) {
    return Row.of(t.id(), t.priority(), t.title(), t.assignee());
  }

  static Row row(PeerTasks.Member m) {
    return Row.of(m.id(), m.name(), m.active());
  }

  static Query query(SourceCollection tasks, SourceCollection members) {
    return Query.from("t", tasks)
        .join(QueryIR.JoinKind.LEFT, "u", members, Query.on("t.assignee", "u.id"))
        .where(or(isNull(col("u.id")), eq(col("u.active"), lit(true))))
        .select(Query.as("id", col("t.id")), Query.as("title", col("t.title")),
            Query.as("priority", col("t.priority")), Query.as("assignee", col("t.assignee")),
            Query.as("owner", col("u.name")), Query.as("active", col("u.active")))
        .orderBy(Query.desc(col("t.priority")), Query.asc(col("t.id")))
        .limit(PeerTasks.LIMIT);
  }

  /** The expected window from the driver's arrays, in the result's columns. */
  static List<Row> naive(PeerTasks.Task[] tasks, PeerTasks.Member[] members) {
    List<PeerTasks.Task> shown = new ArrayList<>();
    for (PeerTasks.Task t : tasks) {
      if (t.assignee() == null || members[t.assignee()].active()) {
        shown.add(t);
      }
    }
    shown.sort((a, b) -> a.priority() != b.priority() ? b.priority() - a.priority() : Integer.compare(a.id(), b.id()));
    List<Row> out = new ArrayList<>();
    for (PeerTasks.Task t : shown.subList(0, Math.min(PeerTasks.LIMIT, shown.size()))) {
      PeerTasks.Member m = t.assignee() == null ? null : members[t.assignee()];
      out.add(Row.of(t.id(), t.title(), t.priority(), t.assignee(), m == null ? null : m.name(),
          m == null ? null : m.active()));
    }
    return out;
  }

  /** Null when {@code live} is the naive window in order, else the first difference. */
  static String check(List<Row> live, PeerTasks.Task[] tasks, PeerTasks.Member[] members, String when) {
    return QueryWorkload.firstDifference(live, naive(tasks, members), when);
  }
}
