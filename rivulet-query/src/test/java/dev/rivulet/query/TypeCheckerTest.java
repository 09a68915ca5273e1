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
import static dev.rivulet.query.Exprs.in;
import static dev.rivulet.query.Exprs.inValues;
import static dev.rivulet.query.Exprs.isNull;
import static dev.rivulet.query.Exprs.length;
import static dev.rivulet.query.Exprs.like;
import static dev.rivulet.query.Exprs.lit;
import static dev.rivulet.query.Exprs.max;
import static dev.rivulet.query.Exprs.min;
import static dev.rivulet.query.Exprs.mul;
import static dev.rivulet.query.Exprs.not;
import static dev.rivulet.query.Exprs.or;
import static dev.rivulet.query.Exprs.substring;
import static dev.rivulet.query.Exprs.sum;
import static dev.rivulet.query.Exprs.upper;
import static dev.rivulet.query.Exprs.when;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.ColumnType;
import dev.rivulet.query.expr.ExprCompiler;
import dev.rivulet.query.expr.Scope;
import dev.rivulet.query.expr.TypeChecker;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Static types, and errors that name the clause and the offending expression. */
class TypeCheckerTest {
  private static final Scope SCOPE =
      TestScope.of("i", "id INT, title STRING, price DOUBLE, amount DECIMAL, open BOOL, due DATE");
  private static final Expr ID = col("i.id");
  private static final Expr TITLE = col("i.title");
  private static final Expr PRICE = col("i.price");
  private static final Expr AMOUNT = col("i.amount");
  private static final Expr OPEN = col("i.open");

  private static ColumnType type(Expr e) {
    return TypeChecker.typeOf(e, SCOPE, "select");
  }

  private static void fails(Expr e, String clause, String message) {
    assertThatThrownBy(() -> TypeChecker.typeOf(e, SCOPE, clause))
        .isInstanceOf(QueryException.class)
        .hasMessage(message);
  }

  @Test
  void literalsHaveTheTypeSqlGivesThem() {
    assertThat(type(lit(5))).isEqualTo(ColumnType.INT);
    assertThat(type(lit(5L))).isEqualTo(ColumnType.INT);
    assertThat(type(lit(java.math.BigInteger.TEN.pow(30)))).isEqualTo(ColumnType.INT);
    // 2.0 is a DOUBLE literal although its canonical value is the integer 2
    assertThat(type(lit(2.0))).isEqualTo(ColumnType.DOUBLE);
    assertThat(lit(2.0).value()).isEqualTo(2L);
    assertThat(type(lit(2.0f))).isEqualTo(ColumnType.DOUBLE);
    assertThat(type(lit(2.5))).isEqualTo(ColumnType.DOUBLE);
    assertThat(type(lit(new BigDecimal("0.1")))).isEqualTo(ColumnType.DECIMAL);
    assertThat(type(lit(new BigDecimal("2.00")))).isEqualTo(ColumnType.DECIMAL);
    assertThat(type(lit(new BigDecimal("0.5")))).isEqualTo(ColumnType.DECIMAL);
    assertThat(type(lit("x"))).isEqualTo(ColumnType.STRING);
    assertThat(type(lit('x'))).isEqualTo(ColumnType.STRING);
    assertThat(type(lit(true))).isEqualTo(ColumnType.BOOL);
    assertThat(type(lit(null))).isEqualTo(ColumnType.ANY);
    assertThat(type(lit(java.time.LocalDate.of(2024, 5, 1)))).isEqualTo(ColumnType.DATE);
    assertThat(type(lit(java.time.Instant.EPOCH))).isEqualTo(ColumnType.TIMESTAMP);
    assertThat(type(div(ID, lit(2.0)))).isEqualTo(ColumnType.DOUBLE);
    assertThat(type(div(ID, lit(new BigDecimal("2"))))).isEqualTo(ColumnType.DECIMAL);
  }

