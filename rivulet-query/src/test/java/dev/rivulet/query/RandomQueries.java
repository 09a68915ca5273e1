package dev.rivulet.query;

import dev.rivulet.engine.Column;
import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.Schema;
import dev.rivulet.query.ref.RefTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Predicate;

/**
 * Random queries over the collections of an {@link OracleWorld}, drawn from the whole clause set:
 * from a collection or a subquery; inner, left, right and full joins on one or two equalities
 * (either orientation); where; group by with count, count distinct, sum, avg, min and max, and
 * having; select lists with computed columns, or select-all; distinct; order by on several keys
 * with either direction and NULL placement, often naming select columns by output name or position
 * (and having by output name); limit, offset and findOne (also without order by on a
 * global aggregate, which has at most one row); union all, also wrapped as
 * a subquery; and queries over an upstream live query ({@link #over}). About one top-level block in
 * eight starts with an outer join (mostly FULL) of two subqueries keyed only by nullable columns
 * ({@link #nullKeyed}), the shape that needs the compiler's outer-join presence column.
 *
 * <p>Nested windows (a subquery's or a union part's order with limit, offset or findOne) are always
 * total (they end with the relations' keys, the group expressions, or every select item), because
 * which rows a tied window keeps is the engine's choice and changes the outer result. Top-level
 * orders are total most of the time and tied otherwise ({@link ResultMatch} accepts any tie-break).
 * findOne without an order by only reads collections (the SQL oracle cannot see a subquery's
 * hidden key) and never under distinct. Expressions follow {@link RandomScalars}' restrictions.
 * Union parts have the same column types except that a numeric column may be INT in some parts
 * and DOUBLE in others.
 */
final class RandomQueries {
  private final Random r;
  private final RandomScalars x;
  private final List<? extends Source> tables;
  private final Predicate<Source> isCollection;
  private int aliases;

  /**
   * @param tables the sources queries read
   * @param isCollection which of them are collections of the world (their DOUBLE columns hold exact
   *     values, and their key columns are visible); the others are live queries
   */
  RandomQueries(Random r, List<? extends Source> tables, Predicate<Source> isCollection) {
    this(r, tables, isCollection, false);
  }

  /** With {@code unicode}, literals and patterns also hold text beyond U+FFFF. */
  RandomQueries(Random r, List<? extends Source> tables, Predicate<Source> isCollection, boolean unicode) {
    this.r = r;
    this.x = new RandomScalars(r, unicode);
    this.tables = tables;
    this.isCollection = isCollection;
  }

  /** One relation of a block under construction. */
  private record Rel(QueryIR.Aliased aliased, List<RandomScalars.Col> cols, List<Expr> keys, boolean baseTable) {}

  /** A random top-level query over the collections. */
  QueryIR query() {
    aliases = 0;
    return r.nextInt(12) == 0 ? union(true) : block(r.nextInt(3), false, null);
  }

  /** A random top-level query reading {@code upstream} (a live query), maybe joined with collections. */
  QueryIR over(Source upstream) {
    aliases = 0;
    return block(1, false, source(upstream, false));
  }

  private String fresh() {
    return "q" + (aliases++);
  }

  private Rel source(Source src, boolean base) {
    String alias = fresh();
    List<RandomScalars.Col> cols = new ArrayList<>();
    for (Column c : Shapes.visible(src).columns()) {
      boolean arith = c.type() == ColumnType.INT || (c.type() == ColumnType.DOUBLE && isCollection.test(src));
      cols.add(new RandomScalars.Col(new Expr.Col(alias, c.name()), c.type(), arith));
    }
    List<Expr> keys = null;
    if (base) {
      keys = new ArrayList<>();
      for (String k : src.keyColumns()) {
        keys.add(new Expr.Col(alias, k));
      }
    }
    return new Rel(new QueryIR.Aliased(alias, new QueryIR.Table(src)), cols, keys, base);
  }

  private Rel subquery(QueryIR q, List<String> keyColumns) {
    String alias = fresh();
    List<RandomScalars.Col> cols = new ArrayList<>();
    for (Column c : Shapes.of(q).columns()) {
      cols.add(new RandomScalars.Col(new Expr.Col(alias, c.name()), c.type(), c.type() == ColumnType.INT));
    }
    List<Expr> keys = null;
    if (keyColumns != null) {
      keys = new ArrayList<>();
      for (String k : keyColumns) {
        keys.add(new Expr.Col(alias, k));
      }
    }
    return new Rel(new QueryIR.Aliased(alias, new QueryIR.Subquery(q)), cols, keys, false);
  }

