package dev.rivulet.query.compile;

import dev.rivulet.engine.Column;
import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.engine.SortKey;
import dev.rivulet.engine.Stream;
import dev.rivulet.query.Expr;
import dev.rivulet.query.QueryException;
import dev.rivulet.query.QueryIR;
import dev.rivulet.query.expr.Evaluator;
import dev.rivulet.query.expr.ExprCompiler;
import dev.rivulet.query.expr.ExprText;
import dev.rivulet.query.expr.Expressions;
import dev.rivulet.query.expr.Scope;
import dev.rivulet.query.expr.TypeChecker;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The tail of a block after its joins and where filter: grouping and having, the select list,
 * distinct, and order by with offset and limit. The projected row is (visible columns, key
 * columns, sort columns); a block that selects everything of a single relation and orders by
 * plain columns skips the projection entirely, and one that orders by plain columns takes its
 * window before the projection, so only the window's changes are projected.
 */
final class Projection {
  private QueryIR.Select s;
  private final List<Expr> partition;
  private final List<String> publicKey; // a custom key (visible columns) to reduce by, or null
  private final boolean includes; // the select list has its includes' correlation columns appended
  private boolean oneRow; // the block has at most one row (per partition)
  private LeftJoinWindow leftJoin; // the block's unbuilt left join, or null

  /**
   * @param partition for an include's child: the correlated child columns, whose values name the
   *     bucket a row belongs to; grouping, distinct, order, offset and limit then apply per bucket
   *     and the values follow the select list as hidden {@code __bucket} columns. Empty otherwise.
   * @param publicKey a custom key: the windowed rows are reduced by it ({@link PublicKeys}), and
   *     it is the result's key; null for the derived key
   * @param includes whether {@link IncludeCompiler} rewrote the select list (its {@code __corr}
   *     columns are then allowed; a user's {@code __} names never are)
   */
  Projection(QueryIR.Select s, List<Expr> partition, List<String> publicKey, boolean includes) {
    this.s = s;
    this.partition = partition;
    this.publicKey = publicKey;
    this.includes = includes;
  }

  /**
   * Compiles the tail over the block's left join {@code join}, not yet built: its window is taken
   * on the left rows when it can be ({@link LeftJoinWindow#windowsLeft}), else over the joined rows.
   */
  Compiled compile(LeftJoinWindow join, Layout layout) {
    s = OutputRefs.resolve(s, layout);
    int[] before = null;
    List<QueryIR.OrderItem> order = List.of();
    if (!groups(s) && partition.isEmpty() && s.having() == null) {
      checkLimit(); // the checks in the order compile(Stream, ..) makes them
      order = orderItems(layout.keys(), layout, null);
      before = order.isEmpty() ? null : windowFirst(order, layout, layout.keys());
    }
    if (before != null && join.windowsLeft(before, order.size())) {
      leftJoin = join;
      return compile((Stream) null, layout);
    }
    return compile(join.joined(), layout);
  }

  Compiled compile(Stream in, Layout layout) {
    s = OutputRefs.resolve(s, layout);
    checkLimit();
    oneRow = atMostOneRow();
    if (!partition.isEmpty() && groups(s)) {
      List<Expr> groups = new ArrayList<>(partition);
      groups.addAll(s.groupBy());
      s = new QueryIR.Select(s.from(), s.joins(), s.where(), groups, s.having(), s.select(), s.distinct(),
          s.orderBy(), s.limit(), s.offset(), s.findOne(), s.after());
    }
    Stream stream = in;
    Layout scope = layout;
    int[] keys = layout.keys();
    GroupingCompiler grouping = null;
    if (groups(s)) {
      grouping = new GroupingCompiler(s, layout);
      stream = grouping.compile(in);
      scope = grouping.scope();
      keys = grouping.keys();
      if (s.having() != null) {
        stream = QueryCompiler.filter(stream, grouping.rewrite(s.having(), "having"), scope, "having");
      }
      if (s.select().isEmpty()) {
        throw new QueryException("select: a grouped query needs a select list");
      }
    } else if (s.having() != null) {
      throw new QueryException("having: needs a group by or an aggregate");
    }

    List<QueryIR.OrderItem> order = orderItems(keys, scope, grouping);
    if (s.select().isEmpty() && !s.distinct() && partition.isEmpty() && layout.parts().size() == 1
        && plainColumns(order, scope)) {
      return window(stream, layout.parts().get(0).schema(), keys, order, scope);
    }

    SelectList list = selectList(layout, grouping, order);
    return project(stream, scope, list, keys, order, layout);
  }

