package dev.rivulet.query;

import dev.rivulet.engine.Row;

/**
 * The rows a source collection stores, read as stored (canonical, not typed for readers): for a
 * writer that builds a key's next row from its current one (the replica's capture of changed
 * columns). Stateless.
 */
public final class StoredRows {
  private StoredRows() {}

  /**
   * The row {@code c} stores at {@code key} (canonical values, as its key columns' values), or
   * null when it holds none. Takes {@code c}'s database monitor.
   */
  public static Row get(SourceCollection c, Row key) {
    synchronized (c.db) {
      return c.rows.get(key);
    }
  }
}
