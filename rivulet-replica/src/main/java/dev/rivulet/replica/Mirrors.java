package dev.rivulet.replica;

import dev.rivulet.engine.Row;
import dev.rivulet.query.SourceCollection;
import dev.rivulet.query.SyncTransaction;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A replica's tables as it last read them from the database, and the mirror collection of each
 * eagerly mirrored one (a table with a primary key that is not lazy), with the column indexes of
 * its key; hands a committed transaction's captured changes to those mirrors.
 *
 * <p>Owned by its replica: used under the replica's monitor (the replica, its {@link SchemaSync}).
 */
final class Mirrors {
  private final Map<String, TableInfo> tables = new LinkedHashMap<>();
  private final Map<String, SourceCollection> collections = new HashMap<>();
  private final Map<String, int[]> keyIndexes = new HashMap<>();

  /** Sets the tables read from the database (in name order), forgetting the earlier ones. */
  void tables(List<TableInfo> read) {
    tables.clear();
    for (TableInfo t : read) {
      tables.put(t.name(), t);
    }
  }

  /** The tables, by name, in name order (read-only). */
  Map<String, TableInfo> tables() {
    return Collections.unmodifiableMap(tables);
  }

  TableInfo table(String name) {
    return tables.get(name);
  }

  /** Mirrors {@code t} into {@code c}. */
  void put(TableInfo t, SourceCollection c) {
    collections.put(t.name(), c);
    keyIndexes.put(t.name(), t.schema().indexesOf(t.keys()));
  }

  /** Stops mirroring table {@code name}; returns its mirror, or null when it had none. */
  SourceCollection remove(String name) {
    keyIndexes.remove(name);
    return collections.remove(name);
  }

  /** The mirror of table {@code name}, or null when it is not mirrored eagerly. */
  SourceCollection get(String name) {
    return collections.get(name);
  }

  boolean has(String name) {
    return collections.containsKey(name);
  }

  boolean isEmpty() {
    return collections.isEmpty();
  }

  /** The names of the eagerly mirrored tables. */
  Set<String> names() {
    return collections.keySet();
  }

  /** The mirror collections. */
  Collection<SourceCollection> collections() {
    return collections.values();
  }

  /**
   * Publishes {@code c}, a committed transaction's only change, as a transaction of its own when it
   * is a write (an insert, or an update that kept its key) of an eagerly mirrored table, through
   * {@link SourceCollection#syncWrite} (no sync transaction or batch is made); returns false,
   * publishing nothing, for any other change. It publishes what {@link #apply} of the one change
   * in a sync transaction of its own would.
   */
  boolean writeAlone(CaptureBuffer.Changed c) {
    if (c.after() == null || c.oldKey() != null && !c.keyKept()) {
      return false; // a delete, or an update that may have moved the key: apply() compares the keys
    }
    SourceCollection m = collections.get(c.table());
    if (m == null) {
      return false; // a lazy table's
    }
    m.syncWrite(c.after());
    return true;
  }

  /**
   * Adds to {@code tx} the changes of {@code changes} to eagerly mirrored tables, in capture
   * order: a row whose key changed, or that went, loses its old key; a row written is written
   * whole (a row the commit kept at its key replaces the one there).
   */
  void apply(List<CaptureBuffer.Changed> changes, SyncTransaction tx) {
    for (CaptureBuffer.Changed c : changes) {
      SourceCollection m = collections.get(c.table());
      if (m == null) {
        continue; // a lazy table's (LazyTables publishes it)
      }
      Row oldKey = c.oldKey();
      boolean moved = oldKey != null && !c.keyKept()
          && (c.after() == null || !oldKey.equals(c.after().project(keyIndexes.get(c.table()))));
      if (moved) {
        tx.delete(m, oldKey); // the key changed (or the row went): its old key goes
      }
      if (c.after() != null) {
        tx.write(m, c.after());
      }
    }
  }
}