  @Test
  void typedLiteralsTakeTheirType() {
    assertThat(type(lit(2, ColumnType.DOUBLE))).isEqualTo(ColumnType.DOUBLE);
    assertThat(type(lit(null, ColumnType.INT))).isEqualTo(ColumnType.INT);
    assertThat(type(Exprs.date("2024-05-01"))).isEqualTo(ColumnType.DATE);
    assertThat(Exprs.date("2024-05-01").value()).isEqualTo(java.time.LocalDate.of(2024, 5, 1));
    assertThat(Exprs.timestamp("2024-05-01 10:15:30").value()).isEqualTo(java.time.Instant.parse("2024-05-01T10:15:30Z"));
    assertThat(Exprs.timestamp("2024-05-01T12:15:30+02:00").value())
        .isEqualTo(java.time.Instant.parse("2024-05-01T10:15:30Z"));
    assertThat(type(Exprs.timestamp("2024-05-01T10:15:30Z"))).isEqualTo(ColumnType.TIMESTAMP);
    // a literal of another type's value is refused, naming both
    assertThatThrownBy(() -> lit("2", ColumnType.INT))
        .isInstanceOf(QueryException.class)
        .hasMessage("literal '2' (STRING) is not a INT value");
    assertThatThrownBy(() -> lit(2.5, ColumnType.INT)).isInstanceOf(QueryException.class)
        .hasMessage("literal 2.5 (DOUBLE) is not a INT value");
    assertThatThrownBy(() -> Exprs.date("May 1")).isInstanceOf(QueryException.class)
        .hasMessageContaining("date literal 'May 1' is not yyyy-mm-dd");
    assertThatThrownBy(() -> Exprs.timestamp("noon")).isInstanceOf(QueryException.class)
        .hasMessageContaining("timestamp literal 'noon' is not an ISO-8601 date-time");
    assertThatThrownBy(() -> lit(new Object())).isInstanceOf(QueryException.class)
        .hasMessageContaining("unsupported literal: unsupported value type java.lang.Object");
    // literals of one value and different types are different expressions
    assertThat(lit(2)).isNotEqualTo(lit(2.0));
    assertThat(lit(2.0)).isEqualTo(lit(2, ColumnType.DOUBLE));
  }

  @Test
  void literalsShowTheirType() {
    assertThat(lit(2.0).toString()).isEqualTo("2.0");
    assertThat(lit(2).toString()).isEqualTo("2");
    assertThat(lit(new BigDecimal("2.00")).toString()).isEqualTo("CAST(2 AS DECIMAL)");
    assertThat(lit(new BigDecimal("0.10")).toString()).isEqualTo("0.1");
    assertThat(lit(null, ColumnType.INT).toString()).isEqualTo("CAST(NULL AS INT)");
    assertThat(lit(null).toString()).isEqualTo("NULL");
    assertThat(Exprs.date("2024-05-01").toString()).isEqualTo("DATE '2024-05-01'");
    fails(eq(lit(2.0), lit("x")), "where", "where: cannot compare 2.0 (DOUBLE) with 'x' (STRING)");
  }

  @Test
  void arithmeticWidensIntDoubleDecimal() {
    assertThat(type(add(ID, lit(1)))).isEqualTo(ColumnType.INT);
    assertThat(type(div(ID, lit(2)))).isEqualTo(ColumnType.INT);
    assertThat(type(mul(ID, PRICE))).isEqualTo(ColumnType.DOUBLE);
    assertThat(type(add(PRICE, AMOUNT))).isEqualTo(ColumnType.DECIMAL);
    assertThat(type(add(ID, AMOUNT))).isEqualTo(ColumnType.DECIMAL);
    assertThat(type(add(ID, lit(null)))).isEqualTo(ColumnType.INT);
    assertThat(type(add(lit(null), lit(null)))).isEqualTo(ColumnType.ANY);
  }

