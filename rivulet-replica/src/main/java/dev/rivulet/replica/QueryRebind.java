package dev.rivulet.replica;

import dev.rivulet.query.Expr;
import dev.rivulet.query.Query;
import dev.rivulet.query.QueryException;
import dev.rivulet.query.QueryIR;
import dev.rivulet.query.Source;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Rebuilds a query with some of its sources replaced (the mirrors of altered tables by their new
 * mirrors), through the public query builder, so that the rebuilt query is checked and compiled
 * like any other. Stateless.
 */
final class QueryRebind {
  private QueryRebind() {}

  /**
   * {@code query} reading {@code replaced.get(s)} wherever it read {@code s} (an identity map); a
   * source mapped to null is gone.
   *
   * @return null when {@code query} reads none of the replaced sources
   * @throws QueryException naming the source when it reads one that is gone
   */
  static Query rebind(Query query, Map<Source, Source> replaced) {
    return reads(query.raw(), replaced) ? build(query.raw(), replaced) : null;
  }

  private static boolean reads(QueryIR ir, Map<Source, Source> replaced) {
    if (ir instanceof QueryIR.UnionAll u) {
      return u.parts().stream().anyMatch(p -> reads(p, replaced));
    }
    QueryIR.Select s = (QueryIR.Select) ir;
    if (reads(s.from().relation(), replaced)) {
      return true;
    }
    for (QueryIR.Join j : s.joins()) {
      if (reads(j.relation().relation(), replaced)) {
        return true;
      }
    }
    for (QueryIR.SelectItem item : s.select()) {
      if (item.expr() instanceof Expr.Include inc && reads(inc.query(), replaced)) {
        return true;
      }
    }
    return false;
  }

  private static boolean reads(QueryIR.Relation r, Map<Source, Source> replaced) {
    return r instanceof QueryIR.Table t ? replaced.containsKey(t.source())
        : reads(((QueryIR.Subquery) r).query(), replaced);
  }

  private static Query build(QueryIR ir, Map<Source, Source> replaced) {
    if (ir instanceof QueryIR.UnionAll u) {
      Query[] parts = new Query[u.parts().size()];
      for (int i = 0; i < parts.length; i++) {
        parts[i] = build(u.parts().get(i), replaced);
      }
      return Query.unionAll(parts);
    }
    QueryIR.Select s = (QueryIR.Select) ir;
    QueryIR.Relation from = s.from().relation();
    Query q = from instanceof QueryIR.Table t ? Query.from(s.from().alias(), source(t, replaced))
        : Query.from(s.from().alias(), build(((QueryIR.Subquery) from).query(), replaced));
    for (QueryIR.Join j : s.joins()) {
      QueryIR.Relation r = j.relation().relation();
      QueryIR.On[] on = j.on().toArray(new QueryIR.On[0]);
      q = r instanceof QueryIR.Table t ? q.join(j.kind(), j.relation().alias(), source(t, replaced), on)
          : q.join(j.kind(), j.relation().alias(), build(((QueryIR.Subquery) r).query(), replaced), on);
    }
    if (s.where() != null) {
      q = q.where(s.where());
    }
    if (!s.groupBy().isEmpty()) {
      q = q.groupBy(s.groupBy().toArray(new Expr[0]));
    }
    if (s.having() != null) {
      q = q.having(s.having());
    }
    if (!s.select().isEmpty()) {
      q = q.select(items(s.select(), replaced));
    }
    if (s.distinct()) {
      q = q.distinct();
    }
    if (!s.orderBy().isEmpty()) {
      q = q.orderBy(s.orderBy().toArray(new QueryIR.OrderItem[0]));
    }
    if (s.limit() != null) {
      q = q.limit(s.limit());
    }
    if (s.offset() != 0) {
      q = q.offset(s.offset());
    }
    if (s.after() != null) {
      q = q.after(s.after());
    }
    return s.findOne() ? q.findOne() : q;
  }

  private static QueryIR.SelectItem[] items(List<QueryIR.SelectItem> items, Map<Source, Source> replaced) {
    List<QueryIR.SelectItem> out = new ArrayList<>(items.size());
    for (QueryIR.SelectItem item : items) {
      if (item.expr() instanceof Expr.Include inc) {
        QueryIR child = build(inc.query(), replaced).raw();
        out.add(new QueryIR.SelectItem(item.name(), new Expr.Include(child, inc.mode(), inc.separator())));
      } else {
        out.add(item);
      }
    }
    return out.toArray(new QueryIR.SelectItem[0]);
  }

  private static Source source(QueryIR.Table t, Map<Source, Source> replaced) {
    if (!replaced.containsKey(t.source())) {
      return t.source();
    }
    Source next = replaced.get(t.source());
    if (next == null) {
      throw new QueryException("source '" + t.source().name() + "' no longer exists (its table was dropped,"
          + " lost its primary key, or the live query over it failed)");
    }
    return next;
  }
}
