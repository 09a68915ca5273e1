package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Query.as;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The naive nested evaluator on hand-computed cases, so that the oracle itself is checked. */
class IncludeNaiveTest {
  private final IncludeWorld w = new IncludeWorld(1);

  IncludeNaiveTest() {
    w.projects.beginSync().write(Row.of(1, "alpha", false)).write(Row.of(2, "beta", false)).markReady().commit();
    w.issues.beginSync()
        .write(Row.of(10, 1, "x", "open", 2, 1, null))
        .write(Row.of(11, 1, "y", "open", 5, null, null))
        .write(Row.of(12, null, "z", "open", 1, 2, null))
        .markReady().commit();
    w.comments.beginSync()
        .write(Row.of(100, 10, "first", 1, 1))
        .write(Row.of(101, 10, null, 2, 2))
        .write(Row.of(102, 10, "third", 2, 1))
        .write(Row.of(103, 11, "other", 0, 9))
        .markReady().commit();
    w.users.beginSync().write(Row.of(1, "ann")).write(Row.of(2, "bob")).markReady().commit();
  }

  private List<List<Object>> eval(Query q) {
    return new IncludeNaive(w.contents()).eval(q.raw());
  }

  private static List<Object> l(Object... xs) {
    return Arrays.asList(xs);
  }

  @Test
  void eachModePerParentWithTheEmptyValueForNoChildrenAndForANullCorrelation() {
    Query child = Query.from("c", w.comments).where(eq(col("c.issue"), col("i.id")))
        .select(as("id", col("c.id")), as("body", col("c.body")))
        .orderBy(Query.desc(col("c.created")));
    Query q = Query.from("i", w.issues).select(as("id", col("i.id")),
        Query.includeArray("all", child),
        Query.includeOne("last", child),
        Query.includeConcat("bodies", child.select(as("body", col("c.body"))), ","),
        Query.include("coll", child.limit(1)))
        .orderBy(Query.asc(col("i.id")));
    // created desc; the tie at created 2 between 101 and 102 goes to the smaller key
    List<Object> a10 = l(l(101L, null), l(102L, "third"), l(100L, "first"));
    assertThat(eval(q)).containsExactly(
        l(10L, a10, l(101L, null), "third,first", l(l(101L, null))),
        l(11L, l(l(103L, "other")), l(103L, "other"), "other", l(l(103L, "other"))),
        l(12L, l(), null, "", l()));
  }

  @Test
  void nestedDepthThreeBindsEveryEnclosingRow() {
    Query author = Query.from("u", w.users).where(eq(col("u.id"), col("c.author"))).select(as("name", col("u.name")));
    Query comments = Query.from("c", w.comments).where(eq(col("c.issue"), col("i.id")))
        .select(as("id", col("c.id")), Query.includeOne("author", author))
        .orderBy(Query.asc(col("c.id"))).limit(2);
    Query issues = Query.from("i", w.issues).where(eq(col("i.project"), col("p.id")))
        .select(as("id", col("i.id")), Query.includeArray("comments", comments));
    Query q = Query.from("p", w.projects).select(as("id", col("p.id")), Query.includeArray("issues", issues));
    List<List<Object>> got = eval(q);
    got.sort((x, y) -> Long.compare((Long) x.get(0), (Long) y.get(0)));
    assertThat(got).containsExactly(
        l(1L, l(l(10L, l(l(100L, l("ann")), l(101L, l("bob")))), l(11L, l(l(103L, null))))),
        l(2L, l()));
  }
}
