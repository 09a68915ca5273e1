package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.count;
import static dev.rivulet.query.Exprs.gt;
import static dev.rivulet.query.Exprs.lit;
import static dev.rivulet.query.Exprs.sum;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.query.sql.SqlDialect;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A limit or offset without order by is allowed where the result has at most one row (an aggregate
 * without group by) and refused elsewhere; the window agrees with SQLite and H2.
 */
class LimitOneRowTest {
  private final Rivulet db = Rivulet.create();
  private final SourceCollection issues = db.collection("issues",
      Schema.parse("id INT NOT NULL, status STRING, priority INT"), List.of("id"));

  private Query total() {
    return Query.from("i", issues).select(Query.as("n", count()), Query.as("p", sum(col("i.priority"))));
  }

  @Test
  void globalAggregateTakesLimitAndOffsetWithoutOrder() throws Exception {
    issues.beginSync().write(Row.of(1, "open", 5)).write(Row.of(2, "open", 7)).markReady().commit();
    LiveQuery limit1 = db.liveQuery("limit1", total().limit(1));
    LiveQuery limit0 = db.liveQuery("limit0", total().limit(0));
    LiveQuery offset1 = db.liveQuery("offset1", total().offset(1));
    LiveQuery firstAfterOne = db.liveQuery("findOneOffset1", total().findOne().offset(1));
    LiveQuery havingNone = db.liveQuery("having", total().having(gt(count(), lit(5))).limit(1));
    assertThat(limit1.rows()).containsExactly(Row.of(2, 12));
    assertThat(limit0.rows()).isEmpty();
    assertThat(offset1.rows()).isEmpty();
    assertThat(firstAfterOne.rows()).isEmpty();
    assertThat(havingNone.rows()).isEmpty();
    List<ChangeEvent> events = new ArrayList<>();
    limit1.subscribe(events::addAll);
    issues.beginSync().write(Row.of(3, "closed", 1)).commit();
    assertThat(limit1.rows()).containsExactly(Row.of(3, 13));
    assertThat(events).extracting(ChangeEvent::type).containsExactly(ChangeEvent.Type.UPDATE);
    assertThat(limit0.rows()).isEmpty();
    assertThat(offset1.rows()).isEmpty();

    for (SqlDialect d : SqlDialect.values()) {
      try (SqlDatabase sql = new SqlDatabase(d)) {
        sql.create("issues", issues.schema());
        sql.replace("issues", issues.rows());
        for (LiveQuery q : List.of(limit1, limit0, offset1, firstAfterOne, havingNone)) {
          String text = QuerySqlRenderer.render(q.query().raw(), d, s -> "issues");
          assertThat(sql.query(text, q.resultSchema())).as(d + ": " + text).isEqualTo(q.rows());
        }
      }
    }
  }

  @Test
  void limitWithoutOrderIsRefusedWhereSeveralRowsMayCome() {
    assertThatThrownBy(() -> Query.from("i", issues).limit(1).ir())
        .isInstanceOf(QueryException.class)
        .hasMessageContaining("limit: a limit or offset needs an order by")
        .hasMessageContaining("at most one row (an aggregate without group by)");
    assertThatThrownBy(() -> total().groupBy(col("i.status")).limit(1).ir())
        .isInstanceOf(QueryException.class)
        .hasMessageContaining("limit: a limit or offset needs an order by");
    assertThatThrownBy(() -> Query.from("i", issues).select(Query.as("s", col("i.status"))).distinct().offset(1).ir())
        .isInstanceOf(QueryException.class)
        .hasMessageContaining("limit: a limit or offset needs an order by");
  }
}