  private Rel relation(int depth) {
    if (depth > 0 && r.nextInt(4) == 0) {
      if (r.nextInt(5) == 0) {
        return subquery(union(false), List.of("p", "k"));
      }
      return subquery(block(depth - 1, true, null), null);
    }
    Source src = tables.get(r.nextInt(tables.size()));
    return source(src, isCollection.test(src));
  }

  /**
   * A subquery over a collection whose key has no column that cannot be NULL: a global aggregate
   * (an empty key, one row even over no rows) or a grouping by one nullable column (the rows whose
   * value is NULL form a group keyed NULL). Its columns: the group value {@code g0} if any, then one
   * or two aggregates.
   */
  private Rel nullKeyed() {
    List<Source> collections = new ArrayList<>();
    for (Source src : tables) {
      if (isCollection.test(src)) {
        collections.add(src);
      }
    }
    Rel t = source(collections.get(r.nextInt(collections.size())), true);
    List<Expr> groupBy = new ArrayList<>();
    List<QueryIR.SelectItem> items = new ArrayList<>();
    if (r.nextBoolean()) {
      Expr g = t.cols().get(1 + r.nextInt(t.cols().size() - 1)).ref(); // not the key column id
      groupBy.add(g);
      items.add(new QueryIR.SelectItem("g0", g));
    }
    for (int i = 1 + r.nextInt(2); i > 0; i--) {
      items.add(new QueryIR.SelectItem("a" + i, x.aggregate(t.cols())));
    }
    Expr where = r.nextInt(3) == 0 ? x.bool(t.cols(), 1) : null;
    QueryIR.Select q = new QueryIR.Select(t.aliased(), List.of(), where, groupBy, null, items, false, List.of(), null,
        0, false);
    return subquery(q, null);
  }

