package dev.rivulet.query;

import static dev.rivulet.query.Exprs.add;
import static dev.rivulet.query.Exprs.and;
import static dev.rivulet.query.Exprs.avg;
import static dev.rivulet.query.Exprs.coalesce;
import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.concat;
import static dev.rivulet.query.Exprs.count;
import static dev.rivulet.query.Exprs.countDistinct;
import static dev.rivulet.query.Exprs.div;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.gt;
import static dev.rivulet.query.Exprs.gte;
import static dev.rivulet.query.Exprs.ilike;
import static dev.rivulet.query.Exprs.in;
import static dev.rivulet.query.Exprs.isNotNull;
import static dev.rivulet.query.Exprs.isNull;
import static dev.rivulet.query.Exprs.length;
import static dev.rivulet.query.Exprs.like;
import static dev.rivulet.query.Exprs.lit;
import static dev.rivulet.query.Exprs.lower;
import static dev.rivulet.query.Exprs.lt;
import static dev.rivulet.query.Exprs.lte;
import static dev.rivulet.query.Exprs.max;
import static dev.rivulet.query.Exprs.min;
import static dev.rivulet.query.Exprs.mul;
import static dev.rivulet.query.Exprs.ne;
import static dev.rivulet.query.Exprs.not;
import static dev.rivulet.query.Exprs.or;
import static dev.rivulet.query.Exprs.sub;
import static dev.rivulet.query.Exprs.substring;
import static dev.rivulet.query.Exprs.sum;
import static dev.rivulet.query.Exprs.trim;
import static dev.rivulet.query.Exprs.upper;
import static dev.rivulet.query.Exprs.when;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.query.expr.ExprText;
import dev.rivulet.query.expr.Expressions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The expression-tree utilities ({@link Expressions}: conjuncts, aliases, aggregates, rewriting)
 * and the text of every kind of node ({@link ExprText}), the text error messages quote.
 */
class ExpressionsTest {
  /** One tree holding every kind of node, each reading a column of alias a. */
  private static Expr everyKind() {
    return or(
        and(eq(col("a.x"), lit(1)), ne(col("a.y"), lit("s")), not(gt(col("a.x"), col("a.y")))),
        isNull(col("a.x")), isNotNull(col("a.y")),
        in(col("a.x"), lit(1), col("a.y")),
        like(col("a.s"), lit("p%")), ilike(col("a.s"), col("a.t")),
        eq(coalesce(col("a.x"), lit(0)), when(gte(col("a.x"), lit(0)), lit(1)).otherwise(col("a.z"))),
        lt(add(col("a.x"), sub(col("a.y"), mul(lit(2), div(col("a.x"), lit(3))))), lit(9)),
        lte(length(concat(upper(col("a.s")), lower(trim(col("a.s"))), substring(col("a.s"), lit(1), lit(2)))), lit(4)),
        eq(when(isNull(col("a.w")), lit(1)).end(), lit(1)));
  }

  @Test
  void rewriteReachesEveryKindOfNode() {
    Expr renamed = Expressions.rewrite(everyKind(),
        e -> e instanceof Expr.Col c ? col("b." + c.column()) : e);
    assertThat(Expressions.aliases(renamed)).containsExactly("b");
    assertThat(Expressions.aliases(everyKind())).containsExactly("a");
    assertThat(ExprText.of(renamed)).isEqualTo(ExprText.of(everyKind()).replace("a.", "b."));
    Expr same = Expressions.rewrite(everyKind(), e -> e);
    assertThat(same).isEqualTo(everyKind());
    assertThat(Expressions.rewrite(null, e -> lit(1))).isNull();
  }

  @Test
  void rewriteReplacesASubtreeWithoutDescendingIntoIt() {
    Expr e = add(col("a.x"), mul(col("a.y"), col("a.z")));
    List<Expr> seen = new ArrayList<>();
    Expr out = Expressions.rewrite(e, x -> {
      seen.add(x);
      return x instanceof Expr.Arith a && a.op() == Expr.ArithOp.MUL ? lit(6) : x;
    });
    assertThat(out).isEqualTo(add(col("a.x"), lit(6)));
    assertThat(seen).doesNotContain(col("a.y"), col("a.z"));
  }

  @Test
  void rewriteReachesInsideAggregates() {
    Expr e = add(sum(col("a.x")), count());
    Expr out = Expressions.rewrite(e, x -> x instanceof Expr.Col ? col("b.x") : x);
    assertThat(out).isEqualTo(add(sum(col("b.x")), count()));
  }

  @Test
  void aggregatesAreFoundOnceEachInOrderNotInsideOneAnother() {
    Expr e = add(sum(col("a.x")), when(gt(max(col("a.y")), lit(1)), sum(col("a.x"))).otherwise(countDistinct(col("a.z"))));
    List<Expr.Agg> found = new ArrayList<>();
    Expressions.aggregates(e, found);
    assertThat(found).containsExactly((Expr.Agg) sum(col("a.x")), (Expr.Agg) max(col("a.y")),
        (Expr.Agg) countDistinct(col("a.z")));
    assertThat(Expressions.hasAggregate(e)).isTrue();
    assertThat(Expressions.hasAggregate(everyKind())).isFalse();
    assertThat(Expressions.hasAggregate(isNull(avg(col("a.x"))))).isTrue();
    assertThat(Expressions.hasAggregate(in(col("a.x"), min(col("a.x"))))).isTrue();
    assertThatThrownBy(() -> Expressions.rejectAggregates(not(eq(count(col("a.x")), lit(1))), "where"))
        .isInstanceOf(QueryException.class).hasMessageStartingWith("where: aggregate ")
        .hasMessageEndingWith(" is not allowed in where");
    Expressions.rejectAggregates(everyKind(), "where"); // none: no exception
  }

  @Test
  void conjunctsFlattenAndAndRebuilds() {
    Expr a = eq(col("a.x"), lit(1));
    Expr b = gt(col("a.y"), lit(2));
    Expr c = isNull(col("a.z"));
    assertThat(Expressions.conjuncts(and(a, and(b, c)))).containsExactly(a, b, c);
    assertThat(Expressions.conjuncts(or(a, b))).containsExactly(or(a, b));
    assertThat(Expressions.and(List.of(a))).isSameAs(a);
    assertThat(Expressions.and(List.of(a, b))).isEqualTo(and(a, b));
  }

  @Test
  void textOfEveryKindOfNode() {
    assertThat(ExprText.of(everyKind())).isEqualTo(
        "((a.x = 1) AND (a.y <> 's') AND (NOT (a.x > a.y))) OR (a.x IS NULL) OR (a.y IS NOT NULL)"
            + " OR (a.x IN (1, a.y)) OR (a.s LIKE 'p%') OR (a.s ILIKE a.t)"
            + " OR (coalesce(a.x, 0) = (CASE WHEN a.x >= 0 THEN 1 ELSE a.z END))"
            + " OR ((a.x + (a.y - (2 * (a.x / 3)))) < 9)"
            + " OR (length(concat(upper(a.s), lower(trim(a.s)), substring(a.s, 1, 2))) <= 4)"
            + " OR ((CASE WHEN a.w IS NULL THEN 1 END) = 1)");
    assertThat(ExprText.of(add(count(), sum(col("a.x"))))).isEqualTo("count(*) + sum(a.x)");
    assertThat(ExprText.of(countDistinct(col("a.x")))).isEqualTo("count(DISTINCT a.x)");
    assertThat(ExprText.of(null)).isEqualTo("NULL");
  }
}
