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
 * W6, the text-ordered window, written with the query builder:
 *
 * <pre>
 * SELECT * FROM issues
 * WHERE status = 'open'
 * ORDER BY title ASC, id ASC
 * LIMIT 50
 * </pre>
 *
 * <p>The titles repeat heavily (one of 8 words + {@code " in module "} + {@code id % 97}: about
 * 43 open rows per title at 100,000 rows, all sharing their first 16 characters with a
 * word's other titles), so both the string compares and the id tie-break decide the order. Mixes
 * (the peers' {@code W6 random} then {@code W6 edge}, on the same data and live query): a random
 * row gets a new title (another word, same module); an open row at position {@code nextInt(min(150,
 * open))} of the current W6 order gets a new title. Checked in order against a naive filter, sort
 * ({@link String#compareTo} on the titles, then the id) and cut.
 */
final class W6TitleWindowQuery extends QueryWorkload {
  static final String NAME = "W6";

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
    return Query.from("i", issues)
        .where(eq(col("i.status"), lit("open")))
        .orderBy(Query.asc(col("i.title")), Query.asc(col("i.id")))
        .limit(PeerData.LIMIT);
  }

  @Override
  boolean ordered() {
    return true;
  }

  @Override
  List<Row> naive(PeerData.Issue[] current, Tables.Data data) {
    return Arrays.stream(current).filter(PeerData.Issue::isOpen).sorted(PeerData.W6_ORDER).limit(PeerData.LIMIT)
        .map(Tables::row).toList();
  }
}
