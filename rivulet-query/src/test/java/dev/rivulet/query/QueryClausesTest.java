package dev.rivulet.query;

import static dev.rivulet.query.Exprs.add;
import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.isNull;
import static dev.rivulet.query.Exprs.lit;
import static dev.rivulet.query.Exprs.mul;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Clauses by example: conditions must be boolean, a condition over a full join's either side
 * stays above the join, findOne without an order takes the smallest key, and order-by
 * expressions in or out of the select list.
 */
class QueryClausesTest {
  private final Rivulet db = Rivulet.create();
  private final SourceCollection left = db.collection("left", Schema.parse("id INT NOT NULL, v INT"), List.of("id"));
  private final SourceCollection right = db.collection("right", Schema.parse("id INT NOT NULL, w INT"), List.of("id"));

  private void load() {
    left.beginSync().write(Row.of(1, 10)).write(Row.of(2, 20)).write(Row.of(3, null)).markReady().commit();
    right.beginSync().write(Row.of(2, 200)).write(Row.of(4, 400)).markReady().commit();
  }

  @Test
  void conditionsMustBeBoolean() {
    assertThatThrownBy(() -> db.liveQuery("w", Query.from("l", left).where(col("l.v"))))
        .isInstanceOf(QueryException.class).hasMessageContaining("where").hasMessageContaining("not BOOL");
    assertThatThrownBy(() -> db.liveQuery("j", Query.from("l", left)
        .join(QueryIR.JoinKind.INNER, "r", right, Query.on("l.id", "r.id")).where(add(col("l.v"), col("r.w")))))
        .isInstanceOf(QueryException.class).hasMessageContaining("not BOOL");
  }

  @Test
  void conditionsOnEitherSideOfAFullJoinApplyAfterIt() {
    load();
    LiveQuery onlyRight = db.liveQuery("onlyRight", Query.from("l", left)
        .join(QueryIR.JoinKind.FULL, "r", right, Query.on("l.id", "r.id"))
        .where(isNull(col("l.id")))
        .select(Query.as("rid", col("r.id"))));
    assertThat(onlyRight.rows()).containsExactly(Row.of(4));
    LiveQuery onlyLeft = db.liveQuery("onlyLeft", Query.from("l", left)
        .join(QueryIR.JoinKind.FULL, "r", right, Query.on("l.id", "r.id"))
        .where(isNull(col("r.id")))
        .select(Query.as("lid", col("l.id"))));
    assertThat(onlyLeft.rows()).containsExactlyInAnyOrder(Row.of(1), Row.of(3));
    right.beginSync().write(Row.of(1, 100)).commit();
    assertThat(onlyLeft.rows()).containsExactly(Row.of(3));
    LiveQuery both = db.liveQuery("both", Query.from("l", left)
        .join(QueryIR.JoinKind.FULL, "r", right, Query.on("l.id", "r.id"))
        .where(eq(col("l.v"), lit(20))));
    assertThat(both.rows()).containsExactly(Row.of(2, 20, 2, 200));
  }

  @Test
  void findOneWithoutAnOrderTakesTheSmallestKey() {
    load();
    LiveQuery one = db.liveQuery("one", Query.from("r", right).findOne());
    assertThat(one.rows()).containsExactly(Row.of(2, 200));
    right.beginSync().write(Row.of(0, 5)).commit();
    assertThat(one.rows()).containsExactly(Row.of(0, 5));
    LiveQuery byV = db.liveQuery("byV", Query.from("l", left).orderBy(Query.desc(col("l.v"))).findOne());
    assertThat(byV.rows()).as("NULL first in descending order").containsExactly(Row.of(3, null));
  }

  @Test
  void orderByExpressionsInAndOutOfTheSelectList() {
    load();
    LiveQuery hidden = db.liveQuery("hidden", Query.from("l", left).where(eq(isNull(col("l.v")), lit(false)))
        .select(Query.as("id", col("l.id")))
        .orderBy(Query.desc(mul(col("l.v"), lit(-1)))));
    assertThat(hidden.rows()).containsExactly(Row.of(1), Row.of(2));
    LiveQuery shown = db.liveQuery("shown", Query.from("l", left)
        .select(Query.as("id", col("l.id")), Query.as("twice", mul(col("l.v"), lit(2))))
        .orderBy(Query.nullsFirst(Query.asc(mul(col("l.v"), lit(2))))));
    assertThat(shown.rows()).containsExactly(Row.of(3, null), Row.of(1, 20), Row.of(2, 40));
  }

  @Test
  void findOneOverAJoinOrdersByEveryRelationsKey() {
    SourceCollection names = db.collection("names", Schema.parse("code STRING NOT NULL, owner INT"), List.of("code"));
    names.beginSync().write(Row.of("zed", 2)).write(Row.of("amy", 2)).write(Row.of("bob", 1)).markReady().commit();
    load();
    // Keys (l.id INT, n.code STRING): the first row is the smallest id, then the smallest code.
    LiveQuery first = db.liveQuery("first", Query.from("l", left)
        .join(QueryIR.JoinKind.INNER, "n", names, Query.on("l.id", "n.owner"))
        .select(Query.as("id", col("l.id")), Query.as("code", col("n.code"))).findOne());
    assertThat(first.rows()).containsExactly(Row.of(1, "bob"));
    names.beginSync().delete(Row.of("bob")).commit();
    assertThat(first.rows()).containsExactly(Row.of(2, "amy"));
  }
}