  /**
   * True when the block groups: it has a group by or uses an aggregate. (Here, not in {@link
   * GroupingCompiler}: a query that does not group loads no grouping code.)
   */
  static boolean groups(QueryIR.Select s) {
    if (!s.groupBy().isEmpty() || (s.having() != null && Expressions.hasAggregate(s.having()))) {
      return true;
    }
    for (QueryIR.SelectItem item : s.select()) {
      if (Expressions.hasAggregate(item.expr())) {
        return true;
      }
    }
    for (QueryIR.OrderItem o : s.orderBy()) {
      if (Expressions.hasAggregate(o.expr())) {
        return true;
      }
    }
    return false;
  }

  /** The output names and expressions, rewritten for grouping. */
  private record SelectList(List<String> names, List<Expr> exprs) {}

  private SelectList selectList(Layout layout, GroupingCompiler grouping, List<QueryIR.OrderItem> order) {
    List<String> names = new ArrayList<>();
    List<Expr> exprs = new ArrayList<>();
    if (s.select().isEmpty()) {
      OutputRefs.selectAll(layout, names, exprs);
    } else {
      Set<String> seen = new HashSet<>();
      for (QueryIR.SelectItem item : s.select()) {
        if (item.name() == null || item.name().isBlank()
            || item.name().startsWith("__") && !(includes && IncludeCompiler.isCorrelation(item.name()))) {
          throw new QueryException("select: output name '" + item.name() + "' is not allowed");
        }
        if (!seen.add(item.name())) {
          throw new QueryException("select: output column '" + item.name() + "' appears twice");
        }
        names.add(item.name());
        exprs.add(grouping == null ? item.expr() : grouping.rewrite(item.expr(), "select"));
      }
    }
    for (int i = 0; i < partition.size(); i++) {
      names.add("__bucket" + i);
      exprs.add(grouping == null ? partition.get(i) : grouping.rewrite(partition.get(i), "include"));
    }
    SelectList list = new SelectList(names, exprs);
    if (s.distinct()) {
      for (QueryIR.OrderItem o : order) {
        if (selectIndex(list, o.expr(), layout) < 0) {
          throw new QueryException("order by: with distinct, " + ExprText.of(o.expr()) + " must be a column of the"
              + " select list " + names + " (as SQL requires); name it by output name or position, e.g. Query.asc(\""
              + names.get(0) + "\") or Query.asc(1)");
        }
      }
    }
    return list;
  }

  /**
   * The select-list column {@code e} is, or -1: an equal select expression, or, without a select
   * list, a column reference to one of the columns shown.
   */
  private int selectIndex(SelectList list, Expr e, Layout layout) {
    int at = Expressions.indexOf(list.exprs(), e);
    if (at < 0 && s.select().isEmpty() && e instanceof Expr.Col c && !c.alias().startsWith("__")) {
      Scope.Slot slot = layout.resolve(c, "order by");
      at = Expressions.indexOf(list.exprs(), new Expr.Col("__row", Integer.toString(slot.index())));
    }
    return at;
  }

  /** {@code c} reduced by the custom key, if any ({@link PublicKeys} is loaded only then). */
  private Compiled keyed(Compiled c) {
    return publicKey == null ? c : PublicKeys.apply(c, publicKey);
  }

