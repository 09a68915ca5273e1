package dev.rivulet.query;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Transformations of generated query IR for the oracle suite: rebuilding it through the public
 * {@link Query} builder with its sources bound to real collections ({@link #toQuery}), and
 * renaming every alias ({@link #renameAliases}).
 */
final class QueryIrs {
  private QueryIrs() {}

  /**
   * The builder calls that produce {@code ir} with every source replaced by {@code bind(source)};
   * fails when the builder does not reproduce the IR.
   */
  static Query toQuery(QueryIR ir, UnaryOperator<Source> bind) {
    QueryIR bound = bind(ir, bind);
    Query q = build(bound);
    if (!q.raw().equals(bound)) {
      throw new AssertionError("the builder does not reproduce the IR:\n  wanted " + bound + "\n  built  " + q.raw());
    }
    return q;
  }

  private static Query build(QueryIR ir) {
    if (ir instanceof QueryIR.UnionAll u) {
      Query[] parts = new Query[u.parts().size()];
      for (int i = 0; i < parts.length; i++) {
        parts[i] = build(u.parts().get(i));
      }
      return Query.unionAll(parts);
    }
    QueryIR.Select s = (QueryIR.Select) ir;
    Query q = s.from().relation() instanceof QueryIR.Table t ? Query.from(s.from().alias(), t.source())
        : Query.from(s.from().alias(), build(((QueryIR.Subquery) s.from().relation()).query()));
    for (QueryIR.Join j : s.joins()) {
      QueryIR.On[] on = j.on().toArray(new QueryIR.On[0]);
      q = j.relation().relation() instanceof QueryIR.Table t ? q.join(j.kind(), j.relation().alias(), t.source(), on)
          : q.join(j.kind(), j.relation().alias(), build(((QueryIR.Subquery) j.relation().relation()).query()), on);
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
      q = q.select(s.select().toArray(new QueryIR.SelectItem[0]));
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
    if (s.findOne()) {
      q = q.findOne();
    }
    return q;
  }

  /** {@code ir} with every table source replaced by {@code bind(source)}. */
  static QueryIR bind(QueryIR ir, UnaryOperator<Source> bind) {
    return mapTree(ir, bind, UnaryOperator.identity());
  }

  /**
   * {@code ir} with every alias {@code a} (declarations and column references) renamed to {@code
   * rename(a)}. A subquery's output columns may be named after its aliases (select-all over a join
   * names them {@code alias.column}), so references to a subquery's columns follow its renamed
   * output names, matched by position, and so do the output names of a select-all block.
   */
  static QueryIR renameAliases(QueryIR ir, UnaryOperator<String> rename) {
    return mapTree(ir, UnaryOperator.identity(), rename);
  }

  private static QueryIR mapTree(QueryIR ir, UnaryOperator<Source> bind, UnaryOperator<String> rename) {
    if (ir instanceof QueryIR.UnionAll u) {
      List<QueryIR> parts = new ArrayList<>();
      for (QueryIR p : u.parts()) {
        parts.add(mapTree(p, bind, rename));
      }
      return new QueryIR.UnionAll(parts);
    }
    QueryIR.Select s = (QueryIR.Select) ir;
    java.util.Map<String, java.util.Map<String, String>> columnNames = new java.util.HashMap<>();
    List<QueryIR.Aliased> rels = new ArrayList<>();
    rels.add(s.from());
    for (QueryIR.Join j : s.joins()) {
      rels.add(j.relation());
    }
    java.util.Map<QueryIR.Aliased, QueryIR.Aliased> mapped = new java.util.HashMap<>();
    for (QueryIR.Aliased a : rels) {
      QueryIR.Aliased m = aliased(a, bind, rename);
      mapped.put(a, m);
      if (a.relation() instanceof QueryIR.Subquery old && m.relation() instanceof QueryIR.Subquery now) {
        java.util.Map<String, String> names = new java.util.HashMap<>();
        var before = Shapes.of(old.query()).columns();
        var after = Shapes.of(now.query()).columns();
        for (int i = 0; i < before.size(); i++) {
          names.put(before.get(i).name(), after.get(i).name());
        }
        columnNames.put(a.alias(), names);
      }
    }
    UnaryOperator<Expr> ex = e -> ExprTrees.map(e, n -> {
      if (n instanceof Expr.Col c) {
        return new Expr.Col(rename.apply(c.alias()),
            columnNames.getOrDefault(c.alias(), java.util.Map.of()).getOrDefault(c.column(), c.column()));
      }
      if (n instanceof Expr.Output o && o.name() != null && s.select().isEmpty()) {
        // a select-all block names its columns column (one relation) or alias.column
        String alias = rels.size() > 1 ? o.name().substring(0, o.name().indexOf('.')) : s.from().alias();
        String column = rels.size() > 1 ? o.name().substring(alias.length() + 1) : o.name();
        column = columnNames.getOrDefault(alias, java.util.Map.of()).getOrDefault(column, column);
        return new Expr.Output(rels.size() > 1 ? rename.apply(alias) + "." + column : column, 0);
      }
      return n;
    });
    List<QueryIR.Join> joins = new ArrayList<>();
    for (QueryIR.Join j : s.joins()) {
      List<QueryIR.On> on = new ArrayList<>();
      for (QueryIR.On o : j.on()) {
        on.add(new QueryIR.On((Expr.Col) ex.apply(o.left()), (Expr.Col) ex.apply(o.right())));
      }
      joins.add(new QueryIR.Join(j.kind(), mapped.get(j.relation()), on));
    }
    List<Expr> groupBy = new ArrayList<>();
    for (Expr g : s.groupBy()) {
      groupBy.add(ex.apply(g));
    }
    List<QueryIR.SelectItem> select = new ArrayList<>();
    for (QueryIR.SelectItem i : s.select()) {
      select.add(new QueryIR.SelectItem(i.name(), ex.apply(i.expr())));
    }
    List<QueryIR.OrderItem> order = new ArrayList<>();
    for (QueryIR.OrderItem o : s.orderBy()) {
      order.add(new QueryIR.OrderItem(ex.apply(o.expr()), o.descending(), o.nullsFirst()));
    }
    return new QueryIR.Select(mapped.get(s.from()), joins, ex.apply(s.where()), groupBy,
        ex.apply(s.having()), select, s.distinct(), order, s.limit(), s.offset(), s.findOne());
  }

  private static QueryIR.Aliased aliased(QueryIR.Aliased a, UnaryOperator<Source> bind, UnaryOperator<String> rename) {
    QueryIR.Relation rel = a.relation() instanceof QueryIR.Table t ? new QueryIR.Table(bind.apply(t.source()))
        : new QueryIR.Subquery(mapTree(((QueryIR.Subquery) a.relation()).query(), bind, rename));
    return new QueryIR.Aliased(rename.apply(a.alias()), rel);
  }
}
