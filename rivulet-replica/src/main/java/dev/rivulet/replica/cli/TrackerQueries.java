package dev.rivulet.replica.cli;

import static dev.rivulet.query.Exprs.coalesce;
import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.count;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.gte;
import static dev.rivulet.query.Exprs.isNull;
import static dev.rivulet.query.Exprs.lit;
import static dev.rivulet.query.Exprs.max;
import static dev.rivulet.query.Exprs.when;

import dev.rivulet.query.Query;
import dev.rivulet.replica.SqliteReplica;

/** The demo's live queries over the tracker's mirrors. */
final class TrackerQueries {
  /** Rows shown by the top query. */
  static final int TOP = 20;

  private TrackerQueries() {}

  /**
   * The top open issues by priority (then id): id, priority, project name, title, assignee name
   * (null when unassigned) and comment count (0 when none, through a grouped subquery).
   */
  static Query topOpen(SqliteReplica r) {
    Query commentCounts = Query.from("c", r.table("comments")).groupBy(col("c.issue"))
        .select(Query.as("issue", col("c.issue")), Query.as("n", count()));
    return Query.from("i", r.table("issues"))
        .innerJoin("p", r.table("projects"), Query.on("i.project", "p.id"))
        .leftJoin("u", r.table("users"), Query.on("i.assignee", "u.id"))
        .leftJoin("cc", commentCounts, Query.on("i.id", "cc.issue"))
        .where(eq(col("i.status"), lit("open")))
        .select(Query.as("id", col("i.id")), Query.as("priority", col("i.priority")),
            Query.as("project", col("p.name")), Query.as("title", col("i.title")),
            Query.as("assignee", col("u.name")), Query.as("comments", coalesce(col("cc.n"), lit(0L))))
        .orderBy(Query.desc(col("i.priority")), Query.asc(col("i.id")))
        .limit(TOP);
  }

  /** Per project with open issues: name, open issues, urgent ones (priority >= 90), unassigned ones, top priority. */
  static Query openPerProject(SqliteReplica r) {
    return Query.from("i", r.table("issues"))
        .innerJoin("p", r.table("projects"), Query.on("i.project", "p.id"))
        .where(eq(col("i.status"), lit("open")))
        .groupBy(col("p.name"))
        .select(Query.as("project", col("p.name")), Query.as("open", count()),
            Query.as("urgent", count(when(gte(col("i.priority"), lit(90)), lit(1)).end())),
            Query.as("unassigned", count(when(isNull(col("i.assignee")), lit(1)).end())),
            Query.as("top", max(col("i.priority"))))
        .orderBy(Query.asc(col("p.name")));
  }
}