  /**
   * Maps each row to (visible columns, key columns, sort columns not already visible), then
   * applies distinct and the window. Under distinct the key is the visible row itself.
   */
  private Compiled project(Stream stream, Layout scope, SelectList list, int[] keys, List<QueryIR.OrderItem> order,
      Layout layout) {
    List<String> names = list.names();
    List<Expr> exprs = list.exprs();
    RowScope rowScope = new RowScope(scope);
    List<Column> cols = new ArrayList<>();
    List<Evaluator> evals = new ArrayList<>();
    for (int i = 0; i < exprs.size(); i++) {
      String clause = "select " + names.get(i);
      Expressions.rejectAggregates(exprs.get(i), "select");
      cols.add(new Column(names.get(i), TypeChecker.typeOf(exprs.get(i), rowScope, clause),
          nullable(exprs.get(i), rowScope, clause)));
      evals.add(ExprCompiler.compile(exprs.get(i), rowScope));
    }
    Schema visible = Schema.of(cols.subList(0, cols.size() - partition.size()));
    int v = cols.size();
    int[] outKeys;
    if (s.distinct()) {
      outKeys = range(0, v);
    } else {
      outKeys = range(v, v + keys.length);
      for (int i = 0; i < keys.length; i++) {
        cols.add(Column.of("__key" + i, ColumnType.ANY));
        evals.add(new Evaluator.ColumnRef(keys[i]));
      }
    }
    List<QueryIR.OrderItem> sorts = new ArrayList<>();
    for (int i = 0; i < order.size(); i++) {
      QueryIR.OrderItem o = order.get(i);
      int at = selectIndex(list, o.expr(), layout);
      if (at < 0) {
        at = cols.size();
        cols.add(Column.of("__sort" + i, TypeChecker.typeOf(o.expr(), rowScope, "order by")));
        evals.add(ExprCompiler.compile(o.expr(), rowScope));
      }
      sorts.add(new QueryIR.OrderItem(new Expr.Col("__out", Integer.toString(at)), o.descending(), o.nullsFirst()));
    }
    UnaryOperator<Row> fn = Evaluator.rowOf(evals.toArray(new Evaluator[0]));
    int[] before = windowFirst(order, scope, keys);
    if (before != null && leftJoin != null) {
      OrderColumns oc = OrderColumns.of(sorts, outKeys);
      Stream windowed = leftJoin.window(before, order.size(), oc.descending(), oc.nullsFirst(), s.offset(), limit())
          .mapWindow(Schema.of(cols), fn);
      return keyed(new Compiled(windowed, visible, outKeys, true, oc.columns(), oc.descending(),
          oc.nullsFirst(), new int[0], List.of()));
    }
    if (before != null) {
      return windowThenProject(stream, before, Schema.of(cols), fn, visible, outKeys, sorts);
    }
    Stream projected = stream.map(Schema.of(cols), fn);
    if (s.distinct()) {
      projected = projected.distinct();
    }
    return windowByIndex(projected, visible, outKeys, sorts, range(v - partition.size(), v));
  }

  /**
   * The input columns of the window's total order (the plain-column sort items, then the key)
   * when the window can be taken before the projection, else null. It can when the block has no
   * distinct, include bucket or cursor and orders by plain columns only: the projected row holds
   * each sort value and key column unchanged, so both rows order alike. It pays only under a
   * limit (without one every row is projected anyway), so only then is it taken.
   */
  private int[] windowFirst(List<QueryIR.OrderItem> order, Layout scope, int[] keys) {
    if (order.isEmpty() || limit() == Long.MAX_VALUE || s.distinct() || !partition.isEmpty() || s.after() != null) {
      return null;
    }
    RowScope rs = new RowScope(scope);
    int[] out = new int[order.size() + keys.length];
    for (int i = 0; i < order.size(); i++) {
      if (!(order.get(i).expr() instanceof Expr.Col c)) {
        return null;
      }
      out[i] = rs.resolve(c, "order by").index();
    }
    System.arraycopy(keys, 0, out, order.size(), keys.length);
    return out;
  }

