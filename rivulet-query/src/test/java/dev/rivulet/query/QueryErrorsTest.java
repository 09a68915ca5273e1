package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.count;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.gt;
import static dev.rivulet.query.Exprs.lit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.Schema;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each build-time error names the clause and the column or alias at fault. */
class QueryErrorsTest {
  private final Rivulet db = Rivulet.create();
  private final SourceCollection issues = db.collection("issues",
      Schema.parse("id INT NOT NULL, status STRING, priority INT, title STRING, assignee INT"), List.of("id"));
  private final SourceCollection users = db.collection("users", Schema.parse("id INT NOT NULL, name STRING"),
      List.of("id"));

  @Test
  void unknownColumnNamesClauseAndColumn() {
    assertThatThrownBy(() -> Query.from("i", issues).where(eq(col("i.stat"), lit("open"))).ir())
        .isInstanceOf(QueryException.class)
        .hasMessageContaining("where")
        .hasMessageContaining("stat");
  }

  @Test
  void unknownAliasIsNamed() {
    assertThatThrownBy(() -> Query.from("i", issues).select(Query.as("x", col("u.name"))).ir())
        .isInstanceOf(QueryException.class)
        .hasMessageContaining("select")
        .hasMessageContaining("'u'");
  }

  @Test
  void aliasUsedTwiceInOneTree() {
    Query sub = Query.from("i", issues);
    assertThatThrownBy(() -> Query.from("i", sub).ir())
        .isInstanceOf(QueryException.class)
        .hasMessageContaining("alias 'i' is used twice");
    assertThatThrownBy(() -> Query.from("a", issues)
            .join(QueryIR.JoinKind.INNER, "a", users, Query.on("a.assignee", "a.id")).ir())
        .isInstanceOf(QueryException.class)
        .hasMessageContaining("alias 'a' is used twice");
  }

  @Test
  void limitWithoutOrder() {
    assertThatThrownBy(() -> Query.from("i", issues).limit(10).ir())
        .isInstanceOf(QueryException.class)
        .hasMessageContaining("limit")
        .hasMessageContaining("order by");
  }

  @Test
  void aggregateInWhere() {
    assertThatThrownBy(() -> Query.from("i", issues).where(gt(count(), lit(1))).ir())
        .isInstanceOf(QueryException.class)
        .hasMessageContaining("where")
        .hasMessageContaining("aggregate");
  }

  @Test
  void typeMismatchNamesClauseAndColumn() {
    assertThatThrownBy(() -> Query.from("i", issues).where(eq(col("i.title"), lit(5))).ir())
        .isInstanceOf(QueryException.class)
        .hasMessageContaining("where")
        .hasMessageContaining("i.title");
  }

  @Test
  void joinKeyTypeMismatch() {
    assertThatThrownBy(() -> Query.from("i", issues)
            .join(QueryIR.JoinKind.INNER, "u", users, Query.on("i.title", "u.id")).ir())
        .isInstanceOf(QueryException.class)
        .hasMessageContaining("join u")
        .hasMessageContaining("i.title");
  }

  @Test
  void ungroupedColumnInSelect() {
    assertThatThrownBy(() -> Query.from("i", issues).groupBy(col("i.status"))
            .select(Query.as("s", col("i.status")), Query.as("t", col("i.title"))).ir())
        .isInstanceOf(QueryException.class)
        .hasMessageContaining("select")
        .hasMessageContaining("i.title");
  }

  @Test
  void whereMustBeBoolean() {
    assertThatThrownBy(() -> Query.from("i", issues).where(col("i.priority")).ir())
        .isInstanceOf(QueryException.class)
        .hasMessageContaining("where")
        .hasMessageContaining("BOOL");
  }

  @Test
  void duplicateOutputName() {
    assertThatThrownBy(() -> Query.from("i", issues)
            .select(Query.as("x", col("i.id")), Query.as("x", col("i.title"))).ir())
        .isInstanceOf(QueryException.class)
        .hasMessageContaining("'x' appears twice");
  }

  @Test
  void joinConditionMustCompareWithEarlierRelation() {
    assertThatThrownBy(() -> Query.from("i", issues)
            .join(QueryIR.JoinKind.INNER, "u", users, Query.on("i.id", "i.assignee")).ir())
        .isInstanceOf(QueryException.class)
        .hasMessageContaining("must compare u with an earlier relation");
  }

  @Test
  void aliasMustBeAnAsciiIdentifierNotStartingWithTwoUnderscores() {
    for (String ok : List.of("i", "_", "_i2", "Issues_2024", "a1b")) {
      Query.from(ok, issues).where(eq(col(ok + ".status"), lit("open"))).ir();
    }
    for (String bad : List.of("", "1i", "i-j", "i j", "\u00e9", "i.", "__i")) {
      assertThatThrownBy(() -> Query.from(bad, issues).ir())
          .as(bad)
          .isInstanceOf(QueryException.class)
          .hasMessageContaining("alias '" + bad + "' must be an identifier");
    }
  }

