package dev.rivulet.bench.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.count;
import static dev.rivulet.query.Exprs.max;

import dev.rivulet.bench.peers.PeerData;
import dev.rivulet.engine.Row;
import dev.rivulet.query.Query;
import dev.rivulet.query.QueryIR;
import dev.rivulet.query.SourceCollection;
import java.util.ArrayList;
import java.util.List;

/**
 * W2, load per assignee, written with the query builder:
 *
 * <pre>
 * SELECT u.id, u.name, count(*) AS issues, max(i.priority) AS max_priority
 * FROM issues i JOIN users u ON i.assignee = u.id
 * GROUP BY u.id, u.name
 * </pre>
 *
 * <p>Mix {@code mixed} (the peers' {@code W2 mixed}): a random row gets a new assignee one time in
 * ten, else a new priority. Checked as a set against a naive count and max per user.
 */
final class W2AssigneeLoadQuery extends QueryWorkload {
  static final String NAME = "W2";

  @Override
  String name() {
    return NAME;
  }

  @Override
  boolean readsUsers() {
    return true;
  }

  @Override
  Query query(SourceCollection issues, SourceCollection users, SourceCollection projects) {
    return Query.from("i", issues)
        .join(QueryIR.JoinKind.INNER, "u", users, Query.on("i.assignee", "u.id"))
        .groupBy(col("u.id"), col("u.name"))
        .select(Query.as("id", col("u.id")), Query.as("name", col("u.name")), Query.as("issues", count()),
            Query.as("max_priority", max(col("i.priority"))));
  }

  @Override
  List<Row> naive(PeerData.Issue[] current, Tables.Data data) {
    long[] count = new long[PeerData.USERS];
    long[] max = new long[PeerData.USERS];
    for (PeerData.Issue r : current) {
      int u = r.assignee();
      max[u] = count[u] == 0 ? r.priority() : Math.max(max[u], r.priority());
      count[u]++;
    }
    List<Row> out = new ArrayList<>();
    for (Row u : data.users()) {
      int id = (int) u.getLong(0);
      if (count[id] > 0) {
        out.add(Row.of(id, u.get(1), count[id], max[id]));
      }
    }
    return out;
  }
}