  @Test
  void branchesTakeTheWidestTypeAndIgnoreNullLiterals() {
    assertThat(type(coalesce(ID, PRICE))).isEqualTo(ColumnType.DOUBLE);
    assertThat(type(coalesce(lit(null), ID, AMOUNT))).isEqualTo(ColumnType.DECIMAL);
    assertThat(type(coalesce(lit(null), TITLE))).isEqualTo(ColumnType.STRING);
    assertThat(type(coalesce(lit(null)))).isEqualTo(ColumnType.ANY);
    assertThat(type(when(OPEN, ID).otherwise(PRICE))).isEqualTo(ColumnType.DOUBLE);
    assertThat(type(when(OPEN, lit(null)).end())).isEqualTo(ColumnType.ANY);
    assertThat(type(when(lit(null), TITLE).end())).isEqualTo(ColumnType.STRING);
  }

  @Test
  void predicatesAndFunctionsHaveFixedTypes() {
    assertThat(type(eq(ID, PRICE))).isEqualTo(ColumnType.BOOL);
    assertThat(type(and(OPEN, lit(null)))).isEqualTo(ColumnType.BOOL);
    assertThat(type(isNull(col("i.due")))).isEqualTo(ColumnType.BOOL);
    assertThat(type(like(TITLE, lit("a%")))).isEqualTo(ColumnType.BOOL);
    assertThat(type(inValues(ID, 1, 2.5, null))).isEqualTo(ColumnType.BOOL);
    assertThat(type(length(TITLE))).isEqualTo(ColumnType.INT);
    assertThat(type(substring(upper(TITLE), lit(1), lit(null)))).isEqualTo(ColumnType.STRING);
    assertThat(type(concat(TITLE, lit(null)))).isEqualTo(ColumnType.STRING);
  }

  @Test
  void comparisonErrorsNameClauseAndBothSides() {
    fails(eq(TITLE, lit(5)), "where", "where: cannot compare i.title (STRING) with 5 (INT)");
    fails(gt(add(ID, lit(1)), TITLE), "having", "having: cannot compare i.id + 1 (INT) with i.title (STRING)");
    fails(eq(OPEN, lit(1)), "on", "on: cannot compare i.open (BOOL) with 1 (INT)");
    fails(in(ID, lit(1), lit("x")), "where", "where: cannot compare i.id (INT) with 'x' (STRING)");
    fails(in(lit(null), lit(1), lit("x")), "where", "where: cannot compare 1 (INT) with 'x' (STRING)");
  }

  @Test
  void logicNeedsBooleans() {
    fails(and(OPEN, TITLE), "where", "where: AND needs BOOL operands, but i.title is STRING");
    fails(or(ID, OPEN), "where", "where: OR needs BOOL operands, but i.id is INT");
    fails(not(PRICE), "where", "where: NOT needs BOOL operands, but i.price is DOUBLE");
    fails(when(ID, lit(1)).end(), "select", "select: CASE condition i.id is INT, not BOOL");
  }

  @Test
  void stringOperationsNeedStrings() {
    fails(like(ID, lit("1%")), "where", "where: LIKE needs STRING, but i.id is INT");
    fails(Exprs.ilike(TITLE, lit(1)), "where", "where: ILIKE needs STRING, but 1 is INT");
    fails(upper(PRICE), "select", "select: upper needs STRING, but i.price is DOUBLE");
    fails(concat(TITLE, ID), "select", "select: concat needs STRING, but i.id is INT");
    fails(substring(TITLE, lit(1.5), lit(2)), "select", "select: substring start 1.5 is DOUBLE, not INT");
    fails(substring(TITLE, lit(1), TITLE), "select", "select: substring length i.title is STRING, not INT");
    fails(new Expr.Call(Expr.StringFn.UPPER, List.of(TITLE, TITLE)), "select", "select: upper takes 1 argument, got 2");
  }

  @Test
  void arithmeticNeedsNumbers() {
    fails(add(TITLE, lit(1)), "select", "select: arithmetic needs numbers, but i.title is STRING in i.title + 1");
    fails(mul(ID, OPEN), "order by", "order by: arithmetic needs numbers, but i.open is BOOL in i.id * i.open");
  }

