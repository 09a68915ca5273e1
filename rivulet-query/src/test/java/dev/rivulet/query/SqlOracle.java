package dev.rivulet.query;

import dev.rivulet.engine.Row;
import dev.rivulet.query.sql.SqlDialect;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The SQL side of one oracle run: an in-memory SQLite and/or H2 database with a table per
 * collection (and per live query that another query reads), each scenario query rendered once per
 * dialect by {@link QuerySqlRenderer}, and, after each transaction, the tables refilled (only those
 * whose rows changed) and every query run and compared with the naive result.
 */
final class SqlOracle implements AutoCloseable {
  /** A disagreement: {@code kind} is e.g. "sqlite vs naive" or "h2 error". */
  record Problem(String kind, String expected, String actual, String detail) {}

  private final OracleScenario sc;
  private final Map<SqlDialect, SqlDatabase> dbs = new EnumMap<>(SqlDialect.class);
  private final Map<SqlDialect, List<String>> texts = new EnumMap<>(SqlDialect.class);
  private final Map<String, List<Row>> loaded = new HashMap<>();
  private final OracleRun.Stats stats;

  SqlOracle(OracleScenario sc, OracleRun.Options options, OracleRun.Stats stats) {
    this.sc = sc;
    this.stats = stats;
    try {
      for (SqlDialect d : SqlDialect.values()) {
        if (d == SqlDialect.SQLITE ? options.sqlite() : options.h2()) {
          open(d);
        }
      }
    } catch (SQLException e) {
      close();
      throw new IllegalStateException("cannot set up the SQL oracle: " + e.getMessage(), e);
    }
  }

  private void open(SqlDialect d) throws SQLException {
    SqlDatabase s = new SqlDatabase(d);
    dbs.put(d, s);
    for (OracleWorld.Table t : sc.world().tables) {
      s.create(t.name(), t.schema());
    }
    List<String> sql = new ArrayList<>();
    for (OracleScenario.Spec spec : sc.queries()) {
      for (int read : spec.reads()) {
        OracleScenario.Spec up = sc.queries().get(read);
        if (!s.has(up.name())) {
          s.create(up.name(), Shapes.of(up.ir()));
        }
      }
      String text = null;
      try {
        text = QuerySqlRenderer.render(spec.ir(), d, Source::name);
      } catch (QuerySqlRenderer.Unsupported e) {
        if (d == SqlDialect.H2) {
          stats.h2Unsupported++;
        }
      }
      sql.add(text);
    }
    texts.put(d, sql);
  }

  /** Makes table {@code table} hold {@code rows} in every database. */
  void load(String table, List<Row> rows) {
    for (SqlDatabase s : dbs.values()) {
      String key = s.dialect + ":" + table;
      if (!Objects.equals(loaded.get(key), rows)) {
        try {
          s.replace(table, rows);
        } catch (SQLException e) {
          throw new IllegalStateException("cannot load " + table + " into " + s.dialect + ": " + e.getMessage(), e);
        }
        loaded.put(key, rows);
      }
    }
  }

  /**
   * Runs query {@code i} of the scenario in every database that can express it; null when each
   * result is a right answer per {@code expected}, else the first disagreement.
   */
  Problem check(int i, NaiveQuery.Result expected) {
    OracleScenario.Spec spec = sc.queries().get(i);
    for (Map.Entry<SqlDialect, SqlDatabase> e : dbs.entrySet()) {
      String text = texts.get(e.getKey()).get(i);
      if (text == null) {
        continue;
      }
      String name = e.getKey().name().toLowerCase(Locale.ROOT);
      List<Row> got;
      try {
        got = e.getValue().query(text, Shapes.of(spec.ir()));
      } catch (SQLException ex) {
        return new Problem(name + " error", text, ex.getMessage(), "");
      }
      stats.checks++;
      if (e.getKey() == SqlDialect.SQLITE) {
        stats.sqlite++;
      } else {
        stats.h2++;
      }
      String d = ResultMatch.mismatch(expected, got);
      if (d != null) {
        return new Problem(name + " vs naive", expected.window().toString(), got.toString(), d + "\n  SQL: " + text);
      }
    }
    return null;
  }

  @Override
  public void close() {
    for (SqlDatabase s : dbs.values()) {
      try {
        s.close();
      } catch (SQLException ignored) {
        // an in-memory database: nothing to keep
      }
    }
  }
}
