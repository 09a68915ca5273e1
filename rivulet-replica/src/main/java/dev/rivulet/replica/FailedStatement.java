package dev.rivulet.replica;

import dev.rivulet.engine.Row;
import dev.rivulet.query.LiveCollection;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What a SQLite statement that failed outside a transaction left behind. SQLite undoes such a
 * statement when its conflict resolution is ABORT (the default) or ROLLBACK, but under FAIL ({@code
 * OR FAIL}, a constraint's {@code ON CONFLICT FAIL}, a trigger's {@code RAISE(FAIL, ...)}) it keeps
 * and commits the rows the statement changed before it failed. {@link #reconcile} replaces the
 * statement's captured changes with the database's rows, as they are now, of the keys those changes
 * touched, each kept only where it differs from the row the replica holds (a mirror's, or a lazy
 * table's loaded row; a key nobody holds and the table lacks is left out): published, they bring
 * the replica to what the database committed, and nothing when the statement was undone.
 *
 * <p>Used only after such a failure (inside a transaction each statement runs under a savepoint
 * instead, and H2 undoes a failed statement itself); owned by the replica, under its monitor.
 */
final class FailedStatement {
  private final Connection conn;
  private final Backend backend;
  private final Mirrors mirrors;
  private final LazyTables lazy;

  FailedStatement(Connection conn, Backend backend, Mirrors mirrors, LazyTables lazy) {
    this.conn = conn;
    this.backend = backend;
    this.mirrors = mirrors;
    this.lazy = lazy;
  }

  /** Replaces the changes in {@code capture} (all of them the failed statement's) as the class comment says. */
  void reconcile(CaptureBuffer capture) throws SQLException {
    Map<String, Set<Row>> touched = new LinkedHashMap<>();
    for (int i = 0; i < capture.size(); i++) {
      TableInfo t = mirrors.table(capture.table(i));
      int[] keys = t.schema().indexesOf(t.keys());
      Set<Row> k = touched.computeIfAbsent(t.name(), n -> new LinkedHashSet<>());
      Row before = capture.keyBefore(i, keys);
      if (before != null) {
        k.add(before.canonical());
      }
      if (capture.after(i) != null) {
        k.add(capture.after(i).project(keys).canonical());
      }
    }
    capture.clear();
    for (Map.Entry<String, Set<Row>> e : touched.entrySet()) {
      TableInfo t = mirrors.table(e.getKey());
      for (Row key : e.getValue()) {
        Row now = read(t, key);
        if (!Objects.equals(now, held(t.name(), key))) {
          capture.add(t.name(), key, now); // the key's row now: written, or deleted when null
        }
      }
    }
  }

  /** The row the replica holds at {@code key} of {@code table} (canonical), or null. */
  private Row held(String table, Row key) {
    LiveCollection c = mirrors.get(table);
    if (c == null) {
      c = lazy.collection(table);
    }
    Optional<Row> r = c == null ? Optional.empty() : c.get(key);
    return r.map(Row::canonical).orElse(null);
  }

  /** The row of {@code t} at {@code key} in the database now, or null. */
  private Row read(TableInfo t, Row key) throws SQLException {
    StringBuilder sql = new StringBuilder("SELECT * FROM ").append(backend.qualified(t.name())).append(" WHERE ");
    for (int i = 0; i < t.keys().size(); i++) {
      sql.append(i == 0 ? "" : " AND ").append(TableInfo.quote(t.keys().get(i))).append(" IS ?");
    }
    try (PreparedStatement ps = conn.prepareStatement(sql.toString())) {
      for (int i = 0; i < key.width(); i++) {
        ps.setObject(i + 1, SqlLazySource.jdbc(key.get(i)));
      }
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return null;
        }
        Object[] values = new Object[t.columns().size()];
        for (int i = 0; i < values.length; i++) {
          values[i] = CaptureBuffer.plain(rs.getObject(i + 1));
        }
        return Row.of(values);
      }
    }
  }
}
