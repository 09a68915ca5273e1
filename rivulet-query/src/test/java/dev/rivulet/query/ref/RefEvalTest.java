package dev.rivulet.query.ref;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.Row;
import dev.rivulet.query.Expr;
import dev.rivulet.testkit.RefValues;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Known answers of the reference, from SQL's rules and the README (not from the code under test):
 * canonical values, the code-point order, three-valued logic, the typing table, arithmetic, LIKE
 * and SQLite's substr.
 */
class RefEvalTest {
  private static final Map<String, RefType> COLS = Map.of("i", RefType.INT, "d", RefType.DOUBLE, "s", RefType.STRING,
      "b", RefType.BOOL);
  private static final List<String> ORDER = List.of("i", "d", "s", "b");
  private static final RefScope SCOPE = c -> new RefScope.Slot(ORDER.indexOf(c.column()), COLS.get(c.column()));
  private static final Row ROW = Row.of(5L, 2.5, "ab", null);

  private static Expr col(String c) {
    return new Expr.Col("t", c);
  }

  private static Expr lit(Object v) {
    return new Expr.Lit(v);
  }

  private static Object eval(Expr e) {
    return RefEval.of(e, SCOPE).eval(ROW);
  }

  @Test
  void canonicalValuesFollowTheReadme() {
    assertThat(RefValues.canonical(2.0)).isEqualTo(2L);
    assertThat(RefValues.canonical(new BigDecimal("2.00"))).isEqualTo(2L);
    assertThat(RefValues.canonical(new BigDecimal("1.50"))).isEqualTo(1.5);
    assertThat(RefValues.canonical(-0.0)).isEqualTo(0L);
    assertThat(RefValues.canonical(new BigDecimal("0.1"))).isEqualTo(new BigDecimal("0.1"));
    assertThat(RefValues.canonical(9.223372036854775808E18)).isEqualTo(9.223372036854775808E18);
    assertThat(RefValues.canonical(new BigDecimal("123456789012345678901"))).isEqualTo(new BigDecimal("123456789012345678901"));
    assertThat(RefValues.canonical(new BigDecimal("1180591620717411303424.0"))).isEqualTo(0x1p70);
  }

  @Test
  void orderIsByCodePointAndExactValue() {
    // U+FF5E is a larger UTF-16 unit than the surrogates of U+1D11E, but a smaller code point.
    assertThat(RefValues.compare("\uff5e", "\ud834\udd1e")).isNegative();
    assertThat(RefValues.compare("abc\uff5e", "abc\ud834\udd1e")).isNegative();
    assertThat(RefValues.compare("a", "ab")).isNegative();
    assertThat(RefValues.compare("", "a")).isNegative();
    assertThat(RefValues.compare(1L, 1.5)).isNegative();
    assertThat(RefValues.compare(Long.MAX_VALUE, 9.223372036854775808E18)).isNegative();
    assertThat(RefValues.compare(Double.POSITIVE_INFINITY, Double.NaN)).isNegative();
    assertThat(RefValues.compare(true, 0L)).isNegative();
    assertThat(RefValues.compare(1L, "1")).isNegative();
  }

  @Test
  void threeValuedLogic() {
    Expr unknown = new Expr.Compare(Expr.CompareOp.EQ, col("b"), lit(true));
    assertThat(eval(unknown)).isNull();
    assertThat(eval(new Expr.And(List.of(unknown, lit(false))))).isEqualTo(false);
    assertThat(eval(new Expr.And(List.of(unknown, lit(true))))).isNull();
    assertThat(eval(new Expr.Or(List.of(unknown, lit(true))))).isEqualTo(true);
    assertThat(eval(new Expr.Not(unknown))).isNull();
    assertThat(eval(new Expr.IsNull(col("b"), false))).isEqualTo(true);
    assertThat(eval(new Expr.In(col("i"), List.of(lit(1L), lit(null))))).isNull();
    assertThat(eval(new Expr.In(col("i"), List.of(lit(5.0), lit(null))))).isEqualTo(true);
    assertThat(eval(new Expr.In(lit(null), List.of()))).isEqualTo(false);
    assertThat(eval(new Expr.Case(List.of(new Expr.When(unknown, lit(1L))), lit(2L)))).isEqualTo(2L);
  }

