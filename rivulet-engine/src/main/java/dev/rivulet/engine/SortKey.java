package dev.rivulet.engine;

import java.util.Objects;

/**
 * One key of an ordering: a column, a direction and where nulls go. By default nulls sort as if
 * larger than every value (last when ascending, first when descending), as in PostgreSQL.
 */
public record SortKey(String column, boolean descending, boolean nullsFirst) {
  public SortKey {
    Objects.requireNonNull(column, "sort column");
  }

  public static SortKey asc(String column) {
    return new SortKey(column, false, false);
  }

  public static SortKey desc(String column) {
    return new SortKey(column, true, true);
  }

  public SortKey withNullsFirst() {
    return new SortKey(column, descending, true);
  }

  public SortKey withNullsLast() {
    return new SortKey(column, descending, false);
  }

  @Override
  public String toString() {
    return column + (descending ? " DESC" : " ASC") + (nullsFirst ? " NULLS FIRST" : " NULLS LAST");
  }
}
