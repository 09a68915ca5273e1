package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.lit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.ColumnType;
import dev.rivulet.query.expr.Scope;
import dev.rivulet.query.expr.TypeChecker;
import java.util.List;
import org.junit.jupiter.api.Test;

/** substring's argument count and types are checked when the query is built, naming the clause. */
class StringCallTypesTest {
  private static final Scope SCOPE = TestScope.of("r", "i INT, s STRING, a ANY");

  @Test
  void substringNeedsAStringAndTwoOrThreeArguments() {
    assertThat(TypeChecker.typeOf(Exprs.substring(col("r.s"), lit(1), lit(2)), SCOPE, "select"))
        .isEqualTo(ColumnType.STRING);
    assertThat(TypeChecker.typeOf(Exprs.substring(col("r.a"), col("r.a"), col("r.i")), SCOPE, "select"))
        .isEqualTo(ColumnType.STRING);
    assertThatThrownBy(() -> TypeChecker.typeOf(Exprs.substring(col("r.i"), lit(1), lit(2)), SCOPE, "select"))
        .isInstanceOf(QueryException.class).hasMessage("select: substring needs STRING, but r.i is INT");
    assertThatThrownBy(() -> TypeChecker.typeOf(new Expr.Call(Expr.StringFn.SUBSTRING, List.of(col("r.s"))), SCOPE,
        "where")).isInstanceOf(QueryException.class).hasMessage("where: substring takes 2 or 3 arguments, got 1");
    assertThatThrownBy(() -> TypeChecker.typeOf(Exprs.substring(col("r.s"), lit("x"), lit(2)), SCOPE, "select"))
        .isInstanceOf(QueryException.class).hasMessageContaining("substring start 'x' is STRING, not INT");
    assertThatThrownBy(() -> TypeChecker.typeOf(Exprs.substring(col("r.s"), lit(1), col("r.s")), SCOPE, "select"))
        .isInstanceOf(QueryException.class).hasMessageContaining("substring length r.s is STRING, not INT");
  }
}
