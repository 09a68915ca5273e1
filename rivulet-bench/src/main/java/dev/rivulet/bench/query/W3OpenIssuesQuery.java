package dev.rivulet.bench.query;

import static dev.rivulet.query.Exprs.and;
import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.lit;
import static dev.rivulet.query.Exprs.not;

import dev.rivulet.bench.peers.PeerData;
import dev.rivulet.engine.Row;
import dev.rivulet.query.Query;
import dev.rivulet.query.QueryIR;
import dev.rivulet.query.SourceCollection;
import java.util.ArrayList;
import java.util.List;

/**
 * W3, open issues of live projects with their owner, a three-way join written with the query
 * builder:
 *
 * <pre>
 * SELECT i.id, i.title, i.priority, u.name AS owner, p.name AS project
 * FROM issues i
 * JOIN users u ON i.assignee = u.id
 * JOIN projects p ON i.project_id = p.id
 * WHERE i.status = 'open' AND NOT p.archived
 * </pre>
 *
 * <p>Mix {@code mixed} (the peers' {@code W3 mixed}): a random row gets a new assignee one time in
 * ten, else a new priority. Checked as a set against a naive filter and lookup.
 */
final class W3OpenIssuesQuery extends QueryWorkload {
  static final String NAME = "W3";

  @Override
  String name() {
    return NAME;
  }

  @Override
  boolean readsUsers() {
    return true;
  }

  @Override
  boolean readsProjects() {
    return true;
  }

  @Override
  Query query(SourceCollection issues, SourceCollection users, SourceCollection projects) {
    return Query.from("i", issues)
        .join(QueryIR.JoinKind.INNER, "u", users, Query.on("i.assignee", "u.id"))
        .join(QueryIR.JoinKind.INNER, "p", projects, Query.on("i.project_id", "p.id"))
        .where(and(eq(col("i.status"), lit("open")), not(col("p.archived"))))
        .select(Query.as("id", col("i.id")), Query.as("title", col("i.title")),
            Query.as("priority", col("i.priority")), Query.as("owner", col("u.name")),
            Query.as("project", col("p.name")));
  }

  @Override
  QueryWorkload orderedVariant() {
    return new W3OrderedQuery();
  }

  @Override
  List<Row> naive(PeerData.Issue[] current, Tables.Data data) {
    Row[] users = data.users();
    Row[] projects = data.projects();
    List<Row> out = new ArrayList<>();
    for (PeerData.Issue r : current) {
      Row p = projects[r.projectId()];
      if (r.isOpen() && !Boolean.TRUE.equals(p.get(2))) {
        out.add(Row.of(r.id(), r.title(), r.priority(), users[r.assignee()].get(1), p.get(1)));
      }
    }
    return out;
  }
}
