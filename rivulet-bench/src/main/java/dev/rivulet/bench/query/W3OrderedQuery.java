package dev.rivulet.bench.query;

import static dev.rivulet.query.Exprs.col;

import dev.rivulet.bench.peers.PeerData;
import dev.rivulet.engine.Row;
import dev.rivulet.query.Query;
import dev.rivulet.query.SourceCollection;
import java.util.Comparator;
import java.util.List;

/**
 * W3o: {@link W3OpenIssuesQuery W3} with an order and no limit, the form a window subscriber of
 * W3's rows needs (the window face is for ordered queries only):
 *
 * <pre>
 * ... W3 ... ORDER BY i.priority DESC, i.id ASC
 * </pre>
 *
 * <p>Not one of the peers' workloads (not in {@link Harness#all()}): the face benchmarks use it
 * to compare the window face with the others on W3's data and W3's update stream ({@code
 * mixed}). Checked in order against W3's naive result sorted the same way.
 */
final class W3OrderedQuery extends QueryWorkload {
  static final String NAME = "W3o";
  private static final int ID = 0;
  private static final int PRIORITY = 2;
  private final W3OpenIssuesQuery w3 = new W3OpenIssuesQuery();

  @Override
  String name() {
    return NAME;
  }

  @Override
  String streamName() {
    return W3OpenIssuesQuery.NAME;
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
    return w3.query(issues, users, projects)
        .orderBy(Query.desc(col("i.priority")), Query.asc(col("i.id")));
  }

  @Override
  boolean ordered() {
    return true;
  }

  @Override
  List<Row> naive(PeerData.Issue[] current, Tables.Data data) {
    return w3.naive(current, data).stream()
        .sorted(Comparator.comparingInt((Row r) -> -((Number) r.get(PRIORITY)).intValue())
            .thenComparingInt(r -> ((Number) r.get(ID)).intValue()))
        .toList();
  }
}
