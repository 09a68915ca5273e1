package dev.rivulet.query;

import dev.rivulet.engine.Column;
import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.query.sql.SqlDialect;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An in-memory SQLite or H2 database holding tables of rows, for the query oracle: tables are
 * (re)filled with the visible rows of collections and live queries, and rendered queries run
 * against them. Values go in and come out canonical; SQLite's 0/1 booleans are read back as
 * booleans where the result column is BOOL, and SQLite gets Unicode {@code upper}/{@code lower}
 * (see {@link SqlDialect#SQLITE}).
 */
final class SqlDatabase implements AutoCloseable {
  private static final AtomicLong H2_NAMES = new AtomicLong();

  final SqlDialect dialect;
  private final Connection conn;
  private final Map<String, Schema> tables = new HashMap<>();
  private final Map<String, PreparedStatement> inserts = new HashMap<>();

  SqlDatabase(SqlDialect dialect) throws SQLException {
    this.dialect = dialect;
    this.conn = dialect == SqlDialect.SQLITE
        ? DriverManager.getConnection("jdbc:sqlite::memory:")
        : DriverManager.getConnection("jdbc:h2:mem:oracle" + H2_NAMES.incrementAndGet());
    if (dialect == SqlDialect.SQLITE) {
      SqlEngines.registerUnicodeCase(conn);
    }
  }

  /** Creates table {@code name} with the columns of {@code schema} (all nullable). */
  void create(String name, Schema schema) throws SQLException {
    List<String> cols = new ArrayList<>();
    List<String> marks = new ArrayList<>();
    for (Column c : schema.columns()) {
      cols.add(QuerySqlRenderer.quote(c.name()) + " " + sqlType(c.type()));
      marks.add("?");
    }
    try (Statement st = conn.createStatement()) {
      st.execute("CREATE TABLE " + QuerySqlRenderer.quote(name) + " (" + String.join(", ", cols) + ")");
    }
    tables.put(name, schema);
    inserts.put(name, conn.prepareStatement(
        "INSERT INTO " + QuerySqlRenderer.quote(name) + " VALUES (" + String.join(", ", marks) + ")"));
  }

  boolean has(String name) {
    return tables.containsKey(name);
  }

  private String sqlType(ColumnType t) {
    boolean lite = dialect == SqlDialect.SQLITE;
    return switch (t) {
      case INT -> lite ? "INTEGER" : "BIGINT";
      case DOUBLE -> lite ? "REAL" : "DOUBLE PRECISION";
      case DECIMAL -> lite ? "NUMERIC" : "DECFLOAT";
      case STRING -> lite ? "TEXT" : "VARCHAR";
      case BOOL -> lite ? "INTEGER" : "BOOLEAN";
      case ANY -> lite ? "" : "VARCHAR";
      default -> throw new IllegalArgumentException("no oracle column type for " + t);
    };
  }

  /** Replaces the contents of table {@code name} with {@code rows} (visible values). */
  void replace(String name, Collection<Row> rows) throws SQLException {
    Schema schema = tables.get(name);
    try (Statement st = conn.createStatement()) {
      st.execute("DELETE FROM " + QuerySqlRenderer.quote(name));
    }
    PreparedStatement insert = inserts.get(name);
    boolean lite = dialect == SqlDialect.SQLITE;
    for (Row row : rows) {
      for (int i = 0; i < schema.width(); i++) {
        Object v = row.get(i);
        int p = i + 1;
        if (v == null) {
          insert.setObject(p, null);
        } else if (v instanceof Boolean b) {
          if (lite) {
            insert.setInt(p, b ? 1 : 0);
          } else {
            insert.setBoolean(p, b);
          }
        } else if (v instanceof Double d) {
          insert.setDouble(p, d);
        } else if (v instanceof java.math.BigDecimal bd) {
          if (lite) {
            insert.setDouble(p, bd.doubleValue());
          } else {
            insert.setBigDecimal(p, bd);
          }
        } else {
          insert.setObject(p, v);
        }
      }
      insert.addBatch();
    }
    insert.executeBatch();
  }

  /**
   * Runs {@code sql}; each row's first {@code schema.width()} columns, canonical, typed by {@code
   * schema} (for SQLite booleans). Trailing columns (hidden order columns) are ignored.
   */
  List<Row> query(String sql, Schema schema) throws SQLException {
    List<Row> out = new ArrayList<>();
    try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      if (n < schema.width()) {
        throw new SQLException("expected " + schema.width() + " columns but the query has " + n);
      }
      while (rs.next()) {
        Object[] vals = new Object[schema.width()];
        for (int i = 0; i < vals.length; i++) {
          vals[i] = read(rs.getObject(i + 1), schema.column(i).type());
        }
        out.add(dev.rivulet.testkit.RefValues.row(vals));
      }
    }
    return out;
  }

  private Object read(Object v, ColumnType type) {
    return SqlEngines.read(v, type, dialect);
  }

  @Override
  public void close() throws SQLException {
    for (PreparedStatement p : inserts.values()) {
      p.close();
    }
    conn.close();
  }
}