  /**
   * The window over the unprojected rows (ordered by {@code before}, which names the same values
   * as {@code sorts} then {@code outKeys} do in the projected row), then the projection of the
   * window's changes only ({@link Stream#mapWindow}: a row whose projection did not change is no
   * change).
   */
  private Compiled windowThenProject(Stream stream, int[] before, Schema out, UnaryOperator<Row> fn,
      Schema visible, int[] outKeys, List<QueryIR.OrderItem> sorts) {
    OrderColumns oc = OrderColumns.of(sorts, outKeys);
    Stream windowed = stream.topK(List.of(), sortKeys(stream.schema(), before, oc.descending(), oc.nullsFirst()),
        s.offset(), limit()).mapWindow(out, fn);
    return keyed(new Compiled(windowed, visible, outKeys, true, oc.columns(), oc.descending(),
        oc.nullsFirst(), new int[0], List.of()));
  }

  private long limit() {
    return s.findOne() ? 1 : s.limit() == null ? Long.MAX_VALUE : s.limit();
  }

  static List<SortKey> sortKeys(Schema schema, int[] columns, boolean[] descending, boolean[] nullsFirst) {
    List<SortKey> order = new ArrayList<>();
    for (int i = 0; i < columns.length; i++) {
      String name = schema.column(columns[i]).name();
      SortKey k = descending[i] ? SortKey.desc(name) : SortKey.asc(name);
      order.add(nullsFirst[i] ? k.withNullsFirst() : k.withNullsLast());
    }
    return order;
  }

  /**
   * Whether {@code e} can be null: a column reference as its column (a column of a side an outer
   * join null-extends can), a literal when it is NULL; any other expression is taken to be
   * nullable.
   */
  static boolean nullable(Expr e, Scope scope, String clause) {
    if (e instanceof Expr.Col c) {
      return scope.resolve(c, clause).nullable();
    }
    if (e instanceof Expr.Lit l) {
      return l.value() == null;
    }
    return true;
  }

  private void checkLimit() {
    if (s.offset() < 0 || (s.limit() != null && s.limit() < 0)) {
      throw new QueryException("limit: limit and offset must not be negative");
    }
    if ((s.limit() != null || s.offset() > 0) && s.orderBy().isEmpty() && !s.findOne() && !atMostOneRow()) {
      throw new QueryException("limit: a limit or offset needs an order by, or which rows it keeps is not"
          + " deterministic; only a query with at most one row (an aggregate without group by) may omit it");
    }
  }

  /** True when the block provably has at most one row: a global aggregate (no group by). */
  private boolean atMostOneRow() {
    return s.groupBy().isEmpty() && groups(s);
  }

  /**
   * The order items, rewritten for grouping; findOne without an order orders by the key columns
   * so that the one row is deterministic.
   */
  private List<QueryIR.OrderItem> orderItems(int[] keys, Layout scope, GroupingCompiler grouping) {
    List<QueryIR.OrderItem> out = new ArrayList<>();
    for (QueryIR.OrderItem o : s.orderBy()) {
      Expr e = grouping == null ? o.expr() : grouping.rewrite(o.expr(), "order by");
      Expressions.rejectAggregates(e, "order by");
      TypeChecker.typeOf(e, new RowScope(scope), "order by");
      out.add(new QueryIR.OrderItem(e, o.descending(), o.nullsFirst()));
    }
    if (out.isEmpty() && s.findOne()) {
      for (int k : keys) {
        out.add(new QueryIR.OrderItem(new Expr.Col("__row", Integer.toString(k)), false, false));
      }
    }
    return out;
  }

  private static boolean plainColumns(List<QueryIR.OrderItem> order, Scope scope) {
    for (QueryIR.OrderItem o : order) {
      if (!(o.expr() instanceof Expr.Col)) {
        return false;
      }
    }
    return true;
  }

  /** The minimal pipeline: the relation's rows as they are, ordered by plain columns. */
  private Compiled window(Stream stream, Schema visible, int[] keys, List<QueryIR.OrderItem> order, Layout scope) {
    List<QueryIR.OrderItem> sorts = new ArrayList<>();
    RowScope rs = new RowScope(scope);
    for (QueryIR.OrderItem o : order) {
      int idx = rs.resolve((Expr.Col) o.expr(), "order by").index();
      sorts.add(new QueryIR.OrderItem(new Expr.Col("__out", Integer.toString(idx)), o.descending(), o.nullsFirst()));
    }
    return windowByIndex(stream, visible, keys, sorts, new int[0]);
  }

