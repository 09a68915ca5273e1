package dev.rivulet.query;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.query.ref.RefEval;
import dev.rivulet.query.ref.RefScope;
import dev.rivulet.query.ref.RefType;
import dev.rivulet.query.ref.RefTypes;
import dev.rivulet.testkit.RefValues;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The naive query evaluator of the oracle suite: runs a {@link QueryIR} directly over the whole
 * current contents of its sources, the plainest way, with SQL semantics, so that every live result
 * can be checked against it.
 *
 * <ul>
 *   <li>Joins are nested loops over the left-deep chain; a join condition is a conjunction of
 *       equalities and a NULL on either side never matches; LEFT, RIGHT and FULL add the rows of
 *       their preserved side that matched nothing, null-extended.
 *   <li>Where and having keep a row only when the predicate is TRUE (three-valued logic); scalar
 *       expressions are evaluated by the reference evaluator {@link RefEval} over the concatenated
 *       row, on the reference value model {@link RefValues} (no code shared with the compiler).
 *       Rows are built with {@link RefValues#row}, which fails if the engine's row type would
 *       hold a value differently.
 *   <li>Grouping buckets rows by the canonical values of the group expressions (NULLs form one
 *       group); a block with aggregates but no group by is one group, also over no rows. Aggregates
 *       are recomputed from the group's values by {@link NaiveAggregates}. Select, having and order
 *       by then read the group row.
 *   <li>Output names and positions in order by and having stand for the select items they name.
 *   <li>Distinct keeps the first of equal visible rows. Order by sorts stably by the order values
 *       (direction and NULL placement per item); findOne without an order sorts by the block's
 *       key (the relations' keys, or the group values) ascending, NULLs last. Offset and limit (one
 *       row for findOne) cut the window.
 *   <li>Union all concatenates its parts' windows; a subquery contributes its window.
 * </ul>
 *
 * <p>Ties: the result keeps the whole sorted list with a tie class per row (rows with equal order
 * values), so a comparison can accept any order within a class and any choice of rows from a class
 * cut by the window edge ({@link ResultMatch}). A nested window (a subquery's, or a union part's)
 * whose edge cuts a class of different rows has no single right answer: {@link Ambiguous} is
 * thrown, and generators must order nested windows totally.
 */
final class NaiveQuery {
  /** One row of a relation: its visible values and its key. */
  record KRow(Row row, Row key) {}

  /** The current rows of a source (visible values and key). */
  @FunctionalInterface
  interface Contents {
    List<KRow> of(Source source);
  }

  /** A nested window whose content depends on how ties are broken. */
  static final class Ambiguous extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Ambiguous(String message) {
      super(message);
    }
  }

  /**
   * A query's result: all rows (sorted when ordered) with their keys and tie classes, and the
   * window {@code [from, to)} that is the answer.
   */
  record Result(Schema schema, boolean ordered, List<Row> rows, List<Row> keys, int[] tieClass, int from, int to) {
    List<Row> window() {
      return rows.subList(from, to);
    }

    List<KRow> keyedWindow() {
      List<KRow> out = new ArrayList<>();
      for (int i = from; i < to; i++) {
        out.add(new KRow(rows.get(i), keys.get(i)));
      }
      return out;
    }
  }

  private final Contents contents;

  NaiveQuery(Contents contents) {
    this.contents = contents;
  }

  /** Evaluates a top-level query (its window may cut ties; see the class comment). */
  Result eval(QueryIR q) {
    return eval(q, true);
  }

  private Result eval(QueryIR q, boolean top) {
    if (q instanceof QueryIR.UnionAll u) {
      return union(u);
    }
    return block((QueryIR.Select) q, top);
  }

  private Result union(QueryIR.UnionAll u) {
    List<Result> parts = new ArrayList<>();
    int keyWidth = 0;
    for (QueryIR p : u.parts()) {
      Result r = eval(p, false);
      parts.add(r);
      for (Row k : r.keys()) {
        keyWidth = Math.max(keyWidth, k.width());
      }
    }
    List<Row> rows = new ArrayList<>();
    List<Row> keys = new ArrayList<>();
    for (int p = 0; p < parts.size(); p++) {
      for (KRow kr : parts.get(p).keyedWindow()) {
        rows.add(kr.row());
        Object[] k = new Object[1 + keyWidth];
        k[0] = (long) p;
        for (int i = 0; i < kr.key().width(); i++) {
          k[1 + i] = kr.key().get(i);
        }
        keys.add(RefValues.row(k));
      }
    }
    return new Result(Shapes.of(u), false, rows, keys, new int[rows.size()], 0, rows.size());
  }

  /** A row of the block after its joins: the concatenated visible values and the keys. */
  private record Joined(Row row, Row key) {}

  private Result block(QueryIR.Select raw, boolean top) {
    QueryIR.Select s = ExprTrees.resolveOutputs(raw); // ORDER BY name / position, HAVING name
    BlockScope scope = Shapes.scope(s);
    List<Joined> acc = new ArrayList<>();
    for (KRow r : relation(s.from())) {
      acc.add(new Joined(r.row(), r.key()));
    }
    int leftWidth = scope.part(s.from().alias()).schema().width();
    int leftKeys = keyWidth(s.from(), acc.isEmpty() ? null : acc.get(0).key());
    for (QueryIR.Join j : s.joins()) {
      String alias = j.relation().alias();
      List<KRow> right = relation(j.relation());
      int rightWidth = scope.part(alias).schema().width();
      int rightKeys = keyWidth(j.relation(), right.isEmpty() ? null : right.get(0).key());
      int[] li = new int[j.on().size()];
      int[] ri = new int[j.on().size()];
      for (int i = 0; i < li.length; i++) {
        QueryIR.On on = j.on().get(i);
        Expr.Col mine = on.right().alias().equals(alias) ? on.right() : on.left();
        Expr.Col theirs = mine == on.right() ? on.left() : on.right();
        li[i] = scope.slot(theirs).index();
        ri[i] = scope.slot(mine).index() - scope.part(alias).offset();
      }
      boolean keepLeft = j.kind() == QueryIR.JoinKind.LEFT || j.kind() == QueryIR.JoinKind.FULL;
      boolean keepRight = j.kind() == QueryIR.JoinKind.RIGHT || j.kind() == QueryIR.JoinKind.FULL;
      boolean[] rightMatched = new boolean[right.size()];
      List<Joined> next = new ArrayList<>();
      for (Joined l : acc) {
        boolean matched = false;
        for (int k = 0; k < right.size(); k++) {
          KRow r = right.get(k);
          if (matches(l.row(), li, r.row(), ri)) {
            next.add(new Joined(l.row().concat(r.row()), l.key().concat(r.key())));
            matched = true;
            rightMatched[k] = true;
          }
        }
        if (!matched && keepLeft) {
          next.add(new Joined(l.row().concat(Row.nulls(rightWidth)), l.key().concat(Row.nulls(rightKeys))));
        }
      }
      if (keepRight) {
        for (int k = 0; k < right.size(); k++) {
          if (!rightMatched[k]) {
            KRow r = right.get(k);
            next.add(new Joined(Row.nulls(leftWidth).concat(r.row()), Row.nulls(leftKeys).concat(r.key())));
          }
        }
      }
      acc = next;
      leftWidth += rightWidth;
      leftKeys += rightKeys;
    }
    if (s.where() != null) {
      RefEval p = RefEval.of(s.where(), scope);
      List<Joined> kept = new ArrayList<>();
      for (Joined r : acc) {
        if (p.holds(r.row())) {
          kept.add(r);
        }
      }
      acc = kept;
    }
    RefScope itemScope = scope;
    boolean grouped = ExprTrees.groups(s);
    List<Expr.Agg> aggs = ExprTrees.blockAggregates(s);
    if (grouped) {
      acc = group(s, scope, aggs, acc);
      itemScope = Shapes.groupScope(s, scope);
    }
    return project(s, top, acc, itemScope, grouped, aggs);
  }

  private List<KRow> relation(QueryIR.Aliased a) {
    if (a.relation() instanceof QueryIR.Table t) {
      return contents.of(t.source());
    }
    return eval(((QueryIR.Subquery) a.relation()).query(), false).keyedWindow();
  }

  /** Key width of a relation: its key columns for a source, else as its rows show (0 if none). */
  private static int keyWidth(QueryIR.Aliased a, Row sample) {
    if (a.relation() instanceof QueryIR.Table t) {
      return t.source().keyColumns().size();
    }
    return sample == null ? 0 : sample.width();
  }

  private static boolean matches(Row l, int[] li, Row r, int[] ri) {
    for (int i = 0; i < li.length; i++) {
      Object a = l.get(li[i]);
      Object b = r.get(ri[i]);
      if (!RefValues.same(a, b)) {
        return false;
      }
    }
    return true;
  }

  /** Buckets the rows and computes each group's row (group values, then aggregates), filtered by having. */
  private static List<Joined> group(QueryIR.Select s, BlockScope scope, List<Expr.Agg> aggs, List<Joined> rows) {
    List<RefEval> groupEvals = new ArrayList<>();
    for (Expr g : s.groupBy()) {
      groupEvals.add(RefEval.of(g, scope));
    }
    Map<Row, List<Row>> buckets = new LinkedHashMap<>();
    if (s.groupBy().isEmpty()) {
      buckets.put(Row.of(), new ArrayList<>());
    }
    for (Joined r : rows) {
      Object[] g = new Object[groupEvals.size()];
      for (int i = 0; i < g.length; i++) {
        g[i] = groupEvals.get(i).eval(r.row());
      }
      buckets.computeIfAbsent(RefValues.row(g), k -> new ArrayList<>()).add(r.row());
    }
    List<RefEval> argEvals = new ArrayList<>();
    List<RefType> argTypes = new ArrayList<>();
    for (Expr.Agg a : aggs) {
      argEvals.add(a.arg() == null ? null : RefEval.of(a.arg(), scope));
      argTypes.add(a.arg() == null ? RefType.INT : RefTypes.typeOf(a.arg(), scope));
    }
    List<Joined> out = new ArrayList<>();
    for (Map.Entry<Row, List<Row>> b : buckets.entrySet()) {
      Object[] vals = new Object[b.getKey().width() + aggs.size()];
      for (int i = 0; i < b.getKey().width(); i++) {
        vals[i] = b.getKey().get(i);
      }
      for (int j = 0; j < aggs.size(); j++) {
        List<Object> args = new ArrayList<>();
        for (Row r : b.getValue()) {
          args.add(argEvals.get(j) == null ? null : argEvals.get(j).eval(r));
        }
        vals[b.getKey().width() + j] = NaiveAggregates.compute(aggs.get(j), argTypes.get(j), args);
      }
      out.add(new Joined(RefValues.row(vals), b.getKey()));
    }
    if (s.having() != null) {
      BlockScope gs = Shapes.groupScope(s, scope);
      RefEval p = RefEval.of(ExprTrees.overGroup(s.having(), s.groupBy(), aggs, "__g"), gs);
      out.removeIf(r -> !p.holds(r.row()));
    }
    return out;
  }

  /** One output row before the window: visible values, key, and order values. */
  private record Out(Row row, Row key, Row sort) {}

  private Result project(QueryIR.Select s, boolean top, List<Joined> rows, RefScope scope, boolean grouped,
      List<Expr.Agg> aggs) {
    List<RefEval> items = new ArrayList<>();
    for (QueryIR.SelectItem item : s.select()) {
      Expr e = grouped ? ExprTrees.overGroup(item.expr(), s.groupBy(), aggs, "__g") : item.expr();
      items.add(RefEval.of(e, scope));
    }
    List<QueryIR.OrderItem> order = new ArrayList<>();
    List<RefEval> sorts = new ArrayList<>();
    for (QueryIR.OrderItem o : s.orderBy()) {
      Expr e = grouped ? ExprTrees.overGroup(o.expr(), s.groupBy(), aggs, "__g") : o.expr();
      order.add(o);
      sorts.add(RefEval.of(e, scope));
    }
    boolean byKey = order.isEmpty() && s.findOne();
    if (byKey && s.distinct()) {
      throw new IllegalStateException("naive: findOne without order by under distinct is not modelled");
    }
    List<Out> outs = new ArrayList<>();
    Map<Row, Boolean> seen = new LinkedHashMap<>();
    for (Joined r : rows) {
      Row visible;
      if (items.isEmpty()) {
        visible = r.row();
      } else {
        Object[] v = new Object[items.size()];
        for (int i = 0; i < v.length; i++) {
          v[i] = items.get(i).eval(r.row());
        }
        visible = RefValues.row(v);
      }
      if (s.distinct() && seen.put(visible, Boolean.TRUE) != null) {
        continue;
      }
      Row sort;
      if (byKey) {
        sort = r.key();
      } else {
        Object[] v = new Object[sorts.size()];
        for (int i = 0; i < v.length; i++) {
          v[i] = sorts.get(i).eval(r.row());
        }
        sort = RefValues.row(v);
      }
      outs.add(new Out(visible, s.distinct() ? visible : r.key(), sort));
    }
    Schema schema = Shapes.of(s);
    boolean ordered = !order.isEmpty() || (byKey && outs.stream().anyMatch(o -> o.sort().width() > 0));
    if (!ordered) {
      List<Row> vis = new ArrayList<>();
      List<Row> keys = new ArrayList<>();
      for (Out o : outs) {
        vis.add(o.row());
        keys.add(o.key());
      }
      if (vis.size() > 1 && (s.limit() != null || s.offset() > 0 || s.findOne())) {
        throw new IllegalStateException("naive: an unordered window over " + vis.size() + " rows is not deterministic");
      }
      // Unordered with a window only when there is at most one row (a global aggregate).
      int from = (int) Math.min(s.offset(), vis.size());
      long limit = s.findOne() ? 1 : s.limit() == null ? Long.MAX_VALUE : s.limit();
      int to = (int) Math.min(vis.size(), from + Math.min(limit, vis.size()));
      return new Result(schema, false, vis, keys, new int[vis.size()], from, to);
    }
    Comparator<Row> cmp = byKey ? byKeyOrder() : orderOf(order);
    outs.sort((a, b) -> cmp.compare(a.sort(), b.sort()));
    int n = outs.size();
    int[] tie = new int[n];
    for (int i = 1; i < n; i++) {
      tie[i] = cmp.compare(outs.get(i - 1).sort(), outs.get(i).sort()) == 0 ? tie[i - 1] : tie[i - 1] + 1;
    }
    long from = Math.min(s.offset(), n);
    long limit = s.findOne() ? 1 : s.limit() == null ? Long.MAX_VALUE : s.limit();
    long to = Math.min(n, from + Math.min(limit, (long) n));
    List<Row> vis = new ArrayList<>();
    List<Row> keys = new ArrayList<>();
    for (Out o : outs) {
      vis.add(o.row());
      keys.add(o.key());
    }
    if (!top) {
      checkUnambiguous(vis, tie, (int) from, (int) to);
    }
    return new Result(schema, true, vis, keys, tie, (int) from, (int) to);
  }

  private static Comparator<Row> orderOf(List<QueryIR.OrderItem> order) {
    return (a, b) -> {
      for (int i = 0; i < order.size(); i++) {
        int c = compare(a.get(i), b.get(i), order.get(i).descending(), order.get(i).nullsFirst());
        if (c != 0) {
          return c;
        }
      }
      return 0;
    };
  }

  private static Comparator<Row> byKeyOrder() {
    return (a, b) -> {
      for (int i = 0; i < a.width(); i++) {
        int c = compare(a.get(i), b.get(i), false, false);
        if (c != 0) {
          return c;
        }
      }
      return 0;
    };
  }

  /** One order item: NULLs where {@code nullsFirst} says, others by {@link RefValues#compare}. */
  static int compare(Object x, Object y, boolean descending, boolean nullsFirst) {
    if (x == null || y == null) {
      if (x == y) {
        return 0;
      }
      return (x == null) == nullsFirst ? -1 : 1;
    }
    int c = RefValues.compare(x, y);
    return descending ? -c : c;
  }

  /** A nested window must not cut a tie class holding different rows. */
  private static void checkUnambiguous(List<Row> rows, int[] tie, int from, int to) {
    for (int edge : new int[] {from, to}) {
      if (edge <= 0 || edge >= rows.size() || tie[edge - 1] != tie[edge]) {
        continue;
      }
      int cls = tie[edge];
      Row first = null;
      for (int i = 0; i < rows.size(); i++) {
        if (tie[i] == cls) {
          if (first == null) {
            first = rows.get(i);
          } else if (!Objects.equals(first, rows.get(i))) {
            throw new Ambiguous("a nested window edge at " + edge + " cuts a tie between " + first + " and "
                + rows.get(i));
          }
        }
      }
    }
  }
}
