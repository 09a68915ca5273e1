package dev.rivulet.query;

import static dev.rivulet.query.Exprs.add;
import static dev.rivulet.query.Exprs.coalesce;
import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.concat;
import static dev.rivulet.query.Exprs.div;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.gt;
import static dev.rivulet.query.Exprs.ilike;
import static dev.rivulet.query.Exprs.length;
import static dev.rivulet.query.Exprs.like;
import static dev.rivulet.query.Exprs.lit;
import static dev.rivulet.query.Exprs.lower;
import static dev.rivulet.query.Exprs.mul;
import static dev.rivulet.query.Exprs.sub;
import static dev.rivulet.query.Exprs.substring;
import static dev.rivulet.query.Exprs.trim;
import static dev.rivulet.query.Exprs.upper;
import static dev.rivulet.query.Exprs.when;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Values;
import dev.rivulet.query.expr.ExprCompiler;
import dev.rivulet.query.expr.ExprText;
import dev.rivulet.query.expr.Scope;
import dev.rivulet.query.expr.StringFunctions;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Examples of the evaluator's semantics: arithmetic, LIKE, string functions, COALESCE, CASE. */
class ExprSemanticsTest {
  private static final Scope SCOPE = TestScope.of("r", "i INT, j INT, d DOUBLE, m DECIMAL, s STRING, t STRING, b BOOL, a ANY");
  private static final Expr I = col("r.i");
  private static final Expr J = col("r.j");
  private static final Expr D = col("r.d");
  private static final Expr M = col("r.m");
  private static final Expr S = col("r.s");
  private static final Expr T = col("r.t");
  private static final Expr B = col("r.b");
  private static final Expr A = col("r.a");

  /** Evaluates {@code e} over a row with i, j, d, m, s, t set as given (b and a NULL). */
  private static Object eval(Expr e, Object i, Object j, Object d, Object m, Object s, Object t) {
    return ExprCompiler.compile(e, SCOPE).eval(Row.of(i, j, d, m, s, t, null, null));
  }

  private static Object ints(Expr e, long i, long j) {
    return eval(e, i, j, null, null, null, null);
  }

  private static Object str(Expr e, String s) {
    return eval(e, null, null, null, null, s, null);
  }

  private static Object dec(String s) {
    return Values.canonical(new BigDecimal(s));
  }

