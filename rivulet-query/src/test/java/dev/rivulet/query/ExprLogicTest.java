package dev.rivulet.query;

import static dev.rivulet.query.Exprs.and;
import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.gt;
import static dev.rivulet.query.Exprs.gte;
import static dev.rivulet.query.Exprs.in;
import static dev.rivulet.query.Exprs.inValues;
import static dev.rivulet.query.Exprs.isNotNull;
import static dev.rivulet.query.Exprs.isNull;
import static dev.rivulet.query.Exprs.lit;
import static dev.rivulet.query.Exprs.lt;
import static dev.rivulet.query.Exprs.lte;
import static dev.rivulet.query.Exprs.ne;
import static dev.rivulet.query.Exprs.not;
import static dev.rivulet.query.Exprs.or;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.query.expr.ExprCompiler;
import dev.rivulet.query.expr.ExprText;
import dev.rivulet.query.expr.Scope;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** Truth tables of SQL's three-valued logic: AND, OR, NOT, IS [NOT] NULL, IN, comparisons. */
class ExprLogicTest {
  private static final Boolean T = Boolean.TRUE;
  private static final Boolean F = Boolean.FALSE;
  private static final Boolean N = null;
  private static final Boolean[] TFN = {T, F, N};
  private static final Scope SCOPE = TestScope.of("r", "p BOOL, q BOOL, x INT, w BOOL");

  private static Object eval(Expr e, Object... row) {
    return ExprCompiler.compile(e, SCOPE).eval(Row.of(row));
  }

  private static final Expr P = col("r.p");
  private static final Expr Q = col("r.q");
  private static final Expr X = col("r.x");

  @Test
  void andTruthTable() {
    // rows: p, columns: q = T, F, N
    Boolean[][] expected = {
        {T, F, N},
        {F, F, F},
        {N, F, N},
    };
    for (int i = 0; i < 3; i++) {
      for (int j = 0; j < 3; j++) {
        assertThat(eval(and(P, Q), TFN[i], TFN[j], 0L, null)).as("%s AND %s", TFN[i], TFN[j]).isEqualTo(expected[i][j]);
      }
    }
  }

  @Test
  void orTruthTable() {
    Boolean[][] expected = {
        {T, T, T},
        {T, F, N},
        {T, N, N},
    };
    for (int i = 0; i < 3; i++) {
      for (int j = 0; j < 3; j++) {
        assertThat(eval(or(P, Q), TFN[i], TFN[j], 0L, null)).as("%s OR %s", TFN[i], TFN[j]).isEqualTo(expected[i][j]);
      }
    }
  }

  @Test
  void notAndIsNull() {
    Boolean[] not = {F, T, N};
    Boolean[] isNull = {F, F, T};
    for (int i = 0; i < 3; i++) {
      assertThat(eval(not(P), TFN[i], null, null, null)).as("NOT %s", TFN[i]).isEqualTo(not[i]);
      assertThat(eval(isNull(P), TFN[i], null, null, null)).as("%s IS NULL", TFN[i]).isEqualTo(isNull[i]);
      assertThat(eval(isNotNull(P), TFN[i], null, null, null)).as("%s IS NOT NULL", TFN[i]).isEqualTo(!isNull[i]);
    }
  }

  @Test
  void nAryJunctionsAreDecidedByTheDominantValue() {
    Expr w = col("r.w");
    // FALSE dominates AND and TRUE dominates OR wherever it appears; otherwise NULL wins over the other.
    for (Boolean a : TFN) {
      for (Boolean b : TFN) {
        for (Boolean c : TFN) {
          List<Boolean> vs = Arrays.asList(a, b, c);
          Boolean and = vs.contains(F) ? F : vs.contains(N) ? N : T;
          Boolean or = vs.contains(T) ? T : vs.contains(N) ? N : F;
          assertThat(eval(and(P, Q, w), a, b, 0L, c)).as("AND%s", vs).isEqualTo(and);
          assertThat(eval(or(P, Q, w), a, b, 0L, c)).as("OR%s", vs).isEqualTo(or);
        }
      }
    }
    assertThat(eval(new Expr.And(List.of()), null, null, null, null)).isEqualTo(T);
    assertThat(eval(new Expr.Or(List.of()), null, null, null, null)).isEqualTo(F);
  }

  @Test
  void inTruthTable() {
    Long[] xs = {1L, 3L, null};
    // x IN (1, 2): found, not found, NULL probe
    check(inValues(X, 1, 2), xs, T, F, N);
    // x IN (1, NULL): a NULL in the list turns "not found" into NULL
    check(in(X, lit(1), lit(null)), xs, T, N, N);
    // x IN (NULL)
    check(in(X, lit(null)), xs, N, N, N);
    // x IN (): FALSE, even for a NULL probe (SQLite's rule)
    check(new Expr.In(X, List.of()), xs, F, F, F);
    // non-constant list: x IN (x, NULL) and x IN (x + 1, 2)
    check(in(X, X, lit(null)), xs, T, T, N);
    check(in(X, Exprs.add(X, lit(1)), lit(2)), xs, F, F, N);
    check(in(X, Exprs.add(X, lit(1)), lit(3)), xs, F, T, N);
  }

  private static void check(Expr e, Long[] xs, Boolean... expected) {
    for (int i = 0; i < xs.length; i++) {
      assertThat(eval(e, null, null, xs[i], null)).as("%s with x = %s", ExprText.of(e), xs[i]).isEqualTo(expected[i]);
    }
  }

  @Test
  void comparisonsWithNullAreNull() {
    List<Expr> ops = List.of(eq(X, lit(1)), ne(X, lit(1)), lt(X, lit(1)), lte(X, lit(1)), gt(X, lit(1)), gte(X, lit(1)));
    List<Object> atZero = new ArrayList<>();
    for (Expr e : ops) {
      assertThat(eval(e, null, null, null, null)).as("%s with x = NULL", ExprText.of(e)).isNull();
      Expr.Compare c = (Expr.Compare) e;
      assertThat(eval(new Expr.Compare(c.op(), lit(1), X), null, null, null, null)).as("flipped %s", ExprText.of(e)).isNull();
      atZero.add(eval(e, null, null, 0L, null));
    }
    assertThat(atZero).as("0 = 1, 0 <> 1, 0 < 1, 0 <= 1, 0 > 1, 0 >= 1").containsExactly(F, T, T, T, F, F);
    assertThat(eval(eq(lit(null), lit(null)), null, null, null, null)).isNull();
  }

  @Test
  void booleansCompareFalseBeforeTrue() {
    assertThat(eval(lt(P, Q), F, T, null, null)).isEqualTo(T);
    assertThat(eval(gt(P, Q), F, T, null, null)).isEqualTo(F);
    assertThat(eval(eq(P, lit(true)), T, null, null, null)).isEqualTo(T);
  }

  @Test
  void predicateKeepsOnlyTrue() {
    Predicate<Row> p = ExprCompiler.predicate(and(P, Q), SCOPE);
    for (Boolean a : TFN) {
      for (Boolean b : TFN) {
        assertThat(p.test(Row.of(a, b, null, null))).as("%s AND %s", a, b).isEqualTo(a == T && b == T);
      }
    }
    Predicate<Row> notP = ExprCompiler.predicate(not(P), SCOPE);
    assertThat(notP.test(Row.of(null, null, null, null))).isFalse();
    assertThat(notP.test(Row.of(false, null, null, null))).isTrue();
  }
}