  @Test
  void aNonBooleanOperandOfNotOrOrNamesItsExpression() {
    SourceCollection t = db.collection("t", Schema.parse("id INT NOT NULL, flag ANY"), List.of("id"));
    t.beginSync().write(dev.rivulet.engine.Row.of(1, 5)).markReady().commit();
    assertThatThrownBy(() -> db.liveQuery("q", Query.from("t", t).where(Exprs.or(col("t.flag"), eq(col("t.id"), lit(2))))))
        .isInstanceOf(QueryException.class)
        .hasMessageContaining("t.flag")
        .hasMessageContaining("expected a boolean, got 5");
    assertThatThrownBy(() -> db.liveQuery("q", Query.from("t", t).where(Exprs.not(col("t.flag")))))
        .isInstanceOf(QueryException.class)
        .hasMessageContaining("t.flag")
        .hasMessageContaining("expected a boolean, got 5");
  }

  @Test
  void aNonBooleanWhereOrCaseConditionIsAnErrorNotFalse() {
    // typed ANY, the condition passes the compiler; a value that is no boolean fails the query, as
    // an operand of AND, OR or NOT does, instead of rejecting the row as FALSE would
    SourceCollection t = db.collection("t", Schema.parse("id INT NOT NULL, flag ANY"), List.of("id"));
    t.beginSync().write(dev.rivulet.engine.Row.of(1, 5)).markReady().commit();
    assertThatThrownBy(() -> db.liveQuery("q", Query.from("t", t).where(col("t.flag"))))
        .isInstanceOf(QueryException.class)
        .hasMessageContaining("t.flag")
        .hasMessageContaining("expected a boolean, got 5");
    assertThatThrownBy(() -> db.liveQuery("q", Query.from("t", t)
            .select(Query.as("v", Exprs.when(col("t.flag"), lit("yes")).otherwise(lit("no"))))))
        .isInstanceOf(QueryException.class)
        .hasMessageContaining("t.flag")
        .hasMessageContaining("expected a boolean, got 5");
  }

  @Test
  void aBooleanOrNullAnyConditionStillFilters() {
    SourceCollection t = db.collection("t", Schema.parse("id INT NOT NULL, flag ANY"), List.of("id"));
    t.beginSync().write(dev.rivulet.engine.Row.of(1, true)).write(dev.rivulet.engine.Row.of(2, false))
        .write(dev.rivulet.engine.Row.of(3, null)).markReady().commit();
    LiveQuery q = db.liveQuery("q", Query.from("t", t).where(col("t.flag")).select(Query.as("id", col("t.id"))));
    assertThat(q.rows()).containsExactly(dev.rivulet.engine.Row.of(1));
  }

  @Test
  void intArithmeticMeetingAFractionOfAnAnyColumnIsAnErrorNotAFractionInAnIntColumn() {
    SourceCollection t = db.collection("t", Schema.parse("id INT NOT NULL, x ANY"), List.of("id"));
    t.beginSync().write(dev.rivulet.engine.Row.of(1, 3)).markReady().commit();
    LiveQuery q = db.liveQuery("q", Query.from("t", t).select(Query.as("v", Exprs.add(col("t.id"), col("t.x")))));
    assertThat(q.rows()).containsExactly(dev.rivulet.engine.Row.of(4)); // an integer: INT, as typed
    assertThat(q.rows().get(0).get(0)).isInstanceOf(Long.class);
    t.beginSync().write(dev.rivulet.engine.Row.of(2, 2.5)).commit();
    assertThat(q.status()).isEqualTo(Status.ERROR);
    assertThat(q.error()).isInstanceOf(QueryException.class)
        .hasMessageContaining("t.id + t.x")
        .hasMessageContaining("2.5")
        .hasMessageContaining("not an integer");
    assertThat(q.rows()).allSatisfy(r -> assertThat(r.get(0)).isInstanceOf(Long.class));
  }

  @Test
  void aSubstringStartOrLengthPastSixtyFourBitsIsBeyondTheStringNotAnError() {
    SourceCollection t = db.collection("t", Schema.parse("id INT NOT NULL, s STRING, n INT"), List.of("id"));
    java.math.BigInteger huge = java.math.BigInteger.ONE.shiftLeft(70);
    t.beginSync().write(dev.rivulet.engine.Row.of(1, "abcdef", huge)).write(dev.rivulet.engine.Row.of(2, "abcdef", huge.negate()))
        .markReady().commit();
    LiveQuery q = db.liveQuery("q", Query.from("t", t).select(Query.as("id", col("t.id")),
        Query.as("from", Exprs.substring(col("t.s"), col("t.n"), lit(100))),
        Query.as("two", Exprs.substring(col("t.s"), lit(2), col("t.n")))));
    assertThat(q.status()).isEqualTo(Status.READY);
    // as SQLite's substr reads them: past 64 bits, the nearest 64-bit integer
    assertThat(q.rows()).containsExactlyInAnyOrder(
        dev.rivulet.engine.Row.of(1, "", "bcdef"),
        dev.rivulet.engine.Row.of(2, "", "a"));
  }
}
