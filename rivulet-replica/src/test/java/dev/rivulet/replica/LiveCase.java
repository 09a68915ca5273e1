package dev.rivulet.replica;

import dev.rivulet.engine.Row;
import dev.rivulet.query.Query;
import dev.rivulet.query.Source;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * One random live query of the contract suite and the database's own answer to it: the query over
 * a replica's tables (lazy or not), whether its rows come in a defined order, and how the database
 * computes the same rows, as plain values (see {@link PlainValues}).
 */
record LiveCase(String label, Function<SqliteReplica, Query> query, boolean ordered, DbAnswer answer) {
  /** The database's answer on {@code c}, as plain rows. */
  @FunctionalInterface
  interface DbAnswer {
    List<Object> rows(Connection c) throws SQLException;
  }

  /** How an include's value is formed from its child rows. */
  enum Mode { ARRAY, ONE, CONCAT, COLLECTION }

  /**
   * An include answered by SQL per parent: {@code childSql} with its one {@code ?} replaced by the
   * parent's column {@code param} (an integer); a NULL parameter gives the empty value. Each child
   * row is followed by the values of the child's own includes, {@code nested}.
   */
  record IncludeSql(int param, String childSql, Mode mode, List<IncludeSql> nested) {
    IncludeSql(int param, String childSql, Mode mode) {
      this(param, childSql, mode, List.of());
    }

    Object value(Connection c, Row parent) throws SQLException {
      Object p = parent.get(param);
      List<Row> kids = p == null ? List.of() : SqlRows.read(c, childSql.replace("?", String.valueOf((long) (Long) p)));
      if (mode == Mode.CONCAT) {
        return concat(kids);
      }
      List<Object> rows = withIncludes(c, kids, nested);
      return switch (mode) {
        case ONE -> rows.isEmpty() ? null : rows.get(0);
        case COLLECTION -> PlainValues.sorted(rows);
        default -> rows;
      };
    }

    private static String concat(List<Row> kids) {
      List<String> parts = new ArrayList<>();
      for (Row k : kids) {
        if (k.get(0) != null) {
          parts.add(String.valueOf(k.get(0)));
        }
      }
      return String.join(",", parts);
    }
  }

  /** The rows of {@code sql}. */
  static DbAnswer flat(String sql) {
    return c -> PlainValues.rows(SqlRows.read(c, sql));
  }

  /** The rows of {@code parentSql}, each followed by the values of {@code includes}. */
  static DbAnswer nested(String parentSql, List<IncludeSql> includes) {
    return c -> withIncludes(c, SqlRows.read(c, parentSql), includes);
  }

  private static List<Object> withIncludes(Connection c, List<Row> parents, List<IncludeSql> includes)
      throws SQLException {
    List<Object> out = new ArrayList<>();
    for (Row parent : parents) {
      @SuppressWarnings("unchecked")
      List<Object> row = (List<Object>) PlainValues.of(parent);
      for (IncludeSql inc : includes) {
        row.add(inc.value(c, parent));
      }
      out.add(row);
    }
    return out;
  }

  /** The replica's collection of {@code table}: its lazy collection when it is lazy. */
  static Source table(SqliteReplica r, String table) {
    return r.lazySource(table) != null ? r.lazyTable(table) : r.table(table);
  }

  @Override
  public String toString() {
    return label;
  }
}
