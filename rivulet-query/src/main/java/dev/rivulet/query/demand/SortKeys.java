package dev.rivulet.query.demand;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Values;
import java.util.Comparator;

/**
 * The total order of a subset request within one value: the order columns, each in its
 * direction (NULL first ascending, last descending), then the key columns ascending. A row's sort
 * key is those values in that sequence, which is also the shape of a keyset cursor. Immutable.
 */
public final class SortKeys implements Comparator<Row> {
  private final int[] positions; // order columns, then key columns, in the row
  private final boolean[] descending; // per order column

  public SortKeys(int[] orderColumns, boolean[] descending, int[] keyColumns) {
    this.positions = new int[orderColumns.length + keyColumns.length];
    System.arraycopy(orderColumns, 0, positions, 0, orderColumns.length);
    System.arraycopy(keyColumns, 0, positions, orderColumns.length, keyColumns.length);
    this.descending = descending.clone();
  }

  /** How many values a sort key (and a cursor) has. */
  public int width() {
    return positions.length;
  }

  /** The sort key of a row. */
  public Row of(Row row) {
    return row.project(positions);
  }

  /** Compares two sort keys. */
  @Override
  public int compare(Row a, Row b) {
    for (int i = 0; i < positions.length; i++) {
      int c = Values.compare(a.get(i), b.get(i));
      if (c != 0) {
        return i < descending.length && descending[i] ? -c : c;
      }
    }
    return 0;
  }
}
