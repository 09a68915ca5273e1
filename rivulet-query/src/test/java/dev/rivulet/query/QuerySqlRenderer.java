package dev.rivulet.query;

import dev.rivulet.engine.Column;
import dev.rivulet.query.ref.RefScope;
import dev.rivulet.query.ref.RefType;
import dev.rivulet.query.ref.RefTypes;
import dev.rivulet.query.sql.SqlDialect;
import dev.rivulet.query.sql.SqlRenderer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Renders a whole {@link QueryIR} as one SQL query for SQLite or H2, so that a real engine can
 * compute what a live query should hold; expressions go through {@link SqlRenderer}.
 *
 * <ul>
 *   <li>Identifiers are always double-quoted; select-all over several relations names its columns
 *       {@code "alias.column"}, as the compiler does.
 *   <li>A grouping block is rendered as its group row in a derived table {@code "__g"} with
 *       columns {@code g0..} (group expressions) and {@code a0..} (aggregates), and the select
 *       list, having (as a WHERE) and order by read that table, as the compiler's grouping does.
 *       A global aggregate's inner SELECT has no GROUP BY, so it yields one row on empty input.
 *       SQLite groups by position (see the order by item below for why).
 *   <li>Output names and positions in order by and having are replaced by the select items they
 *       name ({@link ExprTrees#resolveOutputs}), so the engines compute what they stand for.
 *   <li>Order by spells out {@code NULLS FIRST}/{@code NULLS LAST} and names select-list
 *       positions: under DISTINCT the repeated select item (or shown column), otherwise a hidden
 *       trailing column.
 *       findOne without an order sorts by the relations' key
 *       columns (or the group columns) ascending, NULLs last, as the compiler documents.
 *   <li>Limits: SQLite {@code LIMIT n OFFSET m} ({@code LIMIT -1} for none), H2 {@code OFFSET m
 *       ROWS FETCH FIRST n ROWS ONLY}. Union all parts are wrapped as {@code SELECT columns FROM
 *       (part)} so each keeps its own order and limit (and drops hidden order columns); in H2 a
 *       part's INT column under a DOUBLE union column is cast to DOUBLE PRECISION, since H2 would
 *       type the mix as DECFLOAT and turn inexact doubles into their shortest decimals.
 *   <li>Aggregates: {@code COUNT(*)}, {@code COUNT([DISTINCT] x)}, {@code SUM}, {@code MIN},
 *       {@code MAX}; {@code AVG} natively in SQLite (a double), and in H2 as {@code
 *       CAST(SUM(x) AS DOUBLE PRECISION) / CAST(COUNT(x) AS DOUBLE PRECISION)}, because H2's AVG
 *       of BIGINT is a NUMERIC with ten fractional digits and of DOUBLE a DECFLOAT, where ours is
 *       the double nearest the exact average. H2's SUM and AVG arguments are cast to their
 *       static type, since H2 folds e.g. {@code CASE WHEN x > NULL THEN ..} into an untyped NULL
 *       that SUM rejects.
 * </ul>
 *
 * <p>Not renderable ({@link Unsupported}): FULL JOIN for H2 (H2 2.x has none), findOne without
 * an order by over a subquery relation (its key columns are hidden).
 */
final class QuerySqlRenderer {
  /** The query uses something this dialect cannot express here. */
  static final class Unsupported extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Unsupported(String message) {
      super(message);
    }
  }

  private final SqlDialect dialect;
  private final Function<Source, String> tables;
  private int derived;

  /** {@code tables} names the SQL table holding each source's visible rows. */
  QuerySqlRenderer(SqlDialect dialect, Function<Source, String> tables) {
    this.dialect = dialect;
    this.tables = tables;
  }

  static String render(QueryIR q, SqlDialect dialect, Function<Source, String> tables) {
    return new QuerySqlRenderer(dialect, tables).query(q);
  }

  static String quote(String identifier) {
    return "\"" + identifier.replace("\"", "\"\"") + "\"";
  }

  private String query(QueryIR q) {
    if (q instanceof QueryIR.UnionAll u) {
      List<String> parts = new ArrayList<>();
      dev.rivulet.engine.Schema union = Shapes.of(u);
      for (QueryIR p : u.parts()) {
        List<String> names = new ArrayList<>();
        List<Column> cols = Shapes.of(p).columns();
        for (int i = 0; i < cols.size(); i++) {
          String name = quote(cols.get(i).name());
          // H2 types DOUBLE PRECISION with BIGINT as DECFLOAT: keep the union's doubles doubles
          boolean cast = dialect == SqlDialect.H2 && RefType.of(union.column(i).type()) == RefType.DOUBLE
              && RefType.of(cols.get(i).type()) != RefType.DOUBLE;
          names.add(cast ? "CAST(" + name + " AS DOUBLE PRECISION) AS " + name : name);
        }
        parts.add("SELECT " + String.join(", ", names) + " FROM (" + query(p) + ") AS " + quote("__u" + derived++));
      }
      return String.join(" UNION ALL ", parts);
    }
    return block((QueryIR.Select) q);
  }

  private String block(QueryIR.Select raw) {
    QueryIR.Select s = ExprTrees.resolveOutputs(raw); // output names become their expressions
    BlockScope scope = Shapes.scope(s);
    StringBuilder from = new StringBuilder(" FROM ").append(relation(s.from()));
    for (QueryIR.Join j : s.joins()) {
      if (j.kind() == QueryIR.JoinKind.FULL && dialect == SqlDialect.H2) {
        throw new Unsupported("H2 has no FULL JOIN");
      }
      from.append(switch (j.kind()) {
        case INNER -> " INNER JOIN ";
        case LEFT -> " LEFT JOIN ";
        case RIGHT -> " RIGHT JOIN ";
        case FULL -> " FULL JOIN ";
      }).append(relation(j.relation())).append(" ON ");
      for (int i = 0; i < j.on().size(); i++) {
        QueryIR.On on = j.on().get(i);
        from.append(i > 0 ? " AND " : "").append(column(on.left())).append(" = ").append(column(on.right()));
      }
    }
    if (s.where() != null) {
      from.append(" WHERE ").append(expr(s.where(), scope, "where"));
    }
    StringBuilder sql = new StringBuilder("SELECT ");
    if (s.distinct()) {
      sql.append("DISTINCT ");
    }
    List<String> order = new ArrayList<>();
    if (ExprTrees.groups(s)) {
      List<Expr.Agg> aggs = ExprTrees.blockAggregates(s);
      BlockScope gs = Shapes.groupScope(s, scope);
      List<String> inner = new ArrayList<>();
      List<String> groupSql = new ArrayList<>();
      for (int i = 0; i < s.groupBy().size(); i++) {
        String g = expr(s.groupBy().get(i), scope, "group by");
        // SQLite folds e.g. "x AND 0" into the integer 0, which GROUP BY would read as a position.
        groupSql.add(dialect == SqlDialect.SQLITE ? Integer.toString(i + 1) : g);
        inner.add(g + " AS " + quote("g" + i));
      }
      for (int j = 0; j < aggs.size(); j++) {
        inner.add(aggregate(aggs.get(j), scope) + " AS " + quote("a" + j));
      }
      List<String> items = new ArrayList<>();
      for (QueryIR.SelectItem item : s.select()) {
        items.add(expr(ExprTrees.overGroup(item.expr(), s.groupBy(), aggs, "__g"), gs, "select") + " AS "
            + quote(item.name()));
      }
      for (QueryIR.OrderItem o : s.orderBy()) {
        Expr e = ExprTrees.overGroup(o.expr(), s.groupBy(), aggs, "__g");
        order.add(orderTerm(s, o.expr(), expr(e, gs, "order by"), items) + direction(o));
      }
      if (s.orderBy().isEmpty() && s.findOne()) {
        for (int i = 0; i < s.groupBy().size(); i++) {
          order.add(quote("__g") + "." + quote("g" + i) + " ASC NULLS LAST");
        }
      }
      sql.append(String.join(", ", items)).append(" FROM (SELECT ").append(String.join(", ", inner)).append(from);
      if (!groupSql.isEmpty()) {
        sql.append(" GROUP BY ").append(String.join(", ", groupSql));
      }
      sql.append(") AS ").append(quote("__g"));
      if (s.having() != null) {
        sql.append(" WHERE ").append(expr(ExprTrees.overGroup(s.having(), s.groupBy(), aggs, "__g"), gs, "having"));
      }
    } else {
      List<String> items = new ArrayList<>();
      if (s.select().isEmpty()) {
        boolean qualify = scope.parts().size() > 1;
        for (BlockScope.Part p : scope.parts()) {
          for (Column c : p.schema().columns()) {
            items.add(column(new Expr.Col(p.alias(), c.name())) + " AS "
                + quote(qualify ? p.alias() + "." + c.name() : c.name()));
          }
        }
      } else {
        for (QueryIR.SelectItem item : s.select()) {
          items.add(expr(item.expr(), scope, "select") + " AS " + quote(item.name()));
        }
      }
      for (QueryIR.OrderItem o : s.orderBy()) {
        order.add(orderTerm(s, o.expr(), expr(o.expr(), scope, "order by"), items) + direction(o));
      }
      sql.append(String.join(", ", items)).append(from);
      if (s.orderBy().isEmpty() && s.findOne()) {
        List<QueryIR.Aliased> rels = new ArrayList<>();
        rels.add(s.from());
        for (QueryIR.Join j : s.joins()) {
          rels.add(j.relation());
        }
        for (QueryIR.Aliased a : rels) {
          if (!(a.relation() instanceof QueryIR.Table t)) {
            throw new Unsupported("findOne without order by over subquery " + a.alias() + " (hidden key)");
          }
          for (String k : t.source().keyColumns()) {
            order.add(column(new Expr.Col(a.alias(), k)) + " ASC NULLS LAST");
          }
        }
      }
    }
    if (!order.isEmpty()) {
      sql.append(" ORDER BY ").append(String.join(", ", order));
    }
    sql.append(window(s));
    return sql.toString();
  }

  private String relation(QueryIR.Aliased a) {
    String body = a.relation() instanceof QueryIR.Table t ? quote(tables.apply(t.source()))
        : "(" + query(((QueryIR.Subquery) a.relation()).query()) + ")";
    return body + " AS " + quote(a.alias());
  }

  private static String column(Expr.Col c) {
    return quote(c.alias()) + "." + quote(c.column());
  }

  private String expr(Expr e, RefScope scope, String clause) {
    return SqlRenderer.render(e, dialect, scope, clause, QuerySqlRenderer::column);
  }

  /**
   * An order item as a select-list position: under DISTINCT the position of the select item it
   * repeats; otherwise a hidden column {@code __oN} appended to {@code items} (the reader ignores
   * columns past the visible ones). Positions, not expressions, because SQLite folds a term such
   * as {@code x AND 0} into the integer {@code 0} and would then read it as a column position.
   */
  private static String orderTerm(QueryIR.Select s, Expr original, String rendered, List<String> items) {
    if (s.distinct()) {
      List<Expr> shown = new ArrayList<>();
      if (s.select().isEmpty()) {
        shown.addAll(Shapes.scope(s).columns());
      } else {
        s.select().forEach(item -> shown.add(item.expr()));
      }
      int at = shown.indexOf(original);
      if (at >= 0) {
        return Integer.toString(at + 1);
      }
      throw new Unsupported("order by " + original + " is not in the select list of a distinct block");
    }
    items.add(rendered + " AS " + quote("__o" + items.size()));
    return Integer.toString(items.size());
  }

  private static String direction(QueryIR.OrderItem o) {
    return (o.descending() ? " DESC" : " ASC") + (o.nullsFirst() ? " NULLS FIRST" : " NULLS LAST");
  }

  private String window(QueryIR.Select s) {
    Long limit = s.findOne() ? Long.valueOf(1) : s.limit();
    long offset = s.offset();
    if (limit == null && offset == 0) {
      return "";
    }
    if (dialect == SqlDialect.SQLITE) {
      return " LIMIT " + (limit == null ? -1 : limit) + " OFFSET " + offset;
    }
    return " OFFSET " + offset + " ROWS" + (limit == null ? "" : " FETCH FIRST " + limit + " ROWS ONLY");
  }

  private String aggregate(Expr.Agg a, BlockScope scope) {
    if (a.arg() == null) {
      return "COUNT(*)";
    }
    String x = expr(a.arg(), scope, "aggregate");
    if (dialect == SqlDialect.H2 && (a.fn() == Expr.AggFn.SUM || a.fn() == Expr.AggFn.AVG)) {
      // H2 folds e.g. CASE WHEN x > NULL THEN ... END into an untyped NULL, which SUM rejects.
      x = "CAST(" + x + " AS " + switch (RefTypes.typeOf(a.arg(), scope)) {
        case INT -> "BIGINT";
        case DECIMAL -> "DECFLOAT";
        default -> "DOUBLE PRECISION";
      } + ")";
    }
    return switch (a.fn()) {
      case COUNT -> a.distinct() ? "COUNT(DISTINCT " + x + ")" : "COUNT(" + x + ")";
      case SUM -> "SUM(" + x + ")";
      case AVG -> dialect == SqlDialect.SQLITE ? "AVG(" + x + ")"
          : "(CAST(SUM(" + x + ") AS DOUBLE PRECISION) / CAST(NULLIF(COUNT(" + x + "), 0) AS DOUBLE PRECISION))";
      case MIN -> "MIN(" + x + ")";
      case MAX -> "MAX(" + x + ")";
    };
  }
}
