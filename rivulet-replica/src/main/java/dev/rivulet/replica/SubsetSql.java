package dev.rivulet.replica;

import dev.rivulet.engine.Row;
import dev.rivulet.query.SubsetRequest;
import java.util.ArrayList;
import java.util.List;

/**
 * The SQL that answers a {@link SubsetRequest} on one table: statements whose rows, together, are
 * the request's rows. A request without order, limit or cursor on non-NULL values is one {@code
 * WHERE (columns) IN (...)} per chunk of values; otherwise each value is one statement, {@code
 * WHERE columns = value AND (sort key) > cursor ORDER BY order, key LIMIT n}, which the table's
 * index on those columns answers by reading only that value's first rows. The order is the
 * request's: NULL first ascending, last descending, then the key ascending; the cursor is
 * expanded into a disjunction per sort column so that NULLs and mixed directions compare right.
 * Immutable.
 */
final class SubsetSql {
  /** One statement: its text and its parameters. */
  record Statement(String sql, List<Object> params) {}

  private static final int CHUNK = 200; // values per IN list

  private final String select; // SELECT <columns> FROM <table>
  private final List<String> keys;

  SubsetSql(String qualifiedTable, List<String> columns, List<String> keys) {
    List<String> quoted = new ArrayList<>();
    columns.forEach(c -> quoted.add(TableInfo.quote(c)));
    this.select = "SELECT " + String.join(", ", quoted) + " FROM " + qualifiedTable;
    this.keys = List.copyOf(keys);
  }

  /**
   * The statements of {@code request}.
   *
   * @throws IllegalArgumentException when the cursor is not as wide as the order and the key
   */
  List<Statement> statements(SubsetRequest request) {
    int width = request.order().size() + keys.size();
    if (request.after() != null && request.after().width() != width) {
      throw new IllegalArgumentException("subset request on " + request.columns() + ": cursor " + request.after()
          + " has " + request.after().width() + " values; the order " + request.order() + " then the key " + keys
          + " need " + width);
    }
    boolean plain = request.order().isEmpty() && request.limit() == SubsetRequest.UNLIMITED && request.after() == null;
    if (plain && !request.columns().isEmpty() && request.values().stream().noneMatch(v -> v.anyNull(all(v.width())))) {
      return inLists(request);
    }
    List<Statement> out = new ArrayList<>();
    for (Row value : request.values()) {
      out.add(perValue(request, value));
    }
    return out;
  }

  private List<Statement> inLists(SubsetRequest request) {
    List<Statement> out = new ArrayList<>();
    List<Row> values = request.values();
    for (int from = 0; from < values.size(); from += CHUNK) {
      List<Row> chunk = values.subList(from, Math.min(values.size(), from + CHUNK));
      List<Object> params = new ArrayList<>();
      List<String> terms = new ArrayList<>();
      for (Row v : chunk) {
        List<String> eqs = new ArrayList<>();
        for (int i = 0; i < v.width(); i++) {
          eqs.add(TableInfo.quote(request.columns().get(i)) + " = ?");
          params.add(v.get(i));
        }
        terms.add(eqs.size() == 1 ? "?" : "(" + String.join(" AND ", eqs) + ")");
      }
      String where = request.columns().size() == 1
          ? TableInfo.quote(request.columns().get(0)) + " IN (" + String.join(", ", terms) + ")"
          : String.join(" OR ", terms);
      out.add(new Statement(select + " WHERE " + where, params));
    }
    return out;
  }

  private Statement perValue(SubsetRequest request, Row value) {
    List<Object> params = new ArrayList<>();
    List<String> conds = new ArrayList<>();
    for (int i = 0; i < value.width(); i++) {
      String c = TableInfo.quote(request.columns().get(i));
      if (value.isNull(i)) {
        conds.add(c + " IS NULL");
      } else {
        conds.add(c + " = ?");
        params.add(value.get(i));
      }
    }
    if (request.after() != null) {
      conds.add(after(request, params));
    }
    StringBuilder sql = new StringBuilder(select);
    if (!conds.isEmpty()) {
      sql.append(" WHERE ").append(String.join(" AND ", conds));
    }
    List<String> order = new ArrayList<>();
    for (SubsetRequest.Order o : request.order()) {
      order.add(TableInfo.quote(o.column()) + (o.descending() ? " DESC NULLS LAST" : " ASC NULLS FIRST"));
    }
    keys.forEach(k -> order.add(TableInfo.quote(k) + " ASC"));
    if (!request.order().isEmpty() || request.limit() != SubsetRequest.UNLIMITED || request.after() != null) {
      sql.append(" ORDER BY ").append(String.join(", ", order));
    }
    if (request.limit() != SubsetRequest.UNLIMITED) {
      sql.append(" LIMIT ").append(request.limit());
    }
    return new Statement(sql.toString(), params);
  }

  /**
   * The rows strictly after the cursor in the sort order: for some sort column i, the columns
   * before i equal the cursor's and column i comes after it.
   */
  private String after(SubsetRequest request, List<Object> params) {
    List<String> sortColumns = new ArrayList<>();
    List<Boolean> descending = new ArrayList<>();
    for (SubsetRequest.Order o : request.order()) {
      sortColumns.add(TableInfo.quote(o.column()));
      descending.add(o.descending());
    }
    for (String k : keys) {
      sortColumns.add(TableInfo.quote(k));
      descending.add(false);
    }
    Row cursor = request.after();
    List<String> disjuncts = new ArrayList<>();
    for (int i = 0; i < sortColumns.size(); i++) {
      List<Object> termParams = new ArrayList<>();
      String beyond = beyond(sortColumns.get(i), descending.get(i), cursor.get(i), termParams);
      if (beyond == null) {
        continue; // nothing comes after this value in this column
      }
      List<String> conj = new ArrayList<>();
      List<Object> conjParams = new ArrayList<>();
      for (int j = 0; j < i; j++) {
        if (cursor.isNull(j)) {
          conj.add(sortColumns.get(j) + " IS NULL");
        } else {
          conj.add(sortColumns.get(j) + " = ?");
          conjParams.add(cursor.get(j));
        }
      }
      conj.add(beyond);
      conjParams.addAll(termParams);
      disjuncts.add("(" + String.join(" AND ", conj) + ")");
      params.addAll(conjParams);
    }
    return disjuncts.isEmpty() ? "1 = 0" : "(" + String.join(" OR ", disjuncts) + ")";
  }

  /** The values of {@code column} that sort after {@code v} (NULL first ascending, last descending), or null for none. */
  private static String beyond(String column, boolean descending, Object v, List<Object> params) {
    if (v == null) {
      return descending ? null : column + " IS NOT NULL";
    }
    params.add(v);
    return descending ? "(" + column + " < ? OR " + column + " IS NULL)" : column + " > ?";
  }

  private static int[] all(int width) {
    int[] out = new int[width];
    for (int i = 0; i < width; i++) {
      out[i] = i;
    }
    return out;
  }
}
