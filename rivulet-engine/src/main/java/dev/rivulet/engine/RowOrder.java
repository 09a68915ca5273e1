package dev.rivulet.engine;

import java.util.Comparator;

/**
 * A total order over rows: the sort keys (column, direction, null placement) and then the whole
 * row in {@link Row#compareTo} order, so distinct rows never tie and every window is
 * deterministic. Immutable.
 */
final class RowOrder implements Comparator<Row> {
  private final int[] columns;
  private final boolean[] descending;
  private final boolean[] nullsFirst;

  RowOrder(int[] columns, boolean[] descending, boolean[] nullsFirst) {
    this.columns = columns;
    this.descending = descending;
    this.nullsFirst = nullsFirst;
  }

  @Override
  public int compare(Row a, Row b) {
    for (int i = 0; i < columns.length; i++) {
      Object x = a.get(columns[i]);
      Object y = b.get(columns[i]);
      if (x == y) {
        continue;
      }
      if (x == null || y == null) {
        return (x == null) == nullsFirst[i] ? -1 : 1;
      }
      int c = Values.compare(x, y);
      if (c != 0) {
        return descending[i] ? -c : c;
      }
    }
    return a.compareTo(b);
  }
}
