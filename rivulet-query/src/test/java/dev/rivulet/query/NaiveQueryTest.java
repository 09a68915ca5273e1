package dev.rivulet.query;

import static dev.rivulet.query.Exprs.avg;
import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.count;
import static dev.rivulet.query.Exprs.gt;
import static dev.rivulet.query.Exprs.lit;
import static dev.rivulet.query.Exprs.sum;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The oracle's own oracle: {@link NaiveQuery} and {@link ResultMatch} on hand-computed examples,
 * so that a divergence the suite reports is the engine's fault and not the reference's.
 */
class NaiveQueryTest {
  private final OracleWorld.Table a = new OracleWorld.Table("a", Schema.parse("id INT NOT NULL, k INT, s STRING"),
      List.of("id"));
  private final OracleWorld.Table b = new OracleWorld.Table("b", Schema.parse("id INT NOT NULL, k INT, d DOUBLE"),
      List.of("id"));
  private final Map<Source, List<Row>> data = new HashMap<>();

  private NaiveQuery.Result eval(Query q) {
    return new NaiveQuery(src -> {
      List<NaiveQuery.KRow> out = new ArrayList<>();
      for (Row r : data.getOrDefault(src, List.of())) {
        out.add(new NaiveQuery.KRow(r, Row.of(r.get(0))));
      }
      return out;
    }).eval(q.raw());
  }

  @Test
  void outerJoinsNeverMatchNullsAndNullExtendTheUnmatched() {
    data.put(a, List.of(Row.of(1, 10, "x"), Row.of(2, null, "y")));
    data.put(b, List.of(Row.of(7, 10, 0.5), Row.of(8, null, 1.5)));
    Query full = Query.from("p", a).join(QueryIR.JoinKind.FULL, "q", b, Query.on("p.k", "q.k"))
        .select(Query.as("pa", col("p.id")), Query.as("qb", col("q.id")));
    assertThat(eval(full).window()).containsExactlyInAnyOrder(
        Row.of(1, 7), Row.of(2, null), Row.of(null, 8));
    Query left = Query.from("p", a).join(QueryIR.JoinKind.LEFT, "q", b, Query.on("p.k", "q.k"));
    assertThat(eval(left).window()).containsExactlyInAnyOrder(
        Row.of(1, 10, "x", 7, 10, 0.5), Row.of(2, null, "y", null, null, null));
  }

  @Test
  void globalAggregateHasOneRowOnEmptyInput() {
    Query q = Query.from("p", a).select(Query.as("n", count()), Query.as("s", sum(col("p.k"))),
        Query.as("m", avg(col("p.k"))));
    assertThat(eval(q).window()).containsExactly(Row.of(0, null, null));
    data.put(a, List.of(Row.of(1, 1, "x"), Row.of(2, 2, "y"), Row.of(3, null, "z")));
    assertThat(eval(q).window()).containsExactly(Row.of(3, 3, 1.5));
  }

  @Test
  void groupsAreFilteredByHavingAndNullsGroupTogether() {
    data.put(a, List.of(Row.of(1, 1, "x"), Row.of(2, 1, "y"), Row.of(3, null, "z"), Row.of(4, null, "w"),
        Row.of(5, 2, "v")));
    Query q = Query.from("p", a).groupBy(col("p.k")).having(gt(count(), lit(1)))
        .select(Query.as("k", col("p.k")), Query.as("n", count()));
    assertThat(eval(q).window()).containsExactlyInAnyOrder(Row.of(1, 2), Row.of(null, 2));
  }

  @Test
  void orderPlacesNullsAsToldAndCutsTheWindow() {
    data.put(a, List.of(Row.of(1, 3, "x"), Row.of(2, null, "y"), Row.of(3, 1, "z"), Row.of(4, 2, "w")));
    Query q = Query.from("p", a).select(Query.as("id", col("p.id")))
        .orderBy(Query.nullsFirst(Query.asc(col("p.k")))).offset(1).limit(2);
    NaiveQuery.Result r = eval(q);
    assertThat(r.ordered()).isTrue();
    assertThat(r.window()).containsExactly(Row.of(3), Row.of(4));
    Query desc = Query.from("p", a).select(Query.as("id", col("p.id")))
        .orderBy(Query.nullsLast(Query.desc(col("p.k")))).limit(4);
    assertThat(eval(desc).window()).containsExactly(Row.of(1), Row.of(4), Row.of(3), Row.of(2));
  }

  @Test
  void findOneWithoutOrderTakesTheSmallestKey() {
    data.put(a, List.of(Row.of(5, 3, "x"), Row.of(2, null, "y"), Row.of(9, 1, "z")));
    assertThat(eval(Query.from("p", a).findOne()).window()).containsExactly(Row.of(2, null, "y"));
  }

  @Test
  void unionAllKeepsDuplicates() {
    data.put(a, List.of(Row.of(1, 3, "x")));
    data.put(b, List.of(Row.of(1, 3, 0.5)));
    Query q = Query.unionAll(Query.from("p", a).select(Query.as("k", col("p.k"))),
        Query.from("q", b).select(Query.as("k", col("q.k"))));
    assertThat(eval(q).window()).containsExactly(Row.of(3), Row.of(3));
  }

  @Test
  void ties_anyTieBreakIsAcceptedButNothingElse() {
    data.put(a, List.of(Row.of(1, 1, "x"), Row.of(2, 1, "y"), Row.of(3, 1, "z"), Row.of(4, 0, "w")));
    Query q = Query.from("p", a).select(Query.as("s", col("p.s"))).orderBy(Query.asc(col("p.k"))).limit(2);
    NaiveQuery.Result r = eval(q);
    assertThat(ResultMatch.mismatch(r, List.of(Row.of("w"), Row.of("y")))).isNull();
    assertThat(ResultMatch.mismatch(r, List.of(Row.of("w"), Row.of("z")))).isNull();
    assertThat(ResultMatch.mismatch(r, List.of(Row.of("x"), Row.of("w")))).contains("position 0");
    assertThat(ResultMatch.mismatch(r, List.of(Row.of("w")))).contains("expected 2 rows");
    assertThat(ResultMatch.mismatch(r, List.of(Row.of("w"), Row.of("v")))).contains("tied rows");
  }

  @Test
  void aNestedWindowThatCutsATieIsAmbiguous() {
    data.put(a, List.of(Row.of(1, 1, "x"), Row.of(2, 1, "y")));
    Query sub = Query.from("p", a).select(Query.as("s", col("p.s"))).orderBy(Query.asc(col("p.k"))).limit(1);
    assertThatThrownBy(() -> eval(Query.from("w", sub))).isInstanceOf(NaiveQuery.Ambiguous.class);
  }
}
