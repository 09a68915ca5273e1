package dev.rivulet.query;

import dev.rivulet.engine.Column;
import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.testkit.RefValues;
import dev.rivulet.query.sql.SqlDialect;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * An in-memory SQLite or H2 database holding one table {@code t} of one row, to evaluate rendered
 * expressions against. SQLite gets Unicode {@code upper}/{@code lower} registered over its ASCII
 * built-ins, as {@link SqlDialect#SQLITE} requires.
 */
final class SqlEngines implements AutoCloseable {
  final SqlDialect dialect;
  private final Connection conn;
  private final Schema schema;
  private final PreparedStatement insert;

  SqlEngines(SqlDialect dialect, Schema schema) throws SQLException {
    this.dialect = dialect;
    this.schema = schema;
    this.conn = dialect == SqlDialect.SQLITE
        ? DriverManager.getConnection("jdbc:sqlite::memory:")
        : DriverManager.getConnection("jdbc:h2:mem:");
    if (dialect == SqlDialect.SQLITE) {
      registerUnicodeCase(conn);
    }
    List<String> cols = new ArrayList<>();
    List<String> marks = new ArrayList<>();
    for (Column c : schema.columns()) {
      cols.add(c.name() + " " + sqlType(c.type()));
      marks.add("?");
    }
    try (Statement st = conn.createStatement()) {
      st.execute("CREATE TABLE t (" + String.join(", ", cols) + ")");
    }
    insert = conn.prepareStatement("INSERT INTO t VALUES (" + String.join(", ", marks) + ")");
  }

  /** Overrides SQLite's ASCII-only upper/lower with Java's locale-independent Unicode mapping. */
  static void registerUnicodeCase(Connection conn) throws SQLException {
    for (boolean upper : new boolean[] {true, false}) {
      org.sqlite.Function.create(conn, upper ? "upper" : "lower", new org.sqlite.Function() {
        @Override
        protected void xFunc() throws SQLException {
          if (value_type(0) == 5) { // SQLITE_NULL
            result();
          } else {
            String s = value_text(0);
            result(upper ? s.toUpperCase(Locale.ROOT) : s.toLowerCase(Locale.ROOT));
          }
        }
      }, 1, org.sqlite.Function.FLAG_DETERMINISTIC);
    }
  }

  private String sqlType(ColumnType t) {
    boolean lite = dialect == SqlDialect.SQLITE;
    return switch (t) {
      case INT -> lite ? "INTEGER" : "BIGINT";
      case DOUBLE -> lite ? "REAL" : "DOUBLE PRECISION";
      case DECIMAL -> lite ? "REAL" : "DECFLOAT";
      case STRING -> lite ? "TEXT" : "VARCHAR";
      case BOOL -> lite ? "INTEGER" : "BOOLEAN";
      default -> throw new IllegalArgumentException("no test column type for " + t);
    };
  }

  /** Replaces the table's one row with {@code row}. */
  void load(Row row) throws SQLException {
    try (Statement st = conn.createStatement()) {
      st.execute("DELETE FROM t");
    }
    boolean lite = dialect == SqlDialect.SQLITE;
    for (int i = 0; i < schema.width(); i++) {
      Object v = row.get(i);
      int p = i + 1;
      ColumnType t = schema.column(i).type();
      if (v == null) {
        insert.setObject(p, null);
      } else if (t == ColumnType.BOOL) {
        if (lite) {
          insert.setInt(p, (Boolean) v ? 1 : 0);
        } else {
          insert.setBoolean(p, (Boolean) v);
        }
      } else if (t == ColumnType.DOUBLE || (t == ColumnType.DECIMAL && lite)) {
        insert.setDouble(p, ((Number) v).doubleValue());
      } else if (t == ColumnType.DECIMAL) {
        insert.setBigDecimal(p, RefValues.exact(v));
      } else {
        insert.setObject(p, v);
      }
    }
    insert.executeUpdate();
  }

  /**
   * {@code SELECT sql FROM t}, canonical; a SQLite integer is read as a boolean when {@code type}
   * is BOOL.
   */
  Object eval(String sql, ColumnType type) throws SQLException {
    return evalAll(List.of(sql), List.of(type)).get(0);
  }

  /**
   * {@code SELECT sql1, sql2, ... FROM t} in one statement, each value canonical as in {@link
   * #eval}. When the statement fails, each expression is run alone so that the error names the
   * one at fault.
   */
  List<Object> evalAll(List<String> sqls, List<ColumnType> types) throws SQLException {
    try {
      return query(sqls, types);
    } catch (SQLException e) {
      for (int i = 0; i < sqls.size() && sqls.size() > 1; i++) {
        try {
          query(List.of(sqls.get(i)), List.of(types.get(i)));
        } catch (SQLException one) {
          throw new SQLException(dialect + " failed on SELECT " + sqls.get(i) + " FROM t: " + firstLine(one), one);
        }
      }
      throw new SQLException(dialect + " failed on SELECT " + String.join(", ", sqls) + " FROM t: " + firstLine(e), e);
    }
  }

  private static String firstLine(SQLException e) {
    String m = String.valueOf(e.getMessage());
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }

  private List<Object> query(List<String> sqls, List<ColumnType> types) throws SQLException {
    try (Statement st = conn.createStatement();
        ResultSet rs = st.executeQuery("SELECT " + String.join(", ", sqls) + " FROM t")) {
      if (!rs.next()) {
        throw new SQLException("no row in t");
      }
      List<Object> out = new ArrayList<>(sqls.size());
      for (int i = 0; i < sqls.size(); i++) {
        out.add(read(rs.getObject(i + 1), types.get(i)));
      }
      return out;
    }
  }

  private Object read(Object v, ColumnType type) {
    return read(v, type, dialect);
  }

  /** A JDBC value in canonical form; SQLite's 0/1 become booleans where a BOOL is expected. */
  static Object read(Object v, ColumnType type, SqlDialect dialect) {
    if (type == ColumnType.BOOL && dialect == SqlDialect.SQLITE && (v instanceof Integer || v instanceof Long)) {
      long n = ((Number) v).longValue();
      if (n == 0 || n == 1) {
        return n == 1;
      }
    }
    return RefValues.canonical(v);
  }

  /** {@code SELECT sql} with no table. */
  Object evalConstant(String sql, ColumnType type) throws SQLException {
    try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery("SELECT " + sql)) {
      rs.next();
      return read(rs.getObject(1), type);
    }
  }

  Connection connection() {
    return conn;
  }

  @Override
  public void close() throws SQLException {
    insert.close();
    conn.close();
  }
}
