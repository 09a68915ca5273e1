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
  // the table writeAlone last published and its mirror: a capture hands over the same name
  // instance on every change of its table, so the usual run of writes to one table skips the map
  private String lastTable;
  private SourceCollection lastMirror;

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
    lastTable = null;
    collections.put(t.name(), c);
    keyIndexes.put(t.name(), t.schema().indexesOf(t.keys()));
  }

  /** Stops mirroring table {@code name}; returns its mirror, or null when it had none. */
  SourceCollection remove(String name) {
    lastTable = null;
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
   * Publishes the only change of {@code changes}, a committed transaction's, as a transaction of
   * its own when it is a write (an insert, or an update that kept its key) of an eagerly mirrored
   * table, through {@link SourceCollection#syncWrite} (no sync transaction or batch is made);
   * returns false, publishing nothing, for any other change. It publishes what {@link #apply} of
   * the one change in a sync transaction of its own would.
   */
  boolean writeAlone(CaptureBuffer changes) {
    Row after = changes.after(0);
    if (after == null || changes.oldKey(0) != null && !changes.keyKept(0)) {
      return false; // a delete, or an update that may have moved the key: apply() compares the keys
    }
    String table = changes.table(0);
    SourceCollection m;
    if (table == lastTable) {
      m = lastMirror;
    } else {
      m = collections.get(table);
      if (m == null) {
        return false; // a lazy table's
      }
      lastTable = table;
      lastMirror = m;
    }
    m.syncWrite(after);
    return true;
  }

  /**
   * Adds to {@code tx} the changes of {@code changes} to eagerly mirrored tables, in capture
   * order: a row whose key changed, or that went, loses its old key; a row written is written
   * whole (a row the commit kept at its key replaces the one there).
   */
  void apply(CaptureBuffer changes, SyncTransaction tx) {
    for (int i = 0, n = changes.size(); i < n; i++) {
      SourceCollection m = collections.get(changes.table(i));
      if (m == null) {
        continue; // a lazy table's (LazyTables publishes it)
      }
      Row oldKey = changes.oldKey(i);
      Row after = changes.after(i);
      boolean moved = oldKey != null && !changes.keyKept(i)
          && (after == null || !oldKey.equals(after.project(keyIndexes.get(changes.table(i)))));
      if (moved) {
        tx.delete(m, oldKey); // the key changed (or the row went): its old key goes
      }
      if (after != null) {
        tx.write(m, after);
      }
    }
  }
}
