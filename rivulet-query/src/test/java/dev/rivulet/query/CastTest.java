package dev.rivulet.query;

import static dev.rivulet.query.Exprs.add;
import static dev.rivulet.query.Exprs.cast;
import static dev.rivulet.query.Exprs.coalesce;
import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.concat;
import static dev.rivulet.query.Exprs.div;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.lit;
import static dev.rivulet.query.Exprs.when;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.Row;
import dev.rivulet.query.expr.ExprCompiler;
import java.math.BigDecimal;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code CAST(x AS type)}: each supported conversion against SQLite and H2, and the refusals. */
class CastTest {
  private static final ColumnType INT = ColumnType.INT;
  private static final ColumnType DOUBLE = ColumnType.DOUBLE;
  private static final ColumnType DECIMAL = ColumnType.DECIMAL;
  private static final ColumnType STRING = ColumnType.STRING;
  private static SqlAgreement sql;

  @BeforeAll
  static void open() throws Exception {
    sql = new SqlAgreement("i INT, j INT, d DOUBLE, m DECIMAL, s STRING, b BOOL");
  }

  @AfterAll
  static void close() throws Exception {
    sql.close();
  }

  @Test
  void toIntRoundsHalvesAwayFromZero() throws Exception {
    for (double d : new double[] {2.5, -2.5, 2.4, -2.6, 0.5, -0.5, 3.0, 0.25, -1.75}) {
      sql.row(null, null, d, new BigDecimal(Double.toString(d)), null, null);
      long want = (long) (Math.signum(d) * Math.floor(Math.abs(d) + 0.5));
      sql.agree(cast(col("t.d"), INT), want);
      sql.agree(cast(col("t.m"), INT), want);
    }
    sql.row(7, 2, null, null, null, null);
    sql.agree(cast(col("t.i"), INT), 7L);
    sql.agree(cast(lit(null), INT), null);
    assertThat(sql.type(cast(col("t.d"), INT))).isEqualTo(INT);
  }

  @Test
  void toDoubleMakesDoubleArithmetic() throws Exception {
    sql.row(7, 2, 0.5, new BigDecimal("0.25"), null, null);
    sql.agree(div(cast(col("t.i"), DOUBLE), col("t.j")), 3.5);
    sql.agree(div(col("t.i"), col("t.j")), 3L);
    sql.agree(add(cast(col("t.m"), DOUBLE), col("t.d")), 0.75);
    sql.agree(cast(lit(null), DOUBLE), null);
    assertThat(sql.type(div(cast(col("t.i"), DOUBLE), col("t.j")))).isEqualTo(DOUBLE);
  }

  @Test
  void toDecimal() throws Exception {
    sql.row(7, 2, 0.375, new BigDecimal("0.25"), null, null);
    sql.agree(cast(col("t.i"), DECIMAL), 7L);
    sql.agree(cast(col("t.d"), DECIMAL), 0.375);
    assertThat(sql.type(cast(col("t.i"), DECIMAL))).isEqualTo(DECIMAL);
    // a double becomes its shortest decimal, as H2 (and PostgreSQL) convert: 0.1, not 0.1000000000000000055...
    sql.row(null, null, 0.1, null, null, null);
    sql.agree(cast(col("t.d"), DECIMAL), new BigDecimal("0.1"), dev.rivulet.query.sql.SqlDialect.H2);
    assertThat(eval(cast(col("t.d"), DECIMAL), Row.of(null, null, 0.1, null, null, null)))
        .isEqualTo(new BigDecimal("0.1"));
  }

  @Test
  void intToString() throws Exception {
    sql.row(-42, 0, null, null, "x", null);
    sql.agree(cast(col("t.i"), STRING), "-42");
    sql.agree(concat(col("t.s"), cast(col("t.j"), STRING)), "x0");
    sql.agree(cast(col("t.s"), STRING), "x");
  }

  @Test
  void castsOfNullAreTypedNulls() throws Exception {
    sql.row(5, 2, null, null, null, null);
    sql.agree(div(coalesce(cast(lit(null), DOUBLE), col("t.i")), col("t.j")), 2.5);
    sql.agree(eq(cast(lit(null), STRING), lit("a")), null);
    assertThat(sql.type(cast(lit(null), ColumnType.BOOL))).isEqualTo(ColumnType.BOOL);
  }

  @Test
  void aDoubleBranchMakesItsIntBranchesDoubles() throws Exception {
    // CASE of INT and DOUBLE is DOUBLE: the INT value 2^53 + 1 becomes the double 2^53, as in SQL
    long big = (1L << 53) + 1;
    Row row = Row.of(big, 0, 0.5, null, null, null);
    Expr e = when(eq(col("t.j"), lit(0)), col("t.i")).otherwise(col("t.d"));
    assertThat(eval(e, row)).isEqualTo(1L << 53);
    assertThat(eval(coalesce(col("t.i"), col("t.d")), row)).isEqualTo(1L << 53);
    assertThat(eval(coalesce(col("t.i"), col("t.j")), row)).isEqualTo(big);
    sql.row(big, 0, 0.5, null, null, null);
    // H2 types the CASE; SQLite's typing is dynamic, so its CASE keeps the integer (see SqlDialect)
    sql.agree(e, 1L << 53, dev.rivulet.query.sql.SqlDialect.H2);
  }

  @Test
  void nonFiniteDoublesCastToIntAreNull() {
    Row row = Row.of(null, null, Double.NaN, null, null, null);
    assertThat(eval(cast(col("t.d"), INT), row)).isNull();
    assertThat(eval(cast(col("t.d"), INT), Row.of(null, null, Double.POSITIVE_INFINITY, null, null, null))).isNull();
    assertThat(eval(cast(col("t.d"), DECIMAL), row)).isEqualTo(Double.NaN);
    // beyond 64 bits an integer stays exact, as INT arithmetic carries it
    assertThat(eval(cast(col("t.d"), INT), Row.of(null, null, 1e20, null, null, null)))
        .isEqualTo(dev.rivulet.engine.Values.canonical(new BigDecimal("100000000000000000000")));
  }

  @Test
  void unsupportedCastsAreRefusedSayingWhatExists() {
    Query q = Query.from("i", Rivulet.create().collection("c",
        dev.rivulet.engine.Schema.parse("id INT NOT NULL, s STRING, d DOUBLE, b BOOL"), java.util.List.of("id")));
    for (Expr bad : new Expr[] {cast(col("i.s"), INT), cast(col("i.d"), STRING), cast(col("i.b"), INT),
        cast(col("i.id"), ColumnType.BOOL), cast(col("i.s"), ColumnType.DATE), cast(col("i.id"), ColumnType.ANY)}) {
      assertThatThrownBy(() -> q.select(Query.as("x", bad)).ir())
          .isInstanceOf(QueryException.class)
          .hasMessageStartingWith("select x: cannot cast i.")
          .hasMessageContaining("CAST converts between INT, DOUBLE and DECIMAL, from INT to STRING");
    }
    assertThat(cast(col("i.s"), INT).toString()).contains("Cast");
    assertThat(dev.rivulet.query.expr.ExprText.of(cast(col("i.s"), INT))).isEqualTo("CAST(i.s AS INT)");
  }

  private static Object eval(Expr e, Row row) {
    return ExprCompiler.compile(e, new TestScope("t", dev.rivulet.engine.Schema.parse(
        "i INT, j INT, d DOUBLE, m DECIMAL, s STRING, b BOOL"))).eval(row);
  }
}
