package dev.rivulet.query;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Structural helpers over {@link Expr} trees for the oracle suite, written apart from the main
 * code's {@code Expressions} so that the oracle shares no rewriting logic with the compiler.
 */
final class ExprTrees {
  private ExprTrees() {}

  /**
   * Rebuilds {@code e} top-down: {@code f} sees each node first; when it returns another node,
   * that node replaces the subtree, otherwise the children are rebuilt.
   */
  static Expr map(Expr e, UnaryOperator<Expr> f) {
    if (e == null) {
      return null;
    }
    Expr r = f.apply(e);
    if (r != e) {
      return r;
    }
    if (e instanceof Expr.Compare c) {
      return new Expr.Compare(c.op(), map(c.left(), f), map(c.right(), f));
    }
    if (e instanceof Expr.And a) {
      return new Expr.And(all(a.args(), f));
    }
    if (e instanceof Expr.Or o) {
      return new Expr.Or(all(o.args(), f));
    }
    if (e instanceof Expr.Not n) {
      return new Expr.Not(map(n.arg(), f));
    }
    if (e instanceof Expr.IsNull n) {
      return new Expr.IsNull(map(n.arg(), f), n.negated());
    }
    if (e instanceof Expr.In in) {
      return new Expr.In(map(in.arg(), f), all(in.values(), f));
    }
    if (e instanceof Expr.Like l) {
      return new Expr.Like(map(l.arg(), f), map(l.pattern(), f), l.caseInsensitive(), l.escape());
    }
    if (e instanceof Expr.Coalesce c) {
      return new Expr.Coalesce(all(c.args(), f));
    }
    if (e instanceof Expr.Case c) {
      List<Expr.When> ws = new ArrayList<>();
      for (Expr.When w : c.whens()) {
        ws.add(new Expr.When(map(w.condition(), f), map(w.value(), f)));
      }
      return new Expr.Case(ws, map(c.otherwise(), f));
    }
    if (e instanceof Expr.Arith a) {
      return new Expr.Arith(a.op(), map(a.left(), f), map(a.right(), f));
    }
    if (e instanceof Expr.Call c) {
      return new Expr.Call(c.fn(), all(c.args(), f));
    }
    if (e instanceof Expr.Cast c) {
      return new Expr.Cast(map(c.arg(), f), c.type());
    }
    if (e instanceof Expr.Agg a) {
      return new Expr.Agg(a.fn(), map(a.arg(), f), a.distinct());
    }
    return e;
  }

  private static List<Expr> all(List<Expr> es, UnaryOperator<Expr> f) {
    List<Expr> out = new ArrayList<>(es.size());
    for (Expr x : es) {
      out.add(map(x, f));
    }
    return out;
  }

  /**
   * {@code s} with its output-column references ({@link Expr.Output}) in order by and having
   * replaced by the select items' expressions they name; without a select list the columns are
   * the relations' visible columns, named {@code column} (one relation) or {@code alias.column}.
   *
   * @throws IllegalStateException for a name or position that names no column
   */
  static QueryIR.Select resolveOutputs(QueryIR.Select s) {
    List<String> names = new ArrayList<>();
    List<Expr> exprs = new ArrayList<>();
    if (s.select().isEmpty()) {
      BlockScope scope = Shapes.scope(s);
      for (Expr.Col c : scope.columns()) {
        names.add(scope.parts().size() > 1 ? c.alias() + "." + c.column() : c.column());
        exprs.add(c);
      }
    } else {
      for (QueryIR.SelectItem item : s.select()) {
        names.add(item.name());
        exprs.add(item.expr());
      }
    }
    UnaryOperator<Expr> byName = x -> {
      if (!(x instanceof Expr.Output o)) {
        return x;
      }
      int i = o.name() == null ? o.position() - 1 : names.indexOf(o.name());
      if (i < 0 || i >= exprs.size()) {
        throw new IllegalStateException("output reference " + o + " names no column of " + names);
      }
      return exprs.get(i);
    };
    List<QueryIR.OrderItem> order = new ArrayList<>();
    for (QueryIR.OrderItem o : s.orderBy()) {
      order.add(new QueryIR.OrderItem(map(o.expr(), byName), o.descending(), o.nullsFirst()));
    }
    return new QueryIR.Select(s.from(), s.joins(), s.where(), s.groupBy(), map(s.having(), byName), s.select(),
        s.distinct(), order, s.limit(), s.offset(), s.findOne(), s.after());
  }

  /** The aggregate calls in {@code e}, in order of first appearance, without repeats. */
  static void aggregates(Expr e, List<Expr.Agg> out) {
    map(e, x -> {
      if (x instanceof Expr.Agg a) {
        if (!out.contains(a)) {
          out.add(a);
        }
        return new Expr.Lit(null); // stop: do not look inside
      }
      return x;
    });
  }

  static boolean hasAggregate(Expr e) {
    List<Expr.Agg> found = new ArrayList<>();
    aggregates(e, found);
    return !found.isEmpty();
  }

  /** True when a block groups: a group by, or an aggregate in select, having or order by. */
  static boolean groups(QueryIR.Select s) {
    if (!s.groupBy().isEmpty() || (s.having() != null && hasAggregate(s.having()))) {
      return true;
    }
    for (QueryIR.SelectItem i : s.select()) {
      if (hasAggregate(i.expr())) {
        return true;
      }
    }
    for (QueryIR.OrderItem o : s.orderBy()) {
      if (hasAggregate(o.expr())) {
        return true;
      }
    }
    return false;
  }

  /** The aggregates of a grouping block, in the order select, having, order by. */
  static List<Expr.Agg> blockAggregates(QueryIR.Select s) {
    List<Expr.Agg> out = new ArrayList<>();
    for (QueryIR.SelectItem i : s.select()) {
      aggregates(i.expr(), out);
    }
    if (s.having() != null) {
      aggregates(s.having(), out);
    }
    for (QueryIR.OrderItem o : s.orderBy()) {
      aggregates(o.expr(), out);
    }
    return out;
  }

  /**
   * {@code e} read over a group row of alias {@code alias} with columns {@code g0..} (the group
   * expressions) and {@code a0..} (the aggregates): a subtree equal to a group expression becomes
   * its group column, an aggregate its aggregate column.
   *
   * @throws IllegalStateException for a column reference outside both (the query is not valid)
   */
  static Expr overGroup(Expr e, List<Expr> groups, List<Expr.Agg> aggs, String alias) {
    return map(e, x -> {
      int g = groups.indexOf(x);
      if (g >= 0) {
        return new Expr.Col(alias, "g" + g);
      }
      if (x instanceof Expr.Agg a) {
        return new Expr.Col(alias, "a" + aggs.indexOf(a));
      }
      if (x instanceof Expr.Col c) {
        throw new IllegalStateException("column " + c + " is neither grouped nor aggregated");
      }
      return x;
    });
  }
}
