package dev.rivulet.query.expr;

import dev.rivulet.engine.Row;
import java.util.function.Predicate;

/**
 * A where-test built only of column tests, {@code column IS [NOT] NULL} and {@code column =
 * non-NULL literal} (either way round), under AND and OR: one small class evaluates the whole
 * tree, where the general path builds a lambda per node ({@link ExprCompiler}), each a class a
 * fresh JVM spins up when the query is compiled.
 *
 * <p>Why it is exact: without NOT, a condition of AND and OR is TRUE exactly when, for OR, some
 * operand is TRUE and, for AND, every operand is (a NULL operand never makes it TRUE), so only
 * TRUE versus not TRUE is tracked; the leaves never fail (IS NULL is never NULL, and {@code =}
 * compares canonical values with {@code equals}, as {@link ColumnEquals} does). Immutable.
 */
final class ColumnTests implements Predicate<Row> {
  private static final int IS_NULL = 0;
  private static final int NOT_NULL = 1;
  private static final int EQUALS = 2;
  private static final int AND = 3;
  private static final int OR = 4;
  private final int kind;
  private final int column;
  private final Object value;
  private final ColumnTests[] args;

  private ColumnTests(int kind, int column, Object value, ColumnTests[] args) {
    this.kind = kind;
    this.column = column;
    this.value = value;
    this.args = args;
  }

  /** {@code column IS NULL}, or with {@code negated}, {@code IS NOT NULL}. */
  static ColumnTests isNull(int column, boolean negated) {
    return new ColumnTests(negated ? NOT_NULL : IS_NULL, column, null, null);
  }

  /** {@code column = value}; {@code value} is canonical and not null. */
  static ColumnTests equalTo(int column, Object value) {
    return new ColumnTests(EQUALS, column, value, null);
  }

  /** The conjunction ({@code and}) or disjunction of {@code args}. */
  static ColumnTests of(boolean and, ColumnTests[] args) {
    return new ColumnTests(and ? AND : OR, -1, null, args);
  }

  @Override
  public boolean test(Row row) {
    switch (kind) {
      case IS_NULL:
        return row.get(column) == null;
      case NOT_NULL:
        return row.get(column) != null;
      case EQUALS:
        return value.equals(row.get(column));
      case AND:
        for (ColumnTests a : args) {
          if (!a.test(row)) {
            return false;
          }
        }
        return true;
      default:
        for (ColumnTests a : args) {
          if (a.test(row)) {
            return true;
          }
        }
        return false;
    }
  }
}
