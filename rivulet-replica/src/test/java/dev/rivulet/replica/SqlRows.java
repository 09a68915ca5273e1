package dev.rivulet.replica;

import dev.rivulet.engine.Row;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/** The database's own answer to a query, as rows: what the replica's tests compare live queries with. */
public final class SqlRows {
  private SqlRows() {}

  /** The rows of {@code query} on {@code c}; large text values read out as strings. */
  public static List<Row> read(Connection c, String query) throws SQLException {
    return read(c, query, UnaryOperator.identity());
  }

  /** The rows of {@code query}, each value (large text already read out) passed through {@code value}. */
  public static List<Row> read(Connection c, String query, UnaryOperator<Object> value) throws SQLException {
    List<Row> out = new ArrayList<>();
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(query)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        Object[] v = new Object[n];
        for (int i = 0; i < n; i++) {
          Object o = rs.getObject(i + 1);
          v[i] = value.apply(o instanceof Clob clob ? clob.getSubString(1, (int) clob.length()) : o);
        }
        out.add(Row.of(v));
      }
    }
    return out;
  }

  /** Runs {@code statements} on {@code c}, in order (a test's schema and seed rows). */
  public static void exec(Connection c, String... statements) throws SQLException {
    try (Statement st = c.createStatement()) {
      for (String sql : statements) {
        st.execute(sql);
      }
    }
  }

  /** A copy of {@code rows} in the rows' natural order: a mirror and its table compared whatever their order. */
  public static List<Row> sorted(List<Row> rows) {
    List<Row> out = new ArrayList<>(rows);
    out.sort(null);
    return out;
  }
}
