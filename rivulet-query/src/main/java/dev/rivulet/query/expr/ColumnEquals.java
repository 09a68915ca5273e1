package dev.rivulet.query.expr;

import dev.rivulet.engine.Row;
import java.util.function.Predicate;

/**
 * The where-test {@code column = literal} (either way round) with a non-NULL literal: TRUE exactly
 * when the row's value equals the literal, so one call per row instead of the general tree's
 * compare, two evaluations and a boxed result. Canonical values are equal exactly when {@code
 * equals} says so, symmetrically, and a NULL value is never equal: the same rows pass as through
 * the general comparison. Immutable.
 */
record ColumnEquals(int column, Object value) implements Predicate<Row> {
  @Override
  public boolean test(Row row) {
    return value.equals(row.get(column));
  }
}
