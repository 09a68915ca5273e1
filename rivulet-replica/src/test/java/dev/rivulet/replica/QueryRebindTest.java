package dev.rivulet.replica;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.count;
import static dev.rivulet.query.Exprs.gt;
import static dev.rivulet.query.Exprs.lit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.query.Query;
import dev.rivulet.query.QueryException;
import dev.rivulet.query.QueryIR;
import dev.rivulet.query.Rivulet;
import dev.rivulet.query.Source;
import dev.rivulet.query.SourceCollection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Rebinding a query's sources: every clause survives (joins, subqueries, unions, grouping,
 * distinct, limit and offset, includes), so the rebound query over a copy of the data has the
 * same result; queries that do not read a replaced source are left alone.
 */
class QueryRebindTest {
  private final Rivulet db = Rivulet.create();
  private final Schema items = Schema.parse("id INT NOT NULL, grp INT, v INT");

  private SourceCollection items(String name) {
    SourceCollection c = db.collection(name, items, List.of("id"));
    var batch = c.beginSync();
    for (int i = 1; i <= 12; i++) {
      batch.write(Row.of(i, i % 3, i * 7 % 10));
    }
    batch.markReady().commit();
    return c;
  }

  @Test
  void everyClauseSurvivesARebind() {
    SourceCollection a = items("a");
    SourceCollection b = items("b");
    SourceCollection copy = items("a2");
    List<Query> queries = List.of(
        Query.from("x", a).innerJoin("y", b, Query.on("x.grp", "y.id"))
            .select(Query.as("id", col("x.id")), Query.as("w", col("y.v"))).where(gt(col("x.v"), lit(2))),
        Query.from("s", Query.from("x", a).where(gt(col("x.v"), lit(3)))).groupBy(col("s.grp"))
            .having(gt(count(), lit(1))).select(Query.as("grp", col("s.grp")), Query.as("n", count())),
        Query.unionAll(Query.from("x", a).select(Query.as("v", col("x.v"))),
            Query.from("z", b).select(Query.as("v", col("z.v")))),
        Query.from("x", a).select(Query.as("grp", col("x.grp"))).distinct(),
        Query.from("x", a).orderBy(Query.desc(col("x.v")), Query.asc(col("x.id"))).limit(4).offset(2),
        Query.from("x", a).orderBy(Query.asc(col("x.v"))).findOne(),
        Query.from("g", b).select(Query.as("id", col("g.id")), Query.includeArray("vs",
            Query.from("x", a).where(dev.rivulet.query.Exprs.eq(col("x.grp"), col("g.grp")))
                .select(Query.as("v", col("x.v"))))));
    for (Query q : queries) {
      Map<Source, Source> replaced = new IdentityHashMap<>();
      replaced.put(a, copy);
      Query rebound = QueryRebind.rebind(q, replaced);
      assertThat(sources(rebound.raw())).as(q.toString()).doesNotContain(a).contains(copy);
      List<Row> original = db.liveQuery("original", q).rows();
      assertThat(original).as(q.toString()).isNotEmpty();
      assertThat(db.liveQuery("rebound", rebound).rows()).as(q.toString()).containsExactlyInAnyOrderElementsOf(original);
    }
  }

  @Test
  void aQueryThatReadsNoReplacedSourceIsLeftAloneAndAGoneSourceIsNamed() {
    SourceCollection a = items("a");
    SourceCollection b = items("b");
    Map<Source, Source> gone = new HashMap<>();
    gone.put(a, null);
    assertThat(QueryRebind.rebind(Query.from("y", b), gone)).isNull();
    assertThatThrownBy(() -> QueryRebind.rebind(Query.from("y", b).innerJoin("x", a, Query.on("y.id", "x.id")), gone))
        .isInstanceOf(QueryException.class).hasMessageContaining("'a'");
  }

  /** The sources a query's IR reads (its tables, subqueries' and includes'). */
  private static List<Source> sources(QueryIR ir) {
    java.util.ArrayList<Source> out = new java.util.ArrayList<>();
    collect(ir, out);
    return out;
  }

  private static void collect(QueryIR ir, List<Source> out) {
    if (ir instanceof QueryIR.UnionAll u) {
      u.parts().forEach(p -> collect(p, out));
      return;
    }
    QueryIR.Select s = (QueryIR.Select) ir;
    relation(s.from().relation(), out);
    s.joins().forEach(j -> relation(j.relation().relation(), out));
    for (QueryIR.SelectItem item : s.select()) {
      if (item.expr() instanceof dev.rivulet.query.Expr.Include inc) {
        collect(inc.query(), out);
      }
    }
  }

  private static void relation(QueryIR.Relation r, List<Source> out) {
    if (r instanceof QueryIR.Table t) {
      out.add(t.source());
    } else {
      collect(((QueryIR.Subquery) r).query(), out);
    }
  }
}
