package dev.rivulet.query.compile;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Values;
import dev.rivulet.query.Cursor;
import java.util.function.Predicate;

/**
 * Keeps the rows strictly after a {@link Cursor} in a total order: columns compared in turn, each
 * by its direction, NULL placed first or last as its sort key says (the order the top-K window
 * keeps). Immutable.
 */
final class CursorFilter implements Predicate<Row> {
  private final int[] columns;
  private final boolean[] descending;
  private final boolean[] nullsFirst;
  private final Object[] cursor;

  CursorFilter(int[] columns, boolean[] descending, boolean[] nullsFirst, Cursor cursor) {
    this.columns = columns;
    this.descending = descending;
    this.nullsFirst = nullsFirst;
    this.cursor = cursor.values().toArray();
  }

  @Override
  public boolean test(Row row) {
    for (int i = 0; i < columns.length; i++) {
      Object x = row.get(columns[i]);
      Object y = cursor[i];
      if (x == null && y == null) {
        continue;
      }
      if (x == null || y == null) {
        return (x == null) != nullsFirst[i]; // a NULL row value is after the cursor when NULLs go last
      }
      int c = Values.compare(x, y);
      if (c != 0) {
        return descending[i] ? c < 0 : c > 0;
      }
    }
    return false; // equal to the cursor: not strictly after it
  }
}
