package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.count;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.gt;
import static dev.rivulet.query.Exprs.lit;
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
}
