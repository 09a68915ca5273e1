package dev.rivulet.query;

import static dev.rivulet.query.Exprs.add;
import static dev.rivulet.query.Exprs.coalesce;
import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.div;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.lit;
import static dev.rivulet.query.Exprs.mul;
import static dev.rivulet.query.Exprs.when;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.ColumnType;
import java.math.BigDecimal;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A literal has the type SQL gives it, whatever its canonical value: {@code 2.0} is a DOUBLE, so
 * {@code 5 / 2.0} is 2.5 as in SQLite and H2 (it used to be typed INT and truncate to 2), while
 * {@code 2.0 = 2} stays true.
 */
class TypedLiteralsTest {
  private static SqlAgreement sql;

  @BeforeAll
  static void open() throws Exception {
    sql = new SqlAgreement("i INT, d DOUBLE, m DECIMAL, s STRING");
    sql.row(5, 2.0, new BigDecimal("2.50"), "x");
  }

  @AfterAll
  static void close() throws Exception {
    sql.close();
  }

  @Test
  void aDoubleLiteralMakesDoubleArithmetic() throws Exception {
    sql.agree(div(col("t.i"), lit(2.0)), 2.5);
    sql.agree(div(lit(5), lit(2.0)), 2.5);
    sql.agree(div(lit(5.0), lit(2)), 2.5);
    sql.agree(div(col("t.i"), lit(2)), 2L);
    sql.agree(div(col("t.i"), lit(2, ColumnType.DOUBLE)), 2.5);
    sql.agree(div(col("t.i"), col("t.d")), 2.5); // a DOUBLE column holding 2.0
    sql.agree(mul(lit(1.0), div(lit(7), lit(2))), 3.0); // the inner division is still INT
    sql.agree(div(mul(lit(1.0), lit(7)), lit(2)), 3.5);
    assertThat(sql.type(div(col("t.i"), lit(2.0)))).isEqualTo(ColumnType.DOUBLE);
  }

  @Test
  void aDecimalLiteralMakesDecimalArithmetic() throws Exception {
    sql.agree(div(col("t.i"), lit(new BigDecimal("2.00"))), 2.5);
    sql.agree(add(col("t.m"), lit(new BigDecimal("0.50"))), 3L);
    assertThat(sql.type(div(col("t.i"), lit(new BigDecimal("2.00"))))).isEqualTo(ColumnType.DECIMAL);
  }

  @Test
  void valuesStayCanonicalInComparisons() throws Exception {
    sql.agree(eq(lit(2.0), lit(2)), true);
    sql.agree(eq(col("t.d"), lit(2)), true);
    sql.agree(eq(col("t.d"), lit(new BigDecimal("2.00"))), true);
    sql.agree(eq(col("t.m"), lit(2.5)), true);
  }

  @Test
  void branchesWidenToTheDoubleLiteral() throws Exception {
    sql.agree(div(coalesce(lit(null), col("t.i"), lit(2.0)), lit(2)), 2.5);
    sql.agree(div(when(eq(col("t.s"), lit("x")), col("t.i")).otherwise(lit(0.0)), lit(2)), 2.5);
  }

  @Test
  void typedNullsTakePartInTyping() throws Exception {
    sql.agree(div(coalesce(lit(null, ColumnType.DOUBLE), col("t.i")), lit(2)), 2.5);
    sql.agree(add(col("t.i"), lit(null, ColumnType.INT)), null);
    assertThat(sql.type(coalesce(lit(null, ColumnType.DOUBLE), col("t.i")))).isEqualTo(ColumnType.DOUBLE);
  }
}
