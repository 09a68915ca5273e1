package dev.rivulet.query;

import dev.rivulet.engine.Column;
import dev.rivulet.engine.Row;
import dev.rivulet.testkit.RefValues;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The naive evaluator of nested queries (includes): a block's rows are computed by {@link
 * NaiveQuery} over the sources' current rows, and each include of each row by running its child
 * query again for that one row, with every reference to an enclosing block's column replaced by
 * that row's value as a literal. No buckets or routes: the only thing parents share is a memo of
 * the rows of a bound child without includes (the same query text over unchanged contents).
 *
 * <p>Results are trees of plain Java values, the form {@link IncludeTrees} reads live results
 * into: a row is a {@code List<Object>} of its select items in order, scalars as canonical values
 * ({@link RefValues}); an ARRAY or COLLECTION include is a {@code List} of child rows in the
 * child's total order (its order by, then its key ascending with NULLs last; by key when it has
 * none), a ONE include the first of them or null, a CONCAT include the text of the child's one column's non-null values
 * joined by the separator.
 *
 * <p>Not modelled (generators avoid them): includes in a grouping or distinct block, a child that
 * is a union, and correlation inside a join condition.
 */
final class IncludeNaive {
  private final NaiveQuery naive;
  /** Results of bound blocks without includes (a pure function of the block over fixed contents). */
  private final Map<QueryIR.Select, List<List<Object>>> leaves = new HashMap<>();

  /** An evaluator over {@code contents}, which must not change while it is used. */
  IncludeNaive(NaiveQuery.Contents contents) {
    this.naive = new NaiveQuery(contents);
  }

  /** The rows of {@code q}, in its order when it orders (else in key order). */
  List<List<Object>> eval(QueryIR q) {
    return block((QueryIR.Select) q, Map.of());
  }

  /** The value the include {@code inc} holds for a parent whose columns (alias.column) are {@code env}. */
  Object materialize(Expr.Include inc, Map<String, Expr.Lit> env) {
    List<List<Object>> rows = block((QueryIR.Select) inc.query(), env);
    switch (inc.mode()) {
      case ARRAY:
      case COLLECTION:
        return rows;
      case ONE:
        return rows.isEmpty() ? null : rows.get(0);
      default:
        StringBuilder sb = new StringBuilder();
        boolean first = true;
        for (List<Object> r : rows) {
          if (r.size() != 1) {
            throw new IllegalStateException("naive: concat over a child of " + r.size() + " columns");
          }
          if (r.get(0) == null) {
            continue;
          }
          if (!first) {
            sb.append(inc.separator());
          }
          sb.append(text(r.get(0)));
          first = false;
        }
        return sb.toString();
    }
  }

  /** The text of a scalar in a concatenation (generators concatenate strings and integers). */
  static String text(Object v) {
    if (v instanceof java.math.BigDecimal bd) {
      return bd.toPlainString();
    }
    return String.valueOf(v);
  }

