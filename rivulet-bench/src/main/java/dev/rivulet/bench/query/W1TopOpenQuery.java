package dev.rivulet.bench.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.lit;

import dev.rivulet.bench.peers.PeerData;
import dev.rivulet.engine.Row;
import dev.rivulet.query.Query;
import dev.rivulet.query.SourceCollection;
import java.util.Arrays;
import java.util.List;

/**
 * W1, the open-issues window, written with the query builder:
 *
 * <pre>
 * SELECT * FROM issues
 * WHERE status = 'open'
 * ORDER BY priority DESC, created ASC
 * LIMIT 50
 * </pre>
 *
 * <p>Mixes (the peers' {@code W1 random} then {@code W1 edge}, on the same data and live query):
 * a random row gets a new priority; an open row at position {@code nextInt(min(150, open))} of
 * the current W1 order gets a new priority (the order is kept by {@link PeerData}'s stream
 * outside the timed section). Checked in order against a naive filter, sort and cut.
 */
final class W1TopOpenQuery extends QueryWorkload {
  static final String NAME = "W1";

  @Override
  String name() {
    return NAME;
  }

  @Override
  List<String> mixes() {
    return List.of("random", "edge");
  }

  @Override
  Query query(SourceCollection issues, SourceCollection users, SourceCollection projects) {
    return over(issues);
  }

  /** The query over any source with the issues' schema. */
  static Query over(dev.rivulet.query.Source issues) {
    return Query.from("i", issues)
        .where(eq(col("i.status"), lit("open")))
        .orderBy(Query.desc(col("i.priority")), Query.asc(col("i.created")))
        .limit(PeerData.LIMIT);
  }

  @Override
  boolean ordered() {
    return true;
  }

  @Override
  List<Row> naive(PeerData.Issue[] current, Tables.Data data) {
    return naiveWindow(current);
  }

  static List<Row> naiveWindow(PeerData.Issue[] current) {
    return Arrays.stream(current).filter(PeerData.Issue::isOpen).sorted(PeerData.W1_ORDER).limit(PeerData.LIMIT)
        .map(Tables::row).toList();
  }
}
