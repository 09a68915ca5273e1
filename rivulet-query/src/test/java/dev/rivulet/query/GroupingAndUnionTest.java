package dev.rivulet.query;

import static dev.rivulet.query.Exprs.add;
import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.count;
import static dev.rivulet.query.Exprs.countDistinct;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.gt;
import static dev.rivulet.query.Exprs.lit;
import static dev.rivulet.query.Exprs.max;
import static dev.rivulet.query.Exprs.sum;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Grouping where aggregates appear only in having or order by, count distinct, the grouping
 * errors; union all's column types, keys and errors.
 */
class GroupingAndUnionTest {
  private final Rivulet db = Rivulet.create();
  private final SourceCollection issues = db.collection("issues",
      Schema.parse("id INT NOT NULL, status STRING, priority INT, cost DOUBLE, fee DECIMAL"), List.of("id"));

  private void load() {
    issues.beginSync()
        .write(Row.of(1, "open", 5, 1.5, null))
        .write(Row.of(2, "open", 9, 2.5, null))
        .write(Row.of(3, "closed", 7, null, null))
        .write(Row.of(4, "open", 5, null, null))
        .write(Row.of(5, "new", 1, null, null))
        .markReady()
        .commit();
  }

  @Test
  void anAggregateOnlyInHavingStillGroups() {
    load();
    LiveQuery q = db.liveQuery("q", Query.from("i", issues).groupBy(col("i.status"))
        .having(gt(sum(col("i.priority")), lit(6)))
        .select(Query.as("status", col("i.status"))));
    assertThat(q.rows()).containsExactlyInAnyOrder(Row.of("open"), Row.of("closed"));
    issues.beginSync().write(Row.of(6, "new", 8, null, null)).commit();
    assertThat(q.rows()).containsExactlyInAnyOrder(Row.of("open"), Row.of("closed"), Row.of("new"));
  }

  @Test
  void havingWithoutGroupByMakesOneGlobalGroup() {
    load();
    LiveQuery q = db.liveQuery("q", Query.from("i", issues).having(gt(count(), lit(5)))
        .select(Query.as("one", lit(1))));
    assertThat(q.rows()).isEmpty();
    issues.beginSync().write(Row.of(6, "new", 8, null, null)).commit();
    assertThat(q.rows()).containsExactly(Row.of(1));
  }

  @Test
  void anAggregateOnlyInOrderByStillGroups() {
    load();
    LiveQuery q = db.liveQuery("q", Query.from("i", issues).groupBy(col("i.status"))
        .select(Query.as("status", col("i.status")))
        .orderBy(Query.desc(max(col("i.priority")))));
    assertThat(q.rows()).containsExactly(Row.of("open"), Row.of("closed"), Row.of("new"));
  }

  @Test
  void countDistinctInAQuery() {
    load();
    LiveQuery q = db.liveQuery("q", Query.from("i", issues).groupBy(col("i.status"))
        .select(Query.as("status", col("i.status")), Query.as("n", countDistinct(col("i.priority"))),
            Query.as("c", count(col("i.cost")))));
    assertThat(q.rows()).containsExactlyInAnyOrder(Row.of("open", 2, 2), Row.of("closed", 1, 0), Row.of("new", 1, 0));
  }

  @Test
  void groupingErrorsNameTheClause() {
    assertThatThrownBy(() -> db.liveQuery("a", Query.from("i", issues).groupBy(count())
        .select(Query.as("n", count()))))
        .isInstanceOf(QueryException.class).hasMessageContaining("group by");
    assertThatThrownBy(() -> db.liveQuery("b", Query.from("i", issues)
        .select(Query.as("n", sum(count())))))
        .isInstanceOf(QueryException.class).hasMessageContaining("not allowed in aggregate");
    assertThatThrownBy(() -> db.liveQuery("c", Query.from("i", issues)
        .select(Query.as("n", new Expr.Agg(Expr.AggFn.SUM, col("i.priority"), true)))))
        .isInstanceOf(QueryException.class).hasMessageContaining("DISTINCT is only allowed in count");
    assertThatThrownBy(() -> db.liveQuery("d", Query.from("i", issues).groupBy(col("i.status"))
        .select(Query.as("p", add(col("i.priority"), lit(1))))))
        .isInstanceOf(QueryException.class).hasMessageContaining("i.priority")
        .hasMessageContaining("must appear in group by or be used in an aggregate");
  }

  @Test
  void unionAllWidensNumericColumnsAndKeepsPartsApart() {
    load();
    Query ints = Query.from("a", issues).where(eq(col("a.status"), lit("open")))
        .select(Query.as("id", col("a.id")), Query.as("v", col("a.priority")));
    Query doubles = Query.from("b", issues).where(eq(col("b.id"), lit(1)))
        .select(Query.as("id", col("b.id")), Query.as("v", col("b.cost")));
    Query decimals = Query.from("c", issues).where(eq(col("c.id"), lit(2)))
        .select(Query.as("id", col("c.id")), Query.as("v", col("c.fee")));
    LiveQuery two = db.liveQuery("two", Query.unionAll(ints, doubles));
    assertThat(two.resultSchema().column(1).type()).isEqualTo(ColumnType.DOUBLE);
    assertThat(two.rows()).containsExactlyInAnyOrder(Row.of(1, 5), Row.of(2, 9), Row.of(4, 5), Row.of(1, 1.5));
    LiveQuery three = db.liveQuery("three", Query.unionAll(doubles, ints, decimals));
    assertThat(three.resultSchema().column(1).type()).isEqualTo(ColumnType.DECIMAL);
    assertThat(three.resultSchema().names()).containsExactly("id", "v");
    assertThat(three.rows()).hasSize(5);
  }

  @Test
  void unionAllPadsNarrowerPartKeys() {
    load();
    // Part 1 is keyed by id; part 2 by (status, priority): keys of width 1 and 2.
    Query byId = Query.from("a", issues).where(eq(col("a.id"), lit(5)))
        .select(Query.as("s", col("a.status")), Query.as("p", col("a.priority")));
    Query grouped = Query.from("b", issues).groupBy(col("b.status"), col("b.priority"))
        .select(Query.as("s", col("b.status")), Query.as("p", col("b.priority")));
    LiveQuery u = db.liveQuery("u", Query.unionAll(byId, grouped));
    assertThat(u.rows()).containsExactlyInAnyOrder(Row.of("new", 1), Row.of("new", 1), Row.of("open", 5),
        Row.of("open", 9), Row.of("closed", 7));
    issues.beginSync().delete(Row.of(5)).commit();
    assertThat(u.rows()).containsExactlyInAnyOrder(Row.of("open", 5), Row.of("open", 9), Row.of("closed", 7));
  }

  @Test
  void unionAllErrors() {
    Query two = Query.from("a", issues).select(Query.as("id", col("a.id")), Query.as("s", col("a.status")));
    Query one = Query.from("b", issues).select(Query.as("id", col("b.id")));
    Query swapped = Query.from("c", issues).select(Query.as("s", col("c.status")), Query.as("id", col("c.id")));
    assertThatThrownBy(() -> db.liveQuery("w", Query.unionAll(two, one))).isInstanceOf(QueryException.class)
        .hasMessageContaining("union all: part 2 has 1 columns but part 1 has 2");
    assertThatThrownBy(() -> db.liveQuery("t", Query.unionAll(two, swapped))).isInstanceOf(QueryException.class)
        .hasMessageContaining("union all: column id is INT in part 1 but STRING in part 2");
  }
}
