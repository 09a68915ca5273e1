package dev.rivulet.query;

import dev.rivulet.engine.Row;
import java.util.Arrays;

/**
 * The change a collection made in the running transaction, in the form its readers consume
 * (weighted source rows), kept in reused arrays so a transaction allocates no change set.
 *
 * <p>Not thread-safe: owned by one collection, guarded by its database's monitor.
 */
final class ChangeBuffer {
  private static final int KEEP = 1024;
  private Row[] rows = new Row[4];
  private long[] weights = new long[4];
  private int size;

  void add(Row row, long weight) {
    if (size == rows.length) {
      rows = Arrays.copyOf(rows, size * 2);
      weights = Arrays.copyOf(weights, size * 2);
    }
    rows[size] = row;
    weights[size] = weight;
    size++;
  }

  int size() {
    return size;
  }

  boolean isEmpty() {
    return size == 0;
  }

  Row row(int i) {
    return rows[i];
  }

  long weight(int i) {
    return weights[i];
  }

  /** Empties the buffer; one grown by a large transaction shrinks back. */
  void clear() {
    if (rows.length > KEEP) {
      rows = new Row[4];
      weights = new long[4];
    } else {
      Arrays.fill(rows, 0, size, null);
    }
    size = 0;
  }
}