  /** A select block; {@code nested} blocks only get total windows. */
  private QueryIR.Select block(int depth, boolean nested, Rel forced) {
    List<Rel> rels = new ArrayList<>();
    List<QueryIR.Join> joins = new ArrayList<>();
    int nJoins = r.nextInt(20) < 9 ? 0 : r.nextInt(20) < 14 ? 1 : 2;
    if (forced == null && !nested && r.nextInt(8) == 0) {
      // Two sides keyed by nullable columns only, outer joined: only a presence column tells a
      // side that is absent from one present with NULL keys.
      rels.add(nullKeyed());
      Rel other = nullKeyed();
      List<QueryIR.On> on = ons(rels, other);
      if (!on.isEmpty()) {
        int k = r.nextInt(6);
        QueryIR.JoinKind kind = k < 4 ? QueryIR.JoinKind.FULL : k == 4 ? QueryIR.JoinKind.LEFT : QueryIR.JoinKind.RIGHT;
        joins.add(new QueryIR.Join(kind, other.aliased(), on));
        rels.add(other);
      }
      nJoins = r.nextInt(4) == 0 ? 1 : 0;
    } else {
      rels.add(forced != null ? forced : relation(depth));
    }
    for (int i = 0; i < nJoins; i++) {
      Rel rel = relation(depth);
      QueryIR.JoinKind kind = QueryIR.JoinKind.values()[r.nextInt(4)];
      List<QueryIR.On> on = ons(rels, rel);
      if (!on.isEmpty()) {
        joins.add(new QueryIR.Join(kind, rel.aliased(), on));
        rels.add(rel);
      }
    }
    List<RandomScalars.Col> cols = new ArrayList<>();
    for (Rel rel : rels) {
      cols.addAll(rel.cols());
    }
    int w = r.nextInt(20);
    Expr where = w < 5 ? x.bool(cols, 1) : w < 9 ? x.bool(cols, 2) : w < 11 ? x.bool(cols, 3) : null;
    boolean grouped = r.nextInt(10) < 3;
    List<Expr> groupBy = new ArrayList<>();
    List<QueryIR.SelectItem> select = new ArrayList<>();
    Expr having = null;
    List<Expr> orderable = new ArrayList<>();
    List<Expr> total = new ArrayList<>();
    boolean totalable = true;
    boolean distinct = r.nextInt(8) == 0;
    if (grouped) {
      for (int i = r.nextInt(3); i > 0; i--) {
        Expr g = r.nextInt(10) < 7 ? cols.get(r.nextInt(cols.size())).ref() : x.any(cols, 1);
        if (!(g instanceof Expr.Lit) && !groupBy.contains(g)) {
          groupBy.add(g);
        }
      }
      List<Expr.Agg> aggs = new ArrayList<>();
      for (int i = 1 + r.nextInt(3); i > 0; i--) {
        aggs.add(x.aggregate(cols));
      }
      for (int i = 0; i < groupBy.size(); i++) {
        if (r.nextInt(5) > 0) {
          select.add(new QueryIR.SelectItem("g" + i, groupBy.get(i)));
        }
      }
      for (int j = 0; j < aggs.size(); j++) {
        Expr.Agg a = aggs.get(j);
        Expr e = a;
        if (a.fn() == Expr.AggFn.COUNT && r.nextInt(4) == 0) {
          e = new Expr.Arith(Expr.ArithOp.values()[r.nextInt(3)], a, x.literal(ColumnType.INT));
        } else if (r.nextInt(6) == 0) {
          e = new Expr.Coalesce(List.of(a, a.arg() == null ? x.literal(ColumnType.INT) : literalFor(a, rels)));
        }
        select.add(new QueryIR.SelectItem("a" + j, e));
      }
      if (r.nextInt(10) < 3) {
        having = havingCondition(aggs, groupBy, rels, cols);
      }
      orderable.addAll(groupBy);
      orderable.addAll(aggs);
      total.addAll(groupBy);
    } else {
      boolean all = r.nextInt(10) < 4;
      if (!all) {
        for (int i = 1 + r.nextInt(4); i > 0; i--) {
          Expr e = r.nextInt(10) < 6 ? cols.get(r.nextInt(cols.size())).ref() : x.any(cols, 2);
          select.add(new QueryIR.SelectItem("c" + select.size(), e));
        }
      } else if (distinct) {
        distinct = r.nextBoolean();
      }
      for (int i = 0; i < 3; i++) {
        Expr e = r.nextInt(10) < 7 ? cols.get(r.nextInt(cols.size())).ref() : x.any(cols, 1);
        orderable.add(e instanceof Expr.Lit ? cols.get(0).ref() : e);
      }
      for (Rel rel : rels) {
        if (rel.keys() == null) {
          totalable = false;
        } else {
          total.addAll(rel.keys());
        }
      }
    }
    if (distinct) {
      if (select.isEmpty()) {
        // select-all under distinct: the order items must be shown columns, and all of them are
        orderable.clear();
        total.clear();
        totalable = true;
        for (RandomScalars.Col c : cols) {
          orderable.add(c.ref());
          total.add(c.ref());
        }
      } else {
        orderable.clear();
        total.clear();
        totalable = true;
        for (QueryIR.SelectItem item : select) {
          if (!(item.expr() instanceof Expr.Lit)) {
            orderable.add(item.expr());
          }
          total.add(item.expr());
        }
      }
    }
    List<QueryIR.OrderItem> order = new ArrayList<>();
    Long limit = null;
    long offset = 0;
    boolean findOne = false;
    if (!orderable.isEmpty() && r.nextInt(10) < (nested ? 2 : 5)) {
      for (int i = 1 + r.nextInt(2); i > 0; i--) {
        order.add(orderItem(orderable.get(r.nextInt(orderable.size()))));
      }
      boolean makeTotal = nested || r.nextInt(10) < 7;
      if (makeTotal && totalable) {
        for (Expr t : total) {
          order.add(orderItem(t));
        }
      }
      if (!nested || (makeTotal && totalable)) {
        int k = r.nextInt(10);
        if (k < 4) {
          limit = (long) (r.nextInt(12) == 0 ? 0 : 1 + r.nextInt(5));
        } else if (k < 6) {
          limit = (long) (1 + r.nextInt(4));
          offset = r.nextInt(3);
        } else if (k == 6) {
          offset = 1 + r.nextInt(3);
        } else if (k == 7) {
          findOne = true;
          offset = r.nextInt(3) == 0 ? 1 : 0;
        }
      }
    } else if (grouped && groupBy.isEmpty() && r.nextInt(4) == 0) {
      // a global aggregate has one row (none after having): limit and offset need no order
      int k = r.nextInt(6);
      if (k < 3) {
        limit = (long) k;
      } else if (k < 5) {
        offset = 1;
        limit = k == 3 ? null : 1L;
      } else if (!distinct) {
        findOne = true;
        offset = r.nextInt(2);
      }
    } else if (!distinct && r.nextInt(12) == 0 && rels.stream().allMatch(Rel::baseTable)) {
      findOne = true;
    }
    List<String> names = new ArrayList<>();
    List<Expr> shown = new ArrayList<>();
    if (select.isEmpty()) {
      for (RandomScalars.Col c : cols) {
        names.add(rels.size() > 1 ? c.ref().alias() + "." + c.ref().column() : c.ref().column());
        shown.add(c.ref());
      }
    } else {
      for (QueryIR.SelectItem item : select) {
        names.add(item.name());
        shown.add(item.expr());
      }
    }
    order.replaceAll(o -> new QueryIR.OrderItem(outputRef(o.expr(), names, shown, true), o.descending(),
        o.nullsFirst()));
    if (having != null) {
      having = ExprTrees.map(having, e -> {
        Expr o = outputRef(e, names, shown, false);
        // An aggregate's argument reads the input rows, never an output column: an equal copy
        // (not the node itself) stops the descent.
        return o == e && e instanceof Expr.Agg a ? new Expr.Agg(a.fn(), a.arg(), a.distinct()) : o;
      });
    }
    return new QueryIR.Select(rels.get(0).aliased(), joins, where, groupBy, having, select, distinct, order, limit,
        offset, findOne);
  }