  @Test
  void integerArithmeticIsExactAndWidensOnOverflow() {
    assertThat(ints(add(I, J), 2, 3)).isEqualTo(5L);
    assertThat(ints(sub(I, J), 2, 3)).isEqualTo(-1L);
    assertThat(ints(mul(I, J), -4, 3)).isEqualTo(-12L);
    // 2^63 is exactly a double, so its canonical form is a Double; 2^63 + 1 is not, so it stays decimal.
    assertThat(ints(add(I, J), Long.MAX_VALUE, 1)).isEqualTo(dec("9223372036854775808")).isInstanceOf(Double.class);
    assertThat(ints(add(I, J), Long.MAX_VALUE, 2)).isEqualTo(new BigDecimal("9223372036854775809"));
    assertThat(ints(sub(I, J), Long.MIN_VALUE, 1)).isEqualTo(new BigDecimal("-9223372036854775809"));
    assertThat(ints(mul(I, J), 3037000500L, 3037000500L)).isEqualTo(dec("9223372037000250000"));
    assertThat(ints(div(I, J), Long.MIN_VALUE, -1)).isEqualTo(dec("9223372036854775808"));
    // an overflowed value keeps being exact, and comes back to a Long when it fits again
    assertThat(ints(sub(add(I, J), J), Long.MAX_VALUE, 10)).isEqualTo(Long.MAX_VALUE);
    assertThat(ints(div(mul(I, J), J), Long.MAX_VALUE, 10)).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void integerDivisionTruncatesTowardZero() {
    assertThat(ints(div(I, J), 7, 2)).isEqualTo(3L);
    assertThat(ints(div(I, J), -7, 2)).isEqualTo(-3L);
    assertThat(ints(div(I, J), 7, -2)).isEqualTo(-3L);
    assertThat(ints(div(I, J), -7, -2)).isEqualTo(3L);
    assertThat(ints(div(I, J), 1, 3)).isEqualTo(0L);
  }

  @Test
  void divisionByZeroIsNull() {
    assertThat(ints(div(I, J), 7, 0)).isNull();
    assertThat(eval(div(D, J), null, 0L, 7.5, null, null, null)).isNull();
    assertThat(eval(div(D, D), null, null, 0.0, null, null, null)).isNull();
    assertThat(eval(div(M, J), null, 0L, null, dec("1.1"), null, null)).isNull();
    assertThat(eval(div(I, M), 1L, null, null, 0L, null, null)).isNull();
  }

  @Test
  void mixedTypesWidenIntDoubleDecimal() {
    assertThat(eval(add(I, D), 1L, null, 0.5, null, null, null)).isEqualTo(1.5);
    // the static type decides: a DOUBLE column holding 5 (canonical Long 5) divides as a double
    assertThat(eval(div(D, J), null, 2L, 5.0, null, null, null)).isEqualTo(2.5);
    assertThat(eval(div(I, D), 1L, null, 3L, null, null, null)).isEqualTo(1.0 / 3);
    assertThat(eval(add(D, D), null, null, 0.1, null, null, null)).isEqualTo(0.2);
    assertThat(eval(add(D, lit(0.2)), null, null, 0.1, null, null, null)).isEqualTo(0.1 + 0.2);
    // decimals are exact
    assertThat(eval(add(M, lit(new BigDecimal("0.2"))), null, null, null, dec("0.1"), null, null)).isEqualTo(dec("0.3"));
    assertThat(eval(div(M, J), null, 3L, null, 1L, null, null)).isEqualTo(new BigDecimal("0.3333333333333333333333333333333333"));
    assertThat(eval(div(M, J), null, 3L, null, 2L, null, null)).isEqualTo(new BigDecimal("0.6666666666666666666666666666666667"));
    assertThat(eval(div(I, M), 7L, null, null, dec("2.5"), null, null)).isEqualTo(new BigDecimal("2.8"));
    // a double meeting a decimal converts exactly
    assertThat(eval(add(D, M), null, null, 0.1, 1L, null, null))
        .isEqualTo(new BigDecimal("1.1000000000000000055511151231257827021181583404541015625"));
    // results are canonical: 0.5 * 4 is the Long 2, 1.10 - 0.1 is the Long 1
    assertThat(eval(mul(D, J), null, 4L, 0.5, null, null, null)).isEqualTo(2L);
    assertThat(eval(sub(M, lit(new BigDecimal("0.1"))), null, null, null, dec("1.10"), null, null)).isEqualTo(1L);
  }

  @Test
  void nullPropagatesThroughArithmetic() {
    assertThat(eval(add(I, J), null, 1L, null, null, null, null)).isNull();
    assertThat(eval(mul(D, J), null, null, 1.5, null, null, null)).isNull();
    assertThat(eval(add(lit(null), lit(1)), null, null, null, null, null, null)).isNull();
    assertThat(eval(div(lit(null), lit(null)), null, null, null, null, null, null)).isNull();
  }

  @Test
  void anyTypedArithmeticFollowsTheRuntimeKinds() {
    Expr e = add(A, A);
    assertThat(ExprCompiler.compile(e, SCOPE).eval(Row.of(null, null, null, null, null, null, null, 3L))).isEqualTo(6L);
    assertThat(ExprCompiler.compile(div(A, A), SCOPE).eval(Row.of(null, null, null, null, null, null, null, 1.5)))
        .isEqualTo(1L);
    assertThatThrownBy(() -> ExprCompiler.compile(e, SCOPE).eval(Row.of(null, null, null, null, null, null, null, "x")))
        .isInstanceOf(QueryException.class)
        .hasMessageContaining("arithmetic needs numbers")
        .hasMessageContaining("'x'");
  }

  @Test
  void likeIsCaseSensitiveWithPercentAndUnderscore() {
    assertThat(str(like(S, lit("ab%")), "abc")).isEqualTo(true);
    assertThat(str(like(S, lit("ab%")), "Abc")).isEqualTo(false);
    assertThat(str(like(S, lit("%")), "")).isEqualTo(true);
    assertThat(str(like(S, lit("_")), "")).isEqualTo(false);
    assertThat(str(like(S, lit("a_c")), "abc")).isEqualTo(true);
    assertThat(str(like(S, lit("a_c")), "ac")).isEqualTo(false);
    assertThat(str(like(S, lit("%b%")), "abc")).isEqualTo(true);
    assertThat(str(like(S, lit("%c")), "abc")).isEqualTo(true);
    assertThat(str(like(S, lit("a%b%c")), "aXbYbZc")).isEqualTo(true);
    assertThat(str(like(S, lit("a%b_c")), "abXbc")).isEqualTo(false);
    assertThat(str(like(S, lit("a%%_")), "ab")).isEqualTo(true);
    // no escape character, and regex or GLOB metacharacters are plain characters
    assertThat(str(like(S, lit("a\\%")), "a\\xyz")).isEqualTo(true);
    assertThat(str(like(S, lit("a\\_")), "a_")).isEqualTo(false);
    assertThat(str(like(S, lit(".*[a]?")), ".*[a]?")).isEqualTo(true);
    assertThat(str(like(S, lit(".*")), "abc")).isEqualTo(false);
    // '_' is one code point, also beyond U+FFFF
    assertThat(str(like(S, lit("a_b")), "a😀b")).isEqualTo(true);
    assertThat(str(like(S, lit("a__b")), "a😀b")).isEqualTo(false);
    assertThat(str(like(S, lit("%😀")), "x😀")).isEqualTo(true);
    // NULL on either side
    assertThat(str(like(S, lit("%")), null)).isNull();
    assertThat(str(like(S, lit(null)), "a")).isNull();
    assertThat(eval(like(S, T), null, null, null, null, "abc", "a%")).isEqualTo(true);
    assertThat(eval(like(S, T), null, null, null, null, "abc", null)).isNull();
  }

  @Test
  void ilikeLowerCasesBothSidesInUnicode() {
    assertThat(str(ilike(S, lit("AB%")), "abc")).isEqualTo(true);
    assertThat(str(ilike(S, lit("éc%")), "ÉCOLE")).isEqualTo(true);
    assertThat(str(ilike(S, lit("%ΟΣ")), "ΛΟΓΟΣ")).isEqualTo(true);
    // lower-casing is contextual: a final capital sigma becomes 'ς', a lone one 'σ'
    assertThat(str(ilike(S, lit("%Σ")), "ΛΟΓΟΣ")).isEqualTo(false);
    assertThat(str(ilike(S, lit("straße")), "STRASSE")).isEqualTo(false); // lower('STRASSE') is 'strasse'
    assertThat(eval(ilike(S, T), null, null, null, null, "Hello", "h_LLO")).isEqualTo(true);
  }

  @Test
  void stringFunctionsWorkInCodePoints() {
    assertThat(str(upper(S), "straße")).isEqualTo("STRASSE");
    assertThat(str(lower(S), "ÉCOLE İ")).isEqualTo("école i̇");
    assertThat(str(length(S), "a😀b")).isEqualTo(3L);
    assertThat(str(length(S), "")).isEqualTo(0L);
    assertThat(str(length(S), "é")).isEqualTo(1L);
    assertThat(str(substring(S, lit(2), lit(1)), "a😀b")).isEqualTo("😀");
    assertThat(str(substring(S, lit(2), lit(5)), "a😀b")).isEqualTo("😀b");
    assertThat(str(trim(S), "  a b \t ")).isEqualTo("a b \t");
    assertThat(str(trim(S), "\t a\n")).isEqualTo("\t a\n");
    assertThat(str(trim(S), "   ")).isEqualTo("");
    for (Expr e : List.of(upper(S), lower(S), length(S), trim(S), substring(S, lit(1), lit(2)))) {
      assertThat(str(e, null)).as(ExprText.of(e)).isNull();
    }
    assertThat(str(substring(S, lit(null), lit(2)), "abc")).isNull();
    assertThat(str(substring(S, lit(1), lit(null)), "abc")).isNull();
  }

  @Test
  void concatIsNullWhenAnyPartIsNull() {
    assertThat(eval(concat(S, lit("-"), T), null, null, null, null, "a", "é")).isEqualTo("a-é");
    assertThat(eval(concat(S, lit("-"), T), null, null, null, null, "a", null)).isNull();
    assertThat(eval(concat(S), null, null, null, null, "a", null)).isEqualTo("a");
  }

  @Test
  void substringFollowsSqliteForEveryStartAndLength() {
    String h = "hello";
    assertThat(StringFunctions.substring(h, 1, 2)).isEqualTo("he");
    assertThat(StringFunctions.substring(h, 0, 2)).isEqualTo("h");
    assertThat(StringFunctions.substring(h, 0, 0)).isEqualTo("");
    assertThat(StringFunctions.substring(h, -1, 3)).isEqualTo("o");
    assertThat(StringFunctions.substring(h, -3, 2)).isEqualTo("ll");
    assertThat(StringFunctions.substring(h, -7, 3)).isEqualTo("h");
    assertThat(StringFunctions.substring(h, 3, -2)).isEqualTo("he");
    assertThat(StringFunctions.substring(h, 0, -2)).isEqualTo("");
    assertThat(StringFunctions.substring(h, -1, -2)).isEqualTo("ll");
    assertThat(StringFunctions.substring(h, 9, 2)).isEqualTo("");
    assertThat(StringFunctions.substring(h, 2, Long.MAX_VALUE)).isEqualTo("ello");
    // extreme arguments are computed exactly: [5 - 2^63 + 1, 5) and [1, 4)
    assertThat(StringFunctions.substring(h, Long.MIN_VALUE, Long.MAX_VALUE)).isEqualTo("hell");
    assertThat(StringFunctions.substring(h, -2, Long.MIN_VALUE)).isEqualTo("hel");
    assertThat(StringFunctions.substring(h, Long.MAX_VALUE, Long.MAX_VALUE)).isEqualTo("");
    assertThat(StringFunctions.substring("😀a😀", -1, 1)).isEqualTo("😀");
    assertThat(StringFunctions.substring("😀a😀", 2, -1)).isEqualTo("😀");
    assertThat(str(substring(S, lit(-2), lit(9)), "abc")).isEqualTo("bc");
    assertThat(str(new Expr.Call(Expr.StringFn.SUBSTRING, List.of(S, lit(2))), "abc")).isEqualTo("bc");
  }

  @Test
  void coalesceTakesTheFirstNonNull() {
    assertThat(eval(coalesce(lit(null), I, J), null, 2L, null, null, null, null)).isEqualTo(2L);
    assertThat(eval(coalesce(I, J), 1L, 2L, null, null, null, null)).isEqualTo(1L);
    assertThat(eval(coalesce(I, J), null, null, null, null, null, null)).isNull();
    assertThat(eval(coalesce(D, I), 3L, null, null, null, null, null)).isEqualTo(3L);
    assertThat(eval(coalesce(S, lit("none")), null, null, null, null, null, null)).isEqualTo("none");
  }

  @Test
  void caseTakesTheFirstTrueArmAndNullDoesNotMatch() {
    Expr c = when(gt(I, lit(10)), lit("big")).when(eq(I, J), lit("same")).otherwise(lit("other"));
    assertThat(ints(c, 11, 0)).isEqualTo("big");
    assertThat(ints(c, 3, 3)).isEqualTo("same");
    assertThat(ints(c, 3, 4)).isEqualTo("other");
    // I is NULL: both conditions are NULL, so neither arm matches
    assertThat(eval(c, null, 4L, null, null, null, null)).isEqualTo("other");
    Expr noElse = when(gt(I, lit(10)), lit(1)).end();
    assertThat(ints(noElse, 1, 0)).isNull();
    assertThat(eval(noElse, null, null, null, null, null, null)).isNull();
    // only the chosen branch is evaluated: the other would fail on a string in arithmetic
    Expr guarded = when(eq(I, lit(0)), lit(0)).otherwise(add(A, lit(1)));
    assertThat(ExprCompiler.compile(guarded, SCOPE).eval(Row.of(0L, null, null, null, null, null, null, "x"))).isEqualTo(0L);
    // a CASE over DOUBLE and INT branches keeps the values canonical
    assertThat(eval(when(B, D).otherwise(I), 4L, null, 0.5, null, null, null)).isEqualTo(4L);
  }
}