  private List<List<Object>> block(QueryIR.Select raw, Map<String, Expr.Lit> env) {
    QueryIR.Select s = bind(raw, env);
    boolean leaf = s.select().stream().noneMatch(i -> i.expr() instanceof Expr.Include);
    if (leaf && leaves.containsKey(s)) {
      return leaves.get(s);
    }
    List<Integer> includes = new ArrayList<>();
    List<QueryIR.SelectItem> flatItems = new ArrayList<>();
    for (int i = 0; i < s.select().size(); i++) {
      QueryIR.SelectItem item = s.select().get(i);
      if (item.expr() instanceof Expr.Include) {
        includes.add(i);
      } else {
        flatItems.add(item);
      }
    }
    List<String> envNames = new ArrayList<>();
    List<Column> envColumns = new ArrayList<>();
    if (!includes.isEmpty()) {
      if (ExprTrees.groups(s) || s.distinct()) {
        throw new IllegalStateException("naive: includes in a grouping or distinct block are not modelled");
      }
      for (BlockScope.Part p : Shapes.scope(s).parts()) {
        for (Column c : p.schema().columns()) {
          flatItems.add(new QueryIR.SelectItem("__env" + envNames.size(), new Expr.Col(p.alias(), c.name())));
          envNames.add(p.alias() + "." + c.name());
          envColumns.add(c);
        }
      }
    }
    QueryIR.Select flat = new QueryIR.Select(s.from(), s.joins(), s.where(), s.groupBy(), s.having(), flatItems,
        s.distinct(), s.orderBy(), s.limit(), s.offset(), s.findOne(), s.after());
    List<Row> window = totalWindow(naive.eval(flat));
    int scalars = flatItems.size() - envNames.size();
    List<List<Object>> out = new ArrayList<>();
    for (Row r : window) {
      Map<String, Expr.Lit> inner = new HashMap<>(env);
      for (int k = 0; k < envNames.size(); k++) {
        inner.put(envNames.get(k), new Expr.Lit(r.get(scalars + k), envColumns.get(k).type()));
      }
      List<Object> row = new ArrayList<>();
      int next = 0;
      for (int i = 0; i < s.select().size(); i++) {
        if (s.select().get(i).expr() instanceof Expr.Include inc) {
          row.add(materialize(inc, inner));
        } else {
          row.add(r.get(next++));
        }
      }
      out.add(row);
    }
    if (leaf) {
      leaves.put(s, out);
    }
    return out;
  }

  /**
   * The window under the total order: rows sorted by the order values, ties (and an unordered
   * result) broken by the key, then cut by offset and limit.
   */
  private static List<Row> totalWindow(NaiveQuery.Result r) {
    List<Integer> idx = new ArrayList<>();
    for (int i = 0; i < r.rows().size(); i++) {
      idx.add(i);
    }
    int[] tie = r.tieClass();
    idx.sort((a, b) -> {
      if (r.ordered() && tie[a] != tie[b]) {
        return Integer.compare(tie[a], tie[b]);
      }
      return keyOrder(r.keys().get(a), r.keys().get(b));
    });
    if (!r.ordered() && r.to() - r.from() != r.rows().size()) {
      throw new IllegalStateException("naive: an unordered window is not modelled");
    }
    List<Row> out = new ArrayList<>();
    for (int i = r.from(); i < r.to(); i++) {
      out.add(r.rows().get(idx.get(i)));
    }
    return out;
  }

  /** Keys ascending value by value, NULLs last (as findOne without order by sorts by key). */
  private static int keyOrder(Row a, Row b) {
    for (int i = 0; i < Math.min(a.width(), b.width()); i++) {
      int c = NaiveQuery.compare(a.get(i), b.get(i), false, false);
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.width(), b.width());
  }

  /** {@code s} with every column of an enclosing block (named in {@code env}) replaced by its literal. */
  private static QueryIR.Select bind(QueryIR.Select s, Map<String, Expr.Lit> env) {
    if (env.isEmpty()) {
      return s;
    }
    Set<String> local = new HashSet<>();
    local.add(s.from().alias());
    for (QueryIR.Join j : s.joins()) {
      local.add(j.relation().alias());
    }
    java.util.function.UnaryOperator<Expr> f = e -> {
      if (e instanceof Expr.Col c && !local.contains(c.alias()) && env.containsKey(c.toString())) {
        return env.get(c.toString());
      }
      return e;
    };
    List<QueryIR.SelectItem> items = new ArrayList<>();
    for (QueryIR.SelectItem item : s.select()) {
      items.add(item.expr() instanceof Expr.Include ? item : new QueryIR.SelectItem(item.name(),
          ExprTrees.map(item.expr(), f)));
    }
    List<QueryIR.OrderItem> order = new ArrayList<>();
    for (QueryIR.OrderItem o : s.orderBy()) {
      order.add(new QueryIR.OrderItem(ExprTrees.map(o.expr(), f), o.descending(), o.nullsFirst()));
    }
    List<Expr> groups = new ArrayList<>();
    for (Expr g : s.groupBy()) {
      groups.add(ExprTrees.map(g, f));
    }
    return new QueryIR.Select(s.from(), s.joins(), ExprTrees.map(s.where(), f), groups,
        ExprTrees.map(s.having(), f), items, s.distinct(), order, s.limit(), s.offset(), s.findOne(), s.after());
  }
}
