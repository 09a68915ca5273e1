package dev.rivulet.replica;

import dev.rivulet.query.LiveQuery;
import dev.rivulet.query.Query;
import dev.rivulet.query.Rivulet;
import dev.rivulet.query.Source;
import dev.rivulet.query.SourceCollection;
import dev.rivulet.query.SyncTransaction;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Keeps a replica's mirrors in step with the database's schema around each schema-changing
 * statement: {@link #before} takes capture off for an ALTER (SQLite refuses to drop a column a
 * trigger names); {@link #after} re-reads the tables and, against what the replica mirrored,
 * mirrors the new tables that have a primary key, replaces the mirror of each altered table by a
 * new one loaded with the new columns (re-creating the live queries over it, {@link
 * ReplicaQueries#requery}), closes the mirrors of dropped tables (the live queries reading them
 * fail, naming the table) and re-installs capture; {@link #tell} then tells the listeners.
 *
 * <p>Owned by its replica: used under the replica's monitor, with the replica's {@link Mirrors}
 * (shared by reference). Listeners may be added from any thread (a copy-on-write list).
 */
final class SchemaSync {
  private final Connection conn;
  private final Backend backend;
  private final Rivulet db;
  private final CaptureBuffer capture;
  private final Mirrors mirrors;
  private final ReplicaQueries queries;
  private final LazyTables lazy;
  private final List<Consumer<SchemaChange>> listeners = new CopyOnWriteArrayList<>();

  SchemaSync(Connection conn, Backend backend, Rivulet db, CaptureBuffer capture, Mirrors mirrors,
      ReplicaQueries queries, LazyTables lazy) {
    this.conn = conn;
    this.lazy = lazy;
    this.backend = backend;
    this.db = db;
    this.capture = capture;
    this.mirrors = mirrors;
    this.queries = queries;
  }

  void listen(Consumer<SchemaChange> listener) {
    listeners.add(listener);
  }

  /** Before schema-changing statement {@code sql} runs. */
  void before(String sql) throws SQLException {
    if (SchemaStatements.alters(sql)) {
      backend.uninstall(conn);
    }
  }

  /**
   * After schema-changing statement {@code sql} ran (or failed), its captured changes published:
   * see the class doc. A TRUNCATE (which fires no triggers in H2) also re-reads the rows of the
   * tables that stay mirrored, publishing the difference.
   */
  SchemaChange after(String sql) throws SQLException {
    List<TableInfo> read = backend.discover(conn);
    Map<String, TableInfo> next = new LinkedHashMap<>();
    for (TableInfo t : read) {
      next.put(t.name(), t);
    }
    Map<String, TableInfo> tables = mirrors.tables();
    List<String> created = new ArrayList<>();
    List<String> altered = new ArrayList<>();
    List<String> dropped = new ArrayList<>();
    for (TableInfo old : tables.values()) {
      TableInfo now = next.get(old.name());
      if (now == null) {
        dropped.add(old.name());
      } else if (!now.equals(old)) {
        altered.add(old.name());
      }
    }
    for (String name : next.keySet()) {
      if (!tables.containsKey(name)) {
        created.add(name);
      }
    }
    Map<Source, Source> replaced = new IdentityHashMap<>();
    List<SourceCollection> retired = new ArrayList<>();
    List<String> gone = new ArrayList<>(dropped);
    gone.addAll(altered);
    for (String name : gone) {
      lazy.retire(name); // its live queries fail naming it; an altered one comes back as an eager mirror
      SourceCollection old = mirrors.remove(name);
      if (old != null) {
        retired.add(old);
        replaced.put(old, null);
      }
    }
    mirrors.tables(read);
    List<String> fresh = new ArrayList<>(created);
    fresh.addAll(altered);
    if (SchemaStatements.firstWord(sql).equals("TRUNCATE")) {
      reload();
    }
    load(fresh, retired, replaced);
    List<SchemaChange.Requery> requeried = queries.requery(replaced, this::create);
    for (SourceCollection c : retired) {
      c.close(); // the live queries still reading it fail, naming it
    }
    backend.uninstall(conn);
    List<TableInfo> mirrored = new ArrayList<>();
    for (TableInfo t : mirrors.tables().values()) {
      if (mirrors.has(t.name()) || lazy.has(t.name())) {
        mirrored.add(t);
      }
    }
    backend.install(conn, mirrored, capture);
    return new SchemaChange(created, altered, dropped, requeried);
  }

  /** Tells the listeners of {@code change}, unless it changed no table. */
  void tell(SchemaChange change) {
    if (!change.isEmpty()) {
      for (Consumer<SchemaChange> l : listeners) {
        l.accept(change);
      }
    }
  }

  /** Mirrors each of {@code names} that has a primary key, in one published transaction. */
  private void load(List<String> names, List<SourceCollection> retired, Map<Source, Source> replaced)
      throws SQLException {
    SyncTransaction load = null;
    for (String name : names) {
      TableInfo t = mirrors.table(name);
      if (t.keys().isEmpty()) {
        continue;
      }
      load = load == null ? db.beginSync() : load;
      SourceCollection c = MirrorLoader.load(db, conn, backend, t, load);
      mirrors.put(t, c);
      for (SourceCollection old : retired) {
        if (old.name().equals(name)) {
          replaced.put(old, c);
        }
      }
    }
    if (load != null) {
      load.commit();
    }
  }

  /** Re-reads the rows of every mirror, as one published transaction of the differences. */
  private void reload() throws SQLException {
    if (mirrors.isEmpty()) {
      return;
    }
    SyncTransaction tx = db.beginSync();
    for (String name : mirrors.names()) {
      SourceCollection m = mirrors.get(name);
      tx.truncate(m);
      MirrorLoader.rows(conn, backend, mirrors.table(name), m, tx);
    }
    tx.commit();
  }

  private LiveQuery create(String name, Query query) {
    return db.liveQuery(name, query);
  }
}
