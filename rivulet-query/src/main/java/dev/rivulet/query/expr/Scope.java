package dev.rivulet.query.expr;

import dev.rivulet.engine.ColumnType;
import dev.rivulet.query.Expr;
import dev.rivulet.query.QueryException;

/**
 * Resolves the column references of one query block to positions in the rows that flow through
 * it. Implemented by the analyzer per block (and by tests).
 */
public interface Scope {
  /** Where a resolved column sits and what it holds. */
  record Slot(int index, ColumnType type, boolean nullable) {}

  /**
   * Resolves {@code col}.
   *
   * @param clause the clause being checked, for the error message (e.g. {@code "where"})
   * @throws QueryException naming the clause, the alias and the column when it does not resolve
   */
  Slot resolve(Expr.Col col, String clause);
}