  /**
   * Often names an expression that is a column of the select list by that column: its output name,
   * or (a whole order-by item) its position, as SQL allows ({@code ORDER BY total}, {@code ORDER BY
   * 2}, {@code HAVING total > 1}).
   */
  private Expr outputRef(Expr e, List<String> names, List<Expr> shown, boolean wholeItem) {
    int at = e instanceof Expr.Lit ? -1 : shown.indexOf(e);
    if (at < 0 || r.nextInt(3) == 0) {
      return e;
    }
    return wholeItem && r.nextBoolean() ? new Expr.Output(null, at + 1) : new Expr.Output(names.get(at), 0);
  }

  private QueryIR.OrderItem orderItem(Expr e) {
    return new QueryIR.OrderItem(e, r.nextBoolean(), r.nextBoolean());
  }

  /** One or two join equalities between the new relation and earlier ones, comparable types. */
  private List<QueryIR.On> ons(List<Rel> earlier, Rel rel) {
    List<RandomScalars.Col> before = new ArrayList<>();
    for (Rel e : earlier) {
      before.addAll(e.cols());
    }
    List<QueryIR.On> out = new ArrayList<>();
    int n = r.nextInt(10) < 8 ? 1 : 2;
    for (int attempt = 0; attempt < 40 && out.size() < n; attempt++) {
      RandomScalars.Col mine;
      RandomScalars.Col theirs;
      if (rel.keys() != null && r.nextInt(10) < 6) {
        mine = rel.cols().get(0); // the key column "id" comes first
        theirs = before.get(r.nextInt(before.size()));
      } else {
        mine = rel.cols().get(r.nextInt(rel.cols().size()));
        theirs = before.get(r.nextInt(before.size()));
      }
      if (!comparable(mine.type(), theirs.type())) {
        continue;
      }
      QueryIR.On on = r.nextBoolean() ? new QueryIR.On(theirs.ref(), mine.ref()) : new QueryIR.On(mine.ref(), theirs.ref());
      if (!out.contains(on)) {
        out.add(on);
      }
    }
    if (out.isEmpty()) {
      // every relation has an INT column or a numeric one: fall back to the first numeric pair
      for (RandomScalars.Col m : rel.cols()) {
        for (RandomScalars.Col t : before) {
          if (out.isEmpty() && comparable(m.type(), t.type())) {
            out.add(new QueryIR.On(t.ref(), m.ref()));
          }
        }
      }
    }
    return out; // empty when no column pair is comparable: the caller drops the join
  }

  private static boolean comparable(ColumnType a, ColumnType b) {
    return a == b || (a.isNumeric() && b.isNumeric());
  }

  private Expr literalFor(Expr.Agg a, List<Rel> rels) {
    ColumnType t = aggType(a, rels);
    return x.literal(t == ColumnType.DECIMAL ? ColumnType.INT : t);
  }

  private ColumnType aggType(Expr.Agg a, List<Rel> rels) {
    BlockScope scope = BlockScope.empty();
    for (Rel rel : rels) {
      List<Column> cs = new ArrayList<>();
      for (RandomScalars.Col c : rel.cols()) {
        cs.add(Column.of(c.ref().column(), c.type()));
      }
      scope = scope.append(rel.aliased().alias(), Schema.of(cs));
    }
    return RefTypes.aggregate(a, scope).declared();
  }