  @Test
  void branchesMustBeComparable() {
    fails(coalesce(ID, TITLE), "select", "select: coalesce branches must be comparable, but i.id is INT and i.title is STRING");
    fails(when(OPEN, TITLE).otherwise(lit(1)), "select",
        "select: CASE branches must be comparable, but i.title is STRING and 1 is INT");
  }

  @Test
  void unknownColumnsNameTheClause() {
    assertThatThrownBy(() -> TypeChecker.typeOf(eq(col("i.nope"), lit(1)), SCOPE, "where"))
        .isInstanceOf(QueryException.class)
        .hasMessageStartingWith("where: unknown column i.nope");
  }

  @Test
  void aggregatesAreNotScalar() {
    fails(gt(sum(ID), lit(1)), "where", "aggregate sum not allowed in where");
    fails(add(count(), lit(1)), "group by", "aggregate count not allowed in group by");
    assertThatThrownBy(() -> TypeChecker.aggregateType((Expr.Agg) sum(add(ID, max(ID))), SCOPE, "select"))
        .isInstanceOf(QueryException.class)
        .hasMessage("aggregate max not allowed in select");
  }

  @Test
  void aggregateTypesMirrorTheEngine() {
    assertThat(agg(count())).isEqualTo(ColumnType.INT);
    assertThat(agg(count(TITLE))).isEqualTo(ColumnType.INT);
    assertThat(agg(countDistinct(TITLE))).isEqualTo(ColumnType.INT);
    assertThat(agg(sum(ID))).isEqualTo(ColumnType.DECIMAL);
    assertThat(agg(sum(PRICE))).isEqualTo(ColumnType.DOUBLE);
    assertThat(agg(sum(AMOUNT))).isEqualTo(ColumnType.DECIMAL);
    assertThat(agg(avg(ID))).isEqualTo(ColumnType.DOUBLE);
    assertThat(agg(avg(PRICE))).isEqualTo(ColumnType.DOUBLE);
    assertThat(agg(avg(AMOUNT))).isEqualTo(ColumnType.DECIMAL);
    assertThat(agg(min(TITLE))).isEqualTo(ColumnType.STRING);
    assertThat(agg(max(add(ID, PRICE)))).isEqualTo(ColumnType.DOUBLE);
    assertThatThrownBy(() -> agg(sum(TITLE)))
        .isInstanceOf(QueryException.class)
        .hasMessage("select: sum needs a number, but i.title is STRING");
    assertThatThrownBy(() -> agg(avg(OPEN)))
        .isInstanceOf(QueryException.class)
        .hasMessage("select: avg needs a number, but i.open is BOOL");
    assertThatThrownBy(() -> agg(new Expr.Agg(Expr.AggFn.SUM, ID, true)))
        .isInstanceOf(QueryException.class)
        .hasMessage("select: DISTINCT is only allowed in count, not in sum(DISTINCT i.id)");
  }

  private static ColumnType agg(Expr a) {
    return TypeChecker.aggregateType((Expr.Agg) a, SCOPE, "select");
  }

  @Test
  void compilerAndPredicateCheckFirst() {
    assertThatThrownBy(() -> ExprCompiler.compile(eq(TITLE, lit(5)), SCOPE, "where"))
        .isInstanceOf(QueryException.class)
        .hasMessage("where: cannot compare i.title (STRING) with 5 (INT)");
    assertThatThrownBy(() -> ExprCompiler.predicate(TITLE, SCOPE, "where"))
        .isInstanceOf(QueryException.class)
        .hasMessage("where: condition i.title is STRING, not BOOL");
    assertThatThrownBy(() -> ExprCompiler.compile(sum(ID), SCOPE, "select"))
        .isInstanceOf(QueryException.class)
        .hasMessage("aggregate sum not allowed in select");
  }
}