  /**
   * Adds the top-K window when the block orders or limits; sort items name row indexes. The total
   * order is the sort items followed by the key columns, ascending; a cursor ({@code after})
   * filters the rows before the window.
   */
  private Compiled windowByIndex(Stream stream, Schema visible, int[] keys, List<QueryIR.OrderItem> sorts,
      int[] buckets) {
    if (sorts.isEmpty()) {
      if (s.after() != null) {
        throw new QueryException("after: a cursor needs an order by");
      }
      if (oneRow && (s.offset() > 0 || (!s.findOne() && s.limit() != null && s.limit() == 0))) {
        // At most one row and no order: the window is all of it, or (offset, or limit 0) none of it.
        stream = stream.filter(row -> false);
      }
      return keyed(new Compiled(stream, visible, keys, buckets));
    }
    int n = sorts.size() + keys.length;
    OrderColumns oc = OrderColumns.of(sorts, keys);
    int[] columns = oc.columns();
    boolean[] descending = oc.descending();
    boolean[] nullsFirst = oc.nullsFirst();
    List<SortKey> order = sortKeys(stream.schema(), columns, descending, nullsFirst);
    if (s.after() != null) {
      if (s.after().values().size() != n) {
        throw new QueryException("after: the cursor " + s.after().values() + " has " + s.after().values().size()
            + " values; this order needs " + n + " (" + sorts.size() + " sort keys, then " + keys.length
            + " key columns)");
      }
      stream = stream.filter(new CursorFilter(columns, descending, nullsFirst, s.after()));
    }
    long limit = limit();
    List<String> partitionBy = new ArrayList<>();
    for (int b : buckets) {
      partitionBy.add(stream.schema().column(b).name());
    }
    return keyed(new Compiled(stream.topK(partitionBy, order, s.offset(), limit), visible, keys, true,
        columns, descending, nullsFirst, buckets, List.of()));
  }

  static int[] range(int from, int to) {
    int[] out = new int[to - from];
    for (int i = 0; i < out.length; i++) {
      out[i] = from + i;
    }
    return out;
  }

  /**
   * A scope that also resolves the internal references {@code __row.<index>} to a raw row
   * index (used for select-all columns, key columns and implicit findOne ordering).
   */
  private static final class RowScope implements Scope {
    private final Layout inner;

    RowScope(Layout inner) {
      this.inner = inner;
    }

    @Override
    public Slot resolve(Expr.Col col, String clause) {
      if (col.alias().equals("__row")) {
        int idx = Integer.parseInt(col.column());
        for (Layout.Part p : inner.parts()) {
          if (idx >= p.offset() && idx < p.offset() + p.schema().width()) {
            Column c = p.schema().column(idx - p.offset());
            return new Slot(idx, c.type(), c.nullable() || p.nullable());
          }
        }
        return new Slot(idx, ColumnType.ANY, true);
      }
      return inner.resolve(col, clause);
    }
  }

  /**
   * The total order of a window: the sort keys' columns (each a plain column of the row, by
   * position), then the key columns ascending; with each position's direction and NULL placement.
   */
  private record OrderColumns(int[] columns, boolean[] descending, boolean[] nullsFirst) {
    static OrderColumns of(List<QueryIR.OrderItem> sorts, int[] keys) {
      int n = sorts.size() + keys.length;
      OrderColumns oc = new OrderColumns(new int[n], new boolean[n], new boolean[n]);
      for (int i = 0; i < sorts.size(); i++) {
        QueryIR.OrderItem o = sorts.get(i);
        oc.columns[i] = Integer.parseInt(((Expr.Col) o.expr()).column());
        oc.descending[i] = o.descending();
        oc.nullsFirst[i] = o.nullsFirst();
      }
      System.arraycopy(keys, 0, oc.columns, sorts.size(), keys.length);
      return oc;
    }
  }
}
