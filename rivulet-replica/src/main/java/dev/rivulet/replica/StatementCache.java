package dev.rivulet.replica;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The write connection's prepared statements by SQL text, so that a statement run again is not
 * parsed and planned again (for SQLite that includes compiling the capture triggers into it). At
 * most {@code capacity} are kept; the least recently used one is closed when a new one comes.
 * {@link #close} closes them all (before the connection closes).
 *
 * <p>Owned by the replica's write connection: used only under the replica's monitor.
 */
final class StatementCache implements AutoCloseable {
  private final Connection conn;
  private final int capacity;
  private final LinkedHashMap<String, Prepared> statements;
  private long prepared; // how many statements were prepared (misses), for tests
  // the statement cached() last found, by the identity of its SQL text: a statement run again and
  // again (a constant string) skips the map; it is the most recently used already, so the map's
  // access order needs no update
  private String lastSql;
  private Prepared last;
  private long lastHits; // how many cached() calls found the last statement so, for tests

  StatementCache(Connection conn, int capacity) {
    this.conn = conn;
    this.capacity = capacity;
    this.statements = new LinkedHashMap<>(16, 0.75f, true); // access order: the eldest is the least recently used
  }

  /** A kept statement and how many parameters it takes. */
  record Prepared(PreparedStatement statement, int parameters) {}

  /** The prepared statement of {@code sql} run before, or null when there is none. */
  Prepared cached(String sql) {
    if (sql == lastSql) {
      lastHits++;
      return last;
    }
    Prepared p = statements.get(sql);
    if (p != null) {
      lastSql = sql;
      last = p;
    }
    return p;
  }

  /** Prepares {@code sql} and keeps it (closing the least recently used statement past the capacity). */
  Prepared prepare(String sql) throws SQLException {
    PreparedStatement ps = conn.prepareStatement(sql);
    Prepared p;
    try {
      p = new Prepared(ps, ps.getParameterMetaData().getParameterCount());
    } catch (SQLException | RuntimeException e) {
      ps.close();
      throw e;
    }
    prepared++;
    lastSql = null; // the eldest, closed below, may be the one cached() last found
    statements.put(sql, p);
    if (statements.size() > capacity) {
      Iterator<Map.Entry<String, Prepared>> eldest = statements.entrySet().iterator();
      PreparedStatement old = eldest.next().getValue().statement();
      eldest.remove();
      old.close();
    }
    return p;
  }

  /** The prepared statement of {@code sql}: the cached one, or a new one. */
  PreparedStatement get(String sql) throws SQLException {
    Prepared p = statements.get(sql);
    return (p != null ? p : prepare(sql)).statement();
  }

  /** How many statements were prepared since this cache was made (the others were reused). */
  long preparedCount() {
    return prepared;
  }

  /** How many {@link #cached} calls found the statement found last by its SQL text's identity, for tests. */
  long lastHits() {
    return lastHits;
  }

  int size() {
    return statements.size();
  }

  @Override
  public void close() throws SQLException {
    SQLException failed = null;
    for (Prepared p : statements.values()) {
      try {
        p.statement().close();
      } catch (SQLException e) {
        if (failed == null) {
          failed = e;
        } else {
          failed.addSuppressed(e);
        }
      }
    }
    statements.clear();
    lastSql = null;
    last = null;
    if (failed != null) {
      throw failed;
    }
  }
}
