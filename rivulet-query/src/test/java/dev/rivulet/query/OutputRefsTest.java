package dev.rivulet.query;

import static dev.rivulet.query.Exprs.add;
import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.count;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.gt;
import static dev.rivulet.query.Exprs.lit;
import static dev.rivulet.query.Exprs.mul;
import static dev.rivulet.query.Exprs.output;
import static dev.rivulet.query.Exprs.sum;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.query.sql.SqlDialect;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Order by and having may name a select column by output name or position where SQL allows it, so
 * expressions need not be repeated (under DISTINCT, the order must be in the select list, as SQL
 * says); each result is checked against SQLite and H2 running the same query with SQL's own
 * aliases and positions. Misuse gets errors that say what is allowed.
 */
class OutputRefsTest {
  private final Rivulet db = Rivulet.create();
  private final SourceCollection issues = db.collection("issues",
      Schema.parse("id INT NOT NULL, status STRING, priority INT, owner INT"), List.of("id"));

  private void load() {
    issues.beginSync()
        .write(Row.of(1, "open", 5, 7))
        .write(Row.of(2, "open", 9, 7))
        .write(Row.of(3, "closed", 7, 8))
        .write(Row.of(4, "open", 1, 8))
        .write(Row.of(5, "open", 3, 9))
        .markReady()
        .commit();
  }

  /** The rows of {@code sql} (with SQL's own aliases and positions) in both engines equal {@code q}'s. */
  private void sameAsSql(LiveQuery q, String sql) throws Exception {
    for (SqlDialect d : SqlDialect.values()) {
      try (SqlDatabase db = new SqlDatabase(d)) {
        db.create("issues", issues.schema());
        db.replace("issues", issues.rows());
        assertThat(db.query(sql, q.resultSchema())).as(d + ": " + sql).isEqualTo(q.rows());
      }
    }
  }

  @Test
  void orderByOutputNameAndPosition() throws Exception {
    load();
    Query base = Query.from("i", issues)
        .where(eq(col("i.status"), lit("open")))
        .select(Query.as("id", col("i.id")), Query.as("score", mul(col("i.priority"), lit(2))));
    LiveQuery byName = db.liveQuery("byName", base.orderBy(Query.desc("score")).limit(3));
    LiveQuery byPosition = db.liveQuery("byPosition", base.orderBy(Query.desc(2)).limit(3));
    assertThat(byName.rows()).containsExactly(Row.of(2, 18), Row.of(1, 10), Row.of(5, 6));
    assertThat(byPosition.rows()).isEqualTo(byName.rows());
    String sql = "SELECT \"i\".\"id\" AS id, \"i\".\"priority\" * 2 AS score FROM \"issues\" AS \"i\""
        + " WHERE \"i\".\"status\" = 'open' ORDER BY %s DESC LIMIT 3";
    sameAsSql(byName, String.format(sql, "score"));
    sameAsSql(byPosition, String.format(sql, "2"));
    // the window follows changes of the named column
    issues.beginSync().write(Row.of(4, "open", 20, 8)).commit();
    assertThat(byName.rows()).containsExactly(Row.of(4, 40), Row.of(2, 18), Row.of(1, 10));
    assertThat(byPosition.rows()).isEqualTo(byName.rows());
  }

  @Test
  void aSelectAllBlockIsOrderedByTheNamesItShows() {
    load();
    // One relation shows "priority"; two show "i.priority" and "j.priority".
    LiveQuery one = db.liveQuery("one", Query.from("i", issues).orderBy(Query.desc("priority")).limit(2));
    assertThat(one.rows()).containsExactly(Row.of(2, "open", 9, 7), Row.of(3, "closed", 7, 8));
    LiveQuery two = db.liveQuery("two", Query.from("i", issues).innerJoin("j", issues, Query.on("i.id", "j.id"))
        .orderBy(Query.asc("j.priority")).limit(1));
    assertThat(two.rows()).containsExactly(Row.of(4, "open", 1, 8, 4, "open", 1, 8));
    assertThatThrownBy(() -> Query.from("i", issues).orderBy(Query.asc("i.priority")).ir())
        .isInstanceOf(QueryException.class).hasMessageContaining("names no column of the select list");
    assertThatThrownBy(() -> Query.from("i", issues).innerJoin("j", issues, Query.on("i.id", "j.id"))
        .orderBy(Query.asc("priority")).ir())
        .isInstanceOf(QueryException.class).hasMessageContaining("names no column of the select list");
  }

