package dev.rivulet.query;

import java.util.Map;
import java.util.TreeMap;

/**
 * Tallies the clauses, functions and operators generated queries use, so that the oracle suite can
 * show (and assert) that its generator covers the whole language rather than degenerating into a
 * corner of it.
 */
final class QueryFeatures {
  /** Every feature the generator is expected to produce in a default run. */
  static final String[] EXPECTED = {
    "join INNER", "join LEFT", "join RIGHT", "join FULL", "join on 2 keys", "full join of null-keyed sides", "where", "group by", "global aggregate",
    "having", "agg COUNT(*)", "agg COUNT", "agg COUNT DISTINCT", "agg SUM", "agg AVG", "agg MIN", "agg MAX",
    "select list", "select all", "distinct", "order by", "nulls first", "nulls last", "desc", "limit", "offset",
    "findOne", "findOne without order", "limit without order", "union all", "subquery", "reads a live query",
    "Compare", "And", "Or", "Not", "IsNull", "In", "Like", "ILike", "Like ESCAPE", "Coalesce", "Case", "Cast", "output name", "output position", "Arith ADD", "Arith SUB",
    "Arith MUL", "Arith DIV", "fn UPPER", "fn LOWER", "fn LENGTH", "fn CONCAT", "fn SUBSTRING", "fn TRIM",
  };

  final Map<String, Integer> counts = new TreeMap<>();

  void add(QueryIR q) {
    if (q instanceof QueryIR.UnionAll u) {
      count("union all");
      for (QueryIR p : u.parts()) {
        add(p);
      }
      return;
    }
    QueryIR.Select s = (QueryIR.Select) q;
    relation(s.from());
    for (QueryIR.Join j : s.joins()) {
      count("join " + j.kind());
      if (j.on().size() > 1) {
        count("join on 2 keys");
      }
      if (j.kind() == QueryIR.JoinKind.FULL && nullKeyed(s.from()) && nullKeyed(j.relation())) {
        count("full join of null-keyed sides");
      }
      relation(j.relation());
    }
    if (s.where() != null) {
      count("where");
      expr(s.where());
    }
    if (!s.groupBy().isEmpty()) {
      count("group by");
    } else if (ExprTrees.groups(s)) {
      count("global aggregate");
    }
    s.groupBy().forEach(this::expr);
    if (s.having() != null) {
      count("having");
      expr(s.having());
    }
    count(s.select().isEmpty() ? "select all" : "select list");
    s.select().forEach(i -> expr(i.expr()));
    if (s.distinct()) {
      count("distinct");
    }
    if (!s.orderBy().isEmpty()) {
      count("order by");
    }
    for (QueryIR.OrderItem o : s.orderBy()) {
      count(o.nullsFirst() ? "nulls first" : "nulls last");
      if (o.descending()) {
        count("desc");
      }
      expr(o.expr());
    }
    if (s.limit() != null) {
      count(s.orderBy().isEmpty() ? "limit without order" : "limit");
    }
    if (s.offset() > 0) {
      count("offset");
    }
    if (s.findOne()) {
      count(s.orderBy().isEmpty() ? "findOne without order" : "findOne");
    }
  }

  /** A grouping subquery without a group by, or grouped by columns only (keyed by nullable values). */
  private static boolean nullKeyed(QueryIR.Aliased a) {
    return a.relation() instanceof QueryIR.Subquery sq && sq.query() instanceof QueryIR.Select s
        && ExprTrees.groups(s) && s.groupBy().stream().allMatch(g -> g instanceof Expr.Col);
  }

  private void relation(QueryIR.Aliased a) {
    if (a.relation() instanceof QueryIR.Subquery sq) {
      count("subquery");
      add(sq.query());
    } else if (((QueryIR.Table) a.relation()).source() instanceof OracleWorld.LiveRef) {
      count("reads a live query");
    }
  }

  private void expr(Expr e) {
    ExprTrees.map(e, x -> {
      if (x instanceof Expr.Agg a) {
        count("agg " + (a.arg() == null ? "COUNT(*)" : a.fn() + (a.distinct() ? " DISTINCT" : "")));
      } else if (x instanceof Expr.Like l) {
        count(l.caseInsensitive() ? "ILike" : "Like");
        if (l.escape() != null) {
          count("Like ESCAPE");
        }
      } else if (x instanceof Expr.Arith a) {
        count("Arith " + a.op());
      } else if (x instanceof Expr.Call c) {
        count("fn " + c.fn());
      } else if (x instanceof Expr.Output o) {
        count(o.name() == null ? "output position" : "output name");
      } else if (!(x instanceof Expr.Col) && !(x instanceof Expr.Lit)) {
        count(x.getClass().getSimpleName());
      }
      return x;
    });
  }

  private void count(String feature) {
    counts.merge(feature, 1, Integer::sum);
  }

  /** The expected features never seen. */
  java.util.List<String> missing() {
    java.util.List<String> out = new java.util.ArrayList<>();
    for (String f : EXPECTED) {
      if (!counts.containsKey(f)) {
        out.add(f);
      }
    }
    return out;
  }
}
