package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.lit;
import static dev.rivulet.query.Query.as;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * Malformed includes are refused, both when the query is checked ({@link Query#ir()}) and when a
 * live query is created, with a {@link QueryException} that names the include (or, for an include
 * where no include may stand, says so).
 */
class IncludeErrorsTest {
  private final IncludeWorld w = new IncludeWorld(3);

  private Query issuesWith(QueryIR.SelectItem include) {
    return Query.from("i", w.issues).select(as("id", col("i.id")), include);
  }

  private void refused(Query q, String... fragments) {
    for (Runnable r : new Runnable[] {q::ir, () -> w.db.liveQuery("bad", q)}) {
      var a = assertThatThrownBy(r::run).isInstanceOf(QueryException.class);
      for (String f : fragments) {
        a.hasMessageContaining(f);
      }
    }
  }

  @Test
  void anIncludeWithoutCorrelation() {
    refused(issuesWith(Query.includeArray("comments", Query.from("c", w.comments)
        .where(eq(col("c.body"), lit("x"))))), "include 'comments'");
    refused(issuesWith(Query.includeOne("any", Query.from("c", w.comments))), "include 'any'");
  }

  @Test
  void aCorrelationThatIsNotAnEqualityWithAChildColumn() {
    refused(issuesWith(Query.includeArray("later", Query.from("c", w.comments)
        .where(Exprs.gt(col("c.issue"), col("i.id"))))), "include 'later'");
    refused(issuesWith(Query.includeArray("orred", Query.from("c", w.comments)
        .where(Exprs.or(eq(col("c.issue"), col("i.id")), eq(col("c.author"), col("i.assignee")))))),
        "include 'orred'");
    refused(issuesWith(Query.includeArray("shifted", Query.from("c", w.comments)
        .where(eq(Exprs.add(col("c.issue"), lit(1)), col("i.id"))))), "include 'shifted'");
  }

  @Test
  void anIncludeOutsideASelectItem() {
    Expr.Include inc = new Expr.Include(Query.from("c", w.comments).where(eq(col("c.issue"), col("i.id"))).raw(),
        Expr.IncludeMode.ARRAY, null);
    refused(Query.from("i", w.issues).where(Exprs.isNotNull(inc)), "include", "select item");
    refused(Query.from("i", w.issues).select(as("id", col("i.id")), as("c", Exprs.coalesce(inc, lit("none")))),
        "include", "select item");
    refused(Query.from("i", w.issues).select(as("id", col("i.id"))).orderBy(Query.asc(inc)), "include",
        "select item");
  }

  @Test
  void anAliasReusedAcrossParentAndChild() {
    refused(issuesWith(Query.includeArray("mine", Query.from("i", w.comments).where(eq(col("i.issue"),
        col("i.id"))))), "alias 'i'", "include 'mine'");
    refused(Query.from("p", w.projects).select(as("id", col("p.id")), Query.includeArray("issues",
        Query.from("i", w.issues).where(eq(col("i.project"), col("p.id"))).select(as("id", col("i.id")),
            Query.includeOne("who", Query.from("p", w.users).where(eq(col("p.id"), col("i.assignee"))))))),
        "alias 'p'", "include 'who'");
  }

  @Test
  void aConcatenationOverAChildOfTwoColumns() {
    refused(issuesWith(Query.includeConcat("bodies", Query.from("c", w.comments)
        .where(eq(col("c.issue"), col("i.id"))).select(as("id", col("c.id")), as("body", col("c.body"))), ",")),
        "include 'bodies'");
    refused(issuesWith(Query.includeConcat("all", Query.from("c", w.comments)
        .where(eq(col("c.issue"), col("i.id"))), ",")), "include 'all'");
  }
}
