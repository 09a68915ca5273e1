package dev.rivulet.query;

import dev.rivulet.engine.Row;
import java.util.List;

/**
 * A live window as it stands at transaction {@code txId}: its rows in order, each with its index
 * and cursor. Immutable.
 */
public record WindowSnapshot(long txId, List<Entry> rows) {
  /** One row of the window. */
  public record Entry(int index, Row key, Row row, Cursor cursor) {}

  public WindowSnapshot {
    rows = List.copyOf(rows);
  }

  /** The cursor of the last row (to page on from), or null when the window is empty. */
  public Cursor lastCursor() {
    return rows.isEmpty() ? null : rows.get(rows.size() - 1).cursor();
  }
}
