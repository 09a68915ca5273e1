package dev.rivulet.query.expr;

import static dev.rivulet.query.Exprs.and;
import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.gt;
import static dev.rivulet.query.Exprs.isNotNull;
import static dev.rivulet.query.Exprs.isNull;
import static dev.rivulet.query.Exprs.lit;
import static dev.rivulet.query.Exprs.not;
import static dev.rivulet.query.Exprs.or;
import static dev.rivulet.query.expr.ColumnTestRows.S;
import static dev.rivulet.query.expr.ColumnTestRows.ROWS;
import static dev.rivulet.query.expr.ColumnTestRows.SCOPE;
import static dev.rivulet.query.expr.ColumnTestRows.agreesWithGeneral;
import static dev.rivulet.query.expr.ColumnTestRows.value;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.Row;
import dev.rivulet.query.Expr;
import dev.rivulet.testkit.Seeds;
import java.util.Random;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * A where-test of column tests ({@code IS [NOT] NULL}, {@code column = non-NULL literal}) under
 * AND and OR compiles to {@link ColumnTests} (not with a NOT, another comparison, a NULL literal
 * or a computed operand inside), and it accepts exactly the rows the general tree makes TRUE
 * ({@link ExprCompiler#compile} evaluated, TRUE only): random trees over every column type with
 * NULLs (decimals equal across scales), on random rows.
 */
class ColumnTestsTest {
  @Test
  void columnTestsUnderAndOrTakeTheOnePredicatePath() {
    Expr w5 = or(isNull(col("t.i")), eq(col("t.b"), lit(true)));
    assertThat(ExprCompiler.predicate(w5, SCOPE)).isInstanceOf(ColumnTests.class);
    assertThat(ExprCompiler.predicate(isNotNull(col("t.s")), SCOPE)).isInstanceOf(ColumnTests.class);
    assertThat(ExprCompiler.predicate(and(eq(lit("a"), col("t.s")), or(isNull(col("t.x")), eq(col("t.i"), lit(2L)))), SCOPE))
        .isInstanceOf(ColumnTests.class);
    assertThat(ExprCompiler.predicate(eq(col("t.s"), lit("a")), SCOPE)).as("a lone = stays ColumnEquals")
        .isInstanceOf(ColumnEquals.class);
    assertThat(ExprCompiler.predicate(or(isNull(col("t.i")), not(eq(col("t.b"), lit(true)))), SCOPE))
        .isNotInstanceOf(ColumnTests.class);
    assertThat(ExprCompiler.predicate(or(isNull(col("t.i")), gt(col("t.i"), lit(2L))), SCOPE))
        .isNotInstanceOf(ColumnTests.class);
    assertThat(ExprCompiler.predicate(or(isNull(col("t.i")), eq(col("t.s"), lit(null, ColumnType.STRING))), SCOPE))
        .isNotInstanceOf(ColumnTests.class);
    assertThat(ExprCompiler.predicate(or(isNull(col("t.i")), eq(col("t.i"), col("t.d"))), SCOPE))
        .isNotInstanceOf(ColumnTests.class);
  }

  @Test
  void acceptsWhatTheGeneralTreeMakesTrue() {
    int accepted = 0;
    int rejected = 0;
    for (long seed : Seeds.runs(40)) {
      Random rnd = new Random(seed);
      for (int k = 0; k < 30; k++) {
        Expr e = tree(rnd, 3);
        Predicate<Row> fast = ExprCompiler.predicate(e, SCOPE);
        if (e instanceof Expr.Compare) {
          assertThat(fast).as("seed %d: %s", seed, e).isInstanceOf(ColumnEquals.class);
        } else {
          assertThat(fast).as("seed %d: %s", seed, e).isInstanceOf(ColumnTests.class);
        }
        int passed = agreesWithGeneral(fast, e, rnd, seed);
        accepted += passed;
        rejected += ROWS - passed;
      }
    }
    assertThat(accepted).as("some rows pass").isPositive();
    assertThat(rejected).as("some rows fail").isPositive();
  }

  /** A random condition of column tests under AND and OR, at most {@code depth} levels deep. */
  private static Expr tree(Random rnd, int depth) {
    if (depth > 1 && rnd.nextInt(3) > 0) {
      Expr[] args = new Expr[1 + rnd.nextInt(3)];
      for (int i = 0; i < args.length; i++) {
        args[i] = tree(rnd, depth - 1);
      }
      return rnd.nextBoolean() ? and(args) : or(args);
    }
    int c = rnd.nextInt(S.width());
    Expr.Col column = col("t." + S.column(c).name());
    int kind = rnd.nextInt(4);
    if (kind == 0) {
      return isNull(column);
    }
    if (kind == 1) {
      return isNotNull(column);
    }
    Object v;
    do {
      v = value(S.column(c).type(), rnd);
    } while (v == null);
    Expr.Lit literal = lit(v, S.column(c).type() == ColumnType.ANY ? ColumnType.ofJava(v) : S.column(c).type());
    return kind == 2 ? eq(column, literal) : eq(literal, column);
  }
}
