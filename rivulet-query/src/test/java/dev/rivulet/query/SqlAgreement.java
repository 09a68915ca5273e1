package dev.rivulet.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.query.expr.ExprCompiler;
import dev.rivulet.query.expr.ExprText;
import dev.rivulet.query.expr.TypeChecker;
import dev.rivulet.query.sql.SqlDialect;
import dev.rivulet.query.sql.SqlRenderer;
import java.util.EnumMap;
import java.util.Map;

/**
 * Hand-picked expressions checked three ways: our evaluator gives the expected value, and SQLite
 * and H2 running {@link SqlRenderer}'s SQL over the same one-row table {@code t} agree (canonical
 * values, exactly). For example tests of constructs where SQL defines the answer.
 */
final class SqlAgreement implements AutoCloseable {
  private final Schema schema;
  private final TestScope scope;
  private final Map<SqlDialect, SqlEngines> engines = new EnumMap<>(SqlDialect.class);
  private Row row;

  SqlAgreement(String schema) throws Exception {
    this.schema = Schema.parse(schema);
    this.scope = new TestScope("t", this.schema);
    for (SqlDialect d : SqlDialect.values()) {
      engines.put(d, new SqlEngines(d, this.schema));
    }
  }

  /** Makes {@code values} the table's one row. */
  SqlAgreement row(Object... values) throws Exception {
    row = Row.of(values);
    for (SqlEngines e : engines.values()) {
      e.load(row);
    }
    return this;
  }

  /** Asserts that ours, SQLite and H2 all compute {@code expected} (canonical) for {@code e}. */
  void agree(Expr e, Object expected) throws Exception {
    agree(e, expected, SqlDialect.values());
  }

  /** As {@link #agree(Expr, Object)}, against the given engines only. */
  void agree(Expr e, Object expected, SqlDialect... dialects) throws Exception {
    Object ours = ExprCompiler.compile(e, scope).eval(row);
    Object want = dev.rivulet.engine.Values.canonical(expected);
    assertThat(ours).as("ours: %s over %s", ExprText.of(e), row).isEqualTo(want);
    ColumnType type = TypeChecker.typeOf(e, scope, "expression");
    for (SqlDialect d : dialects) {
      String sql = SqlRenderer.render(e, d, scope, "expression", c -> c.column());
      Object theirs = engines.get(d).eval(sql, type);
      assertThat(theirs).as("%s: SELECT %s FROM t over %s", d, sql, row).isEqualTo(want);
    }
  }

  /** The static type of {@code e} over the table's columns. */
  ColumnType type(Expr e) {
    return TypeChecker.typeOf(e, scope, "expression");
  }

  /** Runs raw SQL in one engine over the row (for checks of the engines' own behaviour). */
  Object raw(SqlDialect d, String sql, ColumnType type) throws Exception {
    return engines.get(d).eval(sql, type);
  }

  @Override
  public void close() throws Exception {
    for (SqlEngines e : engines.values()) {
      e.close();
    }
  }
}
