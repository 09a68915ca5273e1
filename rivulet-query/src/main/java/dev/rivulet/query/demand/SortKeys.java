package dev.rivulet.query.demand;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Values;
import java.util.Comparator;

/**
 * The total order of a subset request within one value: the order columns, each in its
 * direction with its NULL placement, then the key columns ascending. A row's sort key is those
 * values in that sequence, which is also the shape of a keyset cursor. As a {@link Comparator}
 * it compares sort keys; {@link #compareRows} compares whole rows without projecting them.
 * Immutable.
 */
public final class SortKeys implements Comparator<Row> {
  private final int[] positions; // order columns, then key columns, in the row
  private final boolean[] descending; // per order column
  private final boolean[] nullsFirst; // per order column

  public SortKeys(int[] orderColumns, boolean[] descending, boolean[] nullsFirst, int[] keyColumns) {
    this.positions = new int[orderColumns.length + keyColumns.length];
    System.arraycopy(orderColumns, 0, positions, 0, orderColumns.length);
    System.arraycopy(keyColumns, 0, positions, orderColumns.length, keyColumns.length);
    this.descending = descending.clone();
    this.nullsFirst = nullsFirst.clone();
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
      int c = compareAt(i, a.get(i), b.get(i));
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  /** Compares two rows by their sort keys. */
  public int compareRows(Row a, Row b) {
    for (int i = 0; i < positions.length; i++) {
      int c = compareAt(i, a.get(positions[i]), b.get(positions[i]));
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  /** Compares row {@code row}'s sort key with sort key {@code key}. */
  public int compareRowToKey(Row row, Row key) {
    for (int i = 0; i < positions.length; i++) {
      int c = compareAt(i, row.get(positions[i]), key.get(i));
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  private int compareAt(int i, Object x, Object y) {
    if (i >= descending.length) {
      return Values.compare(x, y); // a key column
    }
    if (x == null || y == null) {
      if (x == y) {
        return 0;
      }
      return (x == null) == nullsFirst[i] ? -1 : 1;
    }
    int c = Values.compare(x, y);
    return descending[i] ? -c : c;
  }
}