  @Test
  void havingAndOrderByNameAnAggregate() throws Exception {
    load();
    LiveQuery q = db.liveQuery("owners", Query.from("i", issues)
        .groupBy(col("i.owner"))
        .select(Query.as("owner", col("i.owner")), Query.as("n", count()), Query.as("total", sum(col("i.priority"))))
        .having(gt(add(output("n"), lit(0)), lit(1)))
        .orderBy(Query.desc("total"), Query.asc(1)));
    assertThat(q.rows()).containsExactly(Row.of(7, 2, 14), Row.of(8, 2, 8));
    sameAsSql(q, "SELECT \"i\".\"owner\" AS owner, COUNT(*) AS n, SUM(\"i\".\"priority\") AS total"
        + " FROM \"issues\" AS \"i\" GROUP BY \"i\".\"owner\" HAVING n + 0 > 1 ORDER BY total DESC, 1 ASC");
  }

  @Test
  void distinctOrdersByItsOwnColumns() throws Exception {
    load();
    LiveQuery byName = db.liveQuery("statuses", Query.from("i", issues)
        .select(Query.as("s", col("i.status"))).distinct().orderBy(Query.desc("s")));
    assertThat(byName.rows()).containsExactly(Row.of("open"), Row.of("closed"));
    sameAsSql(byName, "SELECT DISTINCT \"i\".\"status\" AS s FROM \"issues\" AS \"i\" ORDER BY s DESC");
    // a select-all block under distinct shows every column, so it may order by any of them
    LiveQuery all = db.liveQuery("all", Query.from("i", issues).distinct().orderBy(Query.desc(col("i.priority")))
        .limit(2));
    assertThat(all.rows()).containsExactly(Row.of(2, "open", 9, 7), Row.of(3, "closed", 7, 8));
    LiveQuery allByName = db.liveQuery("allByName", Query.from("i", issues).distinct().orderBy(Query.desc("priority"))
        .limit(2));
    assertThat(allByName.rows()).isEqualTo(all.rows());
    sameAsSql(all, "SELECT DISTINCT * FROM \"issues\" ORDER BY 3 DESC LIMIT 2");
    // SQL refuses an order outside the select list of a distinct block, and so do we
    assertThatThrownBy(() -> Query.from("i", issues).select(Query.as("s", col("i.status"))).distinct()
            .orderBy(Query.asc(col("i.priority"))).ir())
        .isInstanceOf(QueryException.class)
        .hasMessage("order by: with distinct, i.priority must be a column of the select list [s] (as SQL requires);"
            + " name it by output name or position, e.g. Query.asc(\"s\") or Query.asc(1)");
  }

  @Test
  void misuseSaysWhatIsAllowed() {
    Query q = Query.from("i", issues).select(Query.as("id", col("i.id")), Query.as("p", col("i.priority")));
    assertThatThrownBy(() -> col("priority"))
        .isInstanceOf(QueryException.class)
        .hasMessage("column reference 'priority' needs the alias of its relation, as alias.column (e.g. i.status,"
            + " where i is the alias given in from or join); a column of the select list is named with"
            + " output(\"priority\") (or output(position)) in order by and having");
    assertThatThrownBy(() -> q.orderBy(Query.asc("x")).ir())
        .isInstanceOf(QueryException.class)
        .hasMessage("order by: output(\"x\") names no column of the select list; its columns are [id, p]");
    assertThatThrownBy(() -> q.orderBy(Query.asc(3)).ir())
        .isInstanceOf(QueryException.class)
        .hasMessage("order by: output position 3 is out of range; the select list has 2 columns [id, p]");
    assertThatThrownBy(() -> q.orderBy(Query.asc(add(output(2), lit(1)))).ir())
        .isInstanceOf(QueryException.class)
        .hasMessageStartingWith("order by: output(2): an output position names a column only as a whole order-by item")
        .hasMessageEndingWith("name the column (output(\"p\"))");
    assertThatThrownBy(() -> q.where(gt(output("p"), lit(1))).ir())
        .isInstanceOf(QueryException.class)
        .hasMessageStartingWith("where: output(\"p\") names a column of the select list, which can be named only in"
            + " order by and having");
    assertThatThrownBy(() -> Query.from("i", issues).select(Query.as("x", output("id"))).ir())
        .isInstanceOf(QueryException.class)
        .hasMessageStartingWith("select x: output(\"id\") names a column of the select list");
    assertThatThrownBy(() -> Query.asc(0))
        .isInstanceOf(QueryException.class)
        .hasMessage("an output column is named either by name or by a position from 1, not position 0");
  }
}