  @Test
  void typingTableAndArithmetic() {
    Expr half = new Expr.Arith(Expr.ArithOp.DIV, col("i"), lit(2L));
    assertThat(RefTypes.typeOf(half, SCOPE)).isEqualTo(RefType.INT);
    assertThat(eval(half)).isEqualTo(2L);
    assertThat(eval(new Expr.Arith(Expr.ArithOp.DIV, lit(-7L), lit(2L)))).isEqualTo(-3L);
    // a DOUBLE literal is DOUBLE even when its value is integral, so this divides as SQL does
    Expr byTwo = new Expr.Arith(Expr.ArithOp.DIV, col("i"), lit(2.0));
    assertThat(RefTypes.typeOf(byTwo, SCOPE)).isEqualTo(RefType.DOUBLE);
    assertThat(eval(byTwo)).isEqualTo(2.5);
    assertThat(eval(new Expr.Arith(Expr.ArithOp.DIV, col("i"), lit(0L)))).isNull();
    assertThat(eval(new Expr.Arith(Expr.ArithOp.ADD, lit(Long.MAX_VALUE), lit(1L)))).isEqualTo(9.223372036854775808E18);
    Expr third = new Expr.Arith(Expr.ArithOp.DIV, lit(new BigDecimal("1.1")), lit(3L));
    assertThat(RefTypes.typeOf(third, SCOPE)).isEqualTo(RefType.DECIMAL);
    assertThat(eval(third)).isEqualTo(new BigDecimal("0.3666666666666666666666666666666667"));
    assertThat(RefTypes.aggregate(new Expr.Agg(Expr.AggFn.SUM, col("i"), false), SCOPE)).isEqualTo(RefType.DECIMAL);
    assertThat(RefTypes.aggregate(new Expr.Agg(Expr.AggFn.AVG, col("i"), false), SCOPE)).isEqualTo(RefType.DOUBLE);
    assertThatThrownBy(() -> RefTypes.typeOf(new Expr.Compare(Expr.CompareOp.EQ, col("s"), col("i")), SCOPE))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void textInCodePoints() {
    assertThat(RefStrings.like("abc", "a%", false)).isTrue();
    assertThat(RefStrings.like("abc", "%c", false)).isTrue();
    assertThat(RefStrings.like("abc", "%b%", false)).isTrue();
    assertThat(RefStrings.like("abc", "b%", false)).isFalse();
    assertThat(RefStrings.like("a\ud834\udd1eb", "a_b", false)).isTrue();
    assertThat(RefStrings.like("ABC", "a%", true)).isTrue();
    assertThat(RefStrings.like("", "%", false)).isTrue();
    assertThat(RefStrings.like("", "_", false)).isFalse();
    assertThat(RefStrings.substring("hello", 0, 2L)).isEqualTo("h");
    assertThat(RefStrings.substring("hello", -3, 2L)).isEqualTo("ll");
    assertThat(RefStrings.substring("hello", 3, -2L)).isEqualTo("he");
    assertThat(RefStrings.substring("hello", 2, null)).isEqualTo("ello");
    assertThat(RefStrings.substring("a\ud834\udd1eb", 2, 1L)).isEqualTo("\ud834\udd1e");
    assertThat(RefStrings.length("a\ud834\udd1e")).isEqualTo(2);
    assertThat(RefStrings.trim("\t a \t")).isEqualTo("\t a \t");
    assertThat(RefStrings.trim("  a  ")).isEqualTo("a");
  }

  @Test
  void literalsHaveTheirDeclaredTypeAndCastsFollowSql() {
    assertThat(RefTypes.typeOf(lit(2.0), SCOPE)).isEqualTo(RefType.DOUBLE);
    assertThat(RefTypes.typeOf(new Expr.Lit(null, dev.rivulet.engine.ColumnType.INT), SCOPE)).isEqualTo(RefType.INT);
    assertThat(eval(new Expr.Arith(Expr.ArithOp.DIV, lit(5L), lit(2.0)))).isEqualTo(2.5);
    assertThat(eval(cast(lit(2.5), "INT"))).isEqualTo(3L);
    assertThat(eval(cast(lit(-2.5), "INT"))).isEqualTo(-3L);
    assertThat(eval(cast(lit(new BigDecimal("-7.49")), "INT"))).isEqualTo(-7L);
    assertThat(eval(cast(lit(Double.NaN), "INT"))).isNull();
    assertThat(eval(cast(lit(0.1), "DECIMAL"))).isEqualTo(new BigDecimal("0.1"));
    assertThat(eval(cast(lit(new BigDecimal("0.1")), "DOUBLE"))).isEqualTo(0.1);
    assertThat(eval(cast(lit(-12L), "STRING"))).isEqualTo("-12");
    assertThat(eval(cast(lit(null), "BOOL"))).isNull();
    assertThat(RefTypes.typeOf(cast(col("i"), "STRING"), SCOPE)).isEqualTo(RefType.STRING);
    assertThatThrownBy(() -> RefTypes.typeOf(cast(col("s"), "INT"), SCOPE)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> RefTypes.typeOf(cast(col("d"), "STRING"), SCOPE)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void likeWithAnEscapeCharacter() {
    assertThat(RefStrings.like("100%", "100\\%", false, '\\')).isTrue();
    assertThat(RefStrings.like("1000", "100\\%", false, '\\')).isFalse();
    assertThat(RefStrings.like("a_b", "a!_b", false, '!')).isTrue();
    assertThat(RefStrings.like("axb", "a!_b", false, '!')).isFalse();
    assertThat(RefStrings.like("a!", "a!!", false, '!')).isTrue();
    assertThat(RefStrings.like("AB%", "a%b!%", true, '!')).isTrue();
    assertThat(RefStrings.like("ab", "ab!", false, '!')).isNull();
    assertThat(eval(new Expr.Like(col("s"), lit("a%"), false, "!"))).isEqualTo(true);
    // a pattern computed per row that ends with its escape: NULL, not a failure of the reference
    // (found by ExprDifferentialTest at RIVULET_RUNS=150: the NULL was unboxed)
    assertThat(eval(new Expr.Like(col("s"), dev.rivulet.query.Exprs.concat(col("s"), lit("!")), false, "!"))).isNull();
  }

  private static Expr cast(Expr e, String type) {
    return new Expr.Cast(e, dev.rivulet.engine.ColumnType.valueOf(type));
  }
}
