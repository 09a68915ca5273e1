package dev.rivulet.query.state;

import dev.rivulet.engine.Row;
import java.util.Arrays;

/**
 * The change a collection made in the running transaction, in the form its readers consume
 * (weighted source rows), kept in reused arrays so a transaction allocates no change set.
 *
 * <p>Not thread-safe: owned by one collection, guarded by its database's monitor.
 */
public final class ChangeBuffer {
  private static final int KEEP = 1024;
  private Row[] rows = new Row[4];
  private long[] weights = new long[4];
  private int size;

  public void add(Row row, long weight) {
    if (size == rows.length) {
      rows = Arrays.copyOf(rows, size * 2);
      weights = Arrays.copyOf(weights, size * 2);
    }
    rows[size] = row;
    weights[size] = weight;
    size++;
  }

  public int size() {
    return size;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  public Row row(int i) {
    return rows[i];
  }

  public long weight(int i) {
    return weights[i];
  }

  /** Empties the buffer; one grown by a large transaction shrinks back. */
  public void clear() {
    if (rows.length > KEEP) {
      rows = new Row[4];
      weights = new long[4];
    } else {
      Arrays.fill(rows, 0, size, null);
    }
    size = 0;
  }
}
