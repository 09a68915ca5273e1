package dev.rivulet.replica;

import dev.rivulet.engine.Row;
import dev.rivulet.query.LazyCollection;
import dev.rivulet.query.Rivulet;
import dev.rivulet.query.SourceChange;
import dev.rivulet.query.SyncTransaction;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * The lazy tables of a replica (see {@link ReplicaOptions#lazy}): a {@link LazyCollection} over a
 * {@link SqlLazySource} per table. Owned by the replica, under its monitor.
 */
final class LazyTables {
  private final Map<String, LazyCollection> collections = new LinkedHashMap<>();
  private final Map<String, SqlLazySource> sources = new LinkedHashMap<>();
  private final Map<String, int[]> keyIndexes = new LinkedHashMap<>();

  /**
   * Makes {@code tables} lazy collections of {@code db}.
   *
   * @throws IllegalArgumentException naming a lazy table that does not exist or has no primary key
   */
  LazyTables(Rivulet db, Backend backend, Connection conn, Object replicaLock, BooleanSupplier inTransaction,
      Map<String, TableInfo> tables, ReplicaOptions options) {
    for (String name : options.lazyTables()) {
      TableInfo t = tables.get(name);
      if (t == null || t.keys().isEmpty()) {
        throw new IllegalArgumentException(t == null
            ? "lazy table '" + name + "': no such table in the database; tables: " + tables.keySet()
            : "lazy table '" + name + "': it has no primary key");
      }
      SqlLazySource source = new SqlLazySource(t, backend.qualified(name), conn, replicaLock, inTransaction);
      sources.put(name, source);
      collections.put(name, db.lazyCollection(name, t.schema(), t.keys(), source));
      keyIndexes.put(name, t.schema().indexesOf(t.keys()));
    }
  }

  boolean has(String table) {
    return collections.containsKey(table);
  }

  /** The lazy collection of {@code table}, or null when it is not lazy. */
  LazyCollection collection(String table) {
    return collections.get(table);
  }

  /** The source of {@code table}, or null when it is not lazy. */
  SqlLazySource source(String table) {
    return sources.get(table);
  }

  /**
   * Adds a committed transaction's changes of the lazy tables to {@code tx}, which publishes them
   * with the eager tables' changes as one transaction: one list per table in capture order (a
   * changed key becomes a removal and an addition).
   *
   * <p>Capture hands over only a changed row's old key; its old values are the row as this commit
   * left it so far, or as the collection holds it. A row the collection does not hold is in no
   * loaded bucket, so its old values do not matter beyond its key (they are left NULL).
   */
  void publish(CaptureBuffer changes, SyncTransaction tx) {
    if (sources.isEmpty()) {
      return;
    }
    Map<String, List<SourceChange>> byTable = new LinkedHashMap<>();
    Map<String, Map<Row, Row>> latest = new HashMap<>(); // per table: key -> row as this commit left it (null: gone)
    for (int i = 0, n = changes.size(); i < n; i++) {
      String table = changes.table(i);
      int[] keys = keyIndexes.get(table);
      if (keys == null) {
        continue;
      }
      List<SourceChange> out = byTable.computeIfAbsent(table, t -> new ArrayList<>());
      Map<Row, Row> rows = latest.computeIfAbsent(table, t -> new HashMap<>());
      Row oldKey = changes.keyBefore(i, keys);
      Row before = oldKey == null ? null : oldRow(table, oldKey, keys, rows);
      Row after = changes.after(i);
      boolean keyKept = changes.keyKept(i);
      Row newKey = after == null ? null : keyKept ? oldKey : after.project(keys); // projected once
      if (before != null) {
        rows.put(oldKey.canonical(), null);
      }
      if (after != null) {
        rows.put(newKey.canonical(), after);
      }
      if (before != null && after != null && (keyKept || oldKey.equals(newKey))) {
        out.add(new SourceChange.Edit(after, before));
      } else {
        if (before != null) {
          out.add(new SourceChange.Remove(before));
        }
        if (after != null) {
          out.add(new SourceChange.Add(after));
        }
      }
    }
    byTable.forEach((table, list) -> tx.sourceChanged(collections.get(table), list));
  }

  private Row oldRow(String table, Row oldKey, int[] keys, Map<Row, Row> earlier) {
    Row key = oldKey.canonical();
    if (earlier.containsKey(key)) {
      Row r = earlier.get(key);
      if (r != null) {
        return r.canonical();
      }
    } else {
      Optional<Row> held = collections.get(table).get(key);
      if (held.isPresent()) {
        return held.get().canonical(); // the stored values, not their typed presentation
      }
    }
    Object[] values = new Object[collections.get(table).schema().width()];
    for (int i = 0; i < keys.length; i++) {
      values[keys[i]] = oldKey.get(i);
    }
    return Row.of(values);
  }

  /**
   * Stops table {@code name} being lazy after a schema change altered or dropped it: its collection
   * is closed (the live queries reading it fail, naming it) and its source stops. No-op when it is
   * not lazy.
   */
  void retire(String name) {
    LazyCollection c = collections.remove(name);
    if (c != null) {
      keyIndexes.remove(name);
      sources.remove(name).close();
      c.close();
    }
  }

  void close() {
    sources.values().forEach(SqlLazySource::close);
  }
}
