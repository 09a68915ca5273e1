package dev.rivulet.engine;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;

/**
 * A canonical value that holds an ordered list of rows: what a nested result (an include) puts in
 * its parent's column inside the graph. Immutable; equality and hashing are by content, and its
 * place in the total order of {@link Values#compare} is after every other kind, lists comparing
 * lexicographically by their rows ({@link Row#compareTo}), then by length.
 */
public final class RowList extends AbstractList<Row> implements RandomAccess, Comparable<RowList> {
  private static final RowList EMPTY = new RowList(new Row[0]);
  private final Row[] rows;
  private int hash; // computed on first use (racy but idempotent)

  private RowList(Row[] rows) {
    this.rows = rows;
  }

  /** The empty list. */
  public static RowList empty() {
    return EMPTY;
  }

  /** A list of {@code rows}, copied; each row is held in its canonical form. */
  public static RowList of(List<Row> rows) {
    if (rows.isEmpty()) {
      return EMPTY;
    }
    Row[] copy = new Row[rows.size()];
    for (int i = 0; i < copy.length; i++) {
      copy[i] = rows.get(i).canonical();
    }
    return new RowList(copy);
  }

  /** A list holding {@code canonical} itself (canonical rows, not copied; the caller lets go of the array). */
  static RowList wrap(Row[] canonical) {
    return canonical.length == 0 ? EMPTY : new RowList(canonical);
  }

  public static RowList of(Row... rows) {
    return of(Arrays.asList(rows));
  }

  @Override
  public Row get(int index) {
    return rows[index];
  }

  @Override
  public int size() {
    return rows.length;
  }

  @Override
  public boolean equals(Object o) {
    return o == this || o instanceof RowList l && l.hashCode() == hashCode() && Arrays.equals(rows, l.rows);
  }

  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0) {
      h = Arrays.hashCode(rows);
      hash = h;
    }
    return h;
  }

  @Override
  public int compareTo(RowList other) {
    int n = Math.min(rows.length, other.rows.length);
    for (int i = 0; i < n; i++) {
      int c = rows[i].compareTo(other.rows[i]);
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(rows.length, other.rows.length);
  }

  @Override
  public String toString() {
    return Arrays.toString(rows);
  }
}