  private Expr havingCondition(List<Expr.Agg> aggs, List<Expr> groupBy, List<Rel> rels, List<RandomScalars.Col> cols) {
    List<Expr> parts = new ArrayList<>();
    for (int i = 1 + r.nextInt(2); i > 0; i--) {
      if (!groupBy.isEmpty() && r.nextInt(4) == 0) {
        parts.add(new Expr.IsNull(groupBy.get(r.nextInt(groupBy.size())), r.nextBoolean()));
        continue;
      }
      Expr.Agg a = r.nextInt(3) == 0 ? x.aggregate(cols) : aggs.get(r.nextInt(aggs.size()));
      ColumnType t = aggType(a, rels);
      Expr lit = x.literal(t == ColumnType.DECIMAL || t == ColumnType.ANY ? ColumnType.INT : t);
      parts.add(new Expr.Compare(Expr.CompareOp.values()[r.nextInt(6)], a, lit));
    }
    if (parts.size() == 1) {
      return parts.get(0);
    }
    return r.nextBoolean() ? new Expr.And(parts) : new Expr.Or(parts);
  }

  /**
   * A union all of two or three parts: each part selects its part number {@code p}, its
   * collection's key {@code k} and one or two computed columns of the same kinds (INT and DOUBLE
   * mixed). As a top-level query it is used as is or wrapped in a block (from, where, group by,
   * order by...).
   */
  private QueryIR union(boolean top) {
    List<ColumnType> sig = new ArrayList<>();
    ColumnType[] kinds = {ColumnType.INT, ColumnType.STRING, ColumnType.BOOL, ColumnType.DOUBLE};
    for (int i = 1 + r.nextInt(2); i > 0; i--) {
      sig.add(kinds[r.nextInt(kinds.length)]);
    }
    List<QueryIR> parts = new ArrayList<>();
    List<Source> collections = new ArrayList<>();
    for (Source src : tables) {
      if (isCollection.test(src)) {
        collections.add(src);
      }
    }
    for (int p = 2 + r.nextInt(2); p > 0; p--) {
      Rel t = source(collections.get(r.nextInt(collections.size())), true);
      List<QueryIR.SelectItem> items = new ArrayList<>();
      items.add(new QueryIR.SelectItem("p", new Expr.Lit((long) parts.size())));
      items.add(new QueryIR.SelectItem(parts.isEmpty() ? "k" : "key", t.keys().get(0)));
      for (int i = 0; i < sig.size(); i++) {
        ColumnType type = sig.get(i);
        if (type.isNumeric() && r.nextInt(3) == 0) {
          type = type == ColumnType.INT ? ColumnType.DOUBLE : ColumnType.INT; // the union's column is DOUBLE
        }
        items.add(new QueryIR.SelectItem((parts.isEmpty() ? "v" : "w") + i, typed(type, t.cols())));
      }
      Expr where = r.nextBoolean() ? x.bool(t.cols(), 2) : null;
      List<QueryIR.OrderItem> order = new ArrayList<>();
      Long limit = null;
      if (r.nextInt(5) == 0) {
        order.add(orderItem(t.cols().get(r.nextInt(t.cols().size())).ref()));
        order.add(orderItem(t.keys().get(0)));
        limit = (long) r.nextInt(4);
      }
      parts.add(new QueryIR.Select(t.aliased(), List.of(), where, List.of(), null, items, false, order, limit, 0,
          false));
    }
    QueryIR u = new QueryIR.UnionAll(parts);
    if (top && r.nextBoolean()) {
      return block(0, false, subquery(u, List.of("p", "k")));
    }
    return u;
  }

  /** An expression of exactly type {@code t}. */
  private Expr typed(ColumnType t, List<RandomScalars.Col> cols) {
    BlockScope scope = BlockScope.empty();
    List<Column> cs = new ArrayList<>();
    String alias = cols.get(0).ref().alias();
    for (RandomScalars.Col c : cols) {
      cs.add(Column.of(c.ref().column(), c.type()));
    }
    scope = scope.append(alias, Schema.of(cs));
    for (int attempt = 0; attempt < 10; attempt++) {
      Expr e = x.of(t, cols, 1 + r.nextInt(2));
      if (RefTypes.typeOf(e, scope).declared() == t) {
        return e;
      }
    }
    return x.literal(t);
  }
}
