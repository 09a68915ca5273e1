package dev.rivulet.query.compile;

import dev.rivulet.engine.Column;
import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.JoinType;
import dev.rivulet.engine.Reducer;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.RowList;
import dev.rivulet.engine.Schema;
import dev.rivulet.engine.Stream;
import dev.rivulet.engine.ZSet;
import dev.rivulet.query.Expr;
import dev.rivulet.query.QueryException;
import dev.rivulet.query.QueryIR;
import dev.rivulet.query.expr.Expressions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The includes of one block, compiled as relations of the same graph (seed 000, "Routes and
 * buckets are relations"). For each include edge, with the parent's rows P (its canonical rows:
 * one per key, after its own order and limit) and the correlation values {@code b(p)} they route
 * to:
 *
 * <pre>
 *   ActiveBucket = distinct(b(P)), without NULLs        (NULL routes to the empty value, no demand)
 *   child rows   = the child block over (its correlated relation semi-joined with ActiveBucket),
 *                  grouped, ordered and limited per bucket
 *   BucketValue  = reduce(child rows by bucket)          (once per active bucket, not per parent)
 *   P'           = P left-join BucketValue on b(p)       (a route with its bucket's value; a bucket
 *                                                         without rows gives the mode's empty value)
 * </pre>
 *
 * The route relation of the seed is P itself projected to (bucket, parent key): joining P with the
 * bucket values directly is that join composed with the composition. A route move (a parent whose
 * correlation value changes) is the parent's retraction and insertion in one run, which the join
 * turns into the old cell's retraction and the new one's value. A nested child is compiled the same
 * way before its rows are reduced, so every level consumes its children's fully materialized rows.
 *
 * <p>Used by one {@link QueryCompiler}; not thread-safe.
 */
final class IncludeCompiler {
  /** One include edge of the block. */
  private record Edge(int column, String name, Expr.IncludeMode mode, String separator, QueryIR.Select child,
      List<Expr> childCols, List<Expr> parentExprs) {}

  private final QueryIR.Select block;
  private final List<Edge> edges;
  private final int userWidth;

  private IncludeCompiler(QueryIR.Select block, List<Edge> edges) {
    this.block = block;
    this.edges = edges;
    this.userWidth = block.select().size();
  }

  /** The includes of {@code s}, or null when it has none. */
  static IncludeCompiler of(QueryIR.Select s) {
    List<Edge> edges = new ArrayList<>();
    Set<String> parentAliases = aliasesOf(s);
    for (int i = 0; i < s.select().size(); i++) {
      QueryIR.SelectItem item = s.select().get(i);
      if (item.expr() instanceof Expr.Include inc) {
        edges.add(edge(i, item.name(), inc, parentAliases));
      }
    }
    if (edges.isEmpty()) {
      return null;
    }
    for (QueryIR.SelectItem item : s.select()) {
      if (item.name() == null || item.name().isBlank() || item.name().startsWith("__")) {
        throw new QueryException("select: output name '" + item.name() + "' is not allowed");
      }
    }
    return new IncludeCompiler(s, edges);
  }

  private static Set<String> aliasesOf(QueryIR.Select s) {
    Set<String> out = new HashSet<>();
    out.add(s.from().alias());
    for (QueryIR.Join j : s.joins()) {
      out.add(j.relation().alias());
    }
    return out;
  }

  /** Splits the child's where into the correlation ({@code child.col = parent value}) and the rest. */
  private static Edge edge(int column, String name, Expr.Include inc, Set<String> parentAliases) {
    String what = "include '" + name + "'";
    if (!(inc.query() instanceof QueryIR.Select child)) {
      throw new QueryException(what + ": the child must be a single select block, not a union");
    }
    Set<String> childAliases = aliasesOf(child);
    List<Expr> childCols = new ArrayList<>();
    List<Expr> parentExprs = new ArrayList<>();
    List<Expr> rest = new ArrayList<>();
    for (Expr c : child.where() == null ? List.<Expr>of() : Expressions.conjuncts(child.where())) {
      Set<String> used = Expressions.aliases(c);
      if (used.stream().noneMatch(parentAliases::contains)) {
        rest.add(c);
        continue;
      }
      Expr.Col mine = null;
      Expr theirs = null;
      if (c instanceof Expr.Compare cmp && cmp.op() == Expr.CompareOp.EQ) {
        if (childColumn(cmp.left(), childAliases) && ofParent(cmp.right(), parentAliases)) {
          mine = (Expr.Col) cmp.left();
          theirs = cmp.right();
        } else if (childColumn(cmp.right(), childAliases) && ofParent(cmp.left(), parentAliases)) {
          mine = (Expr.Col) cmp.right();
          theirs = cmp.left();
        }
      }
      if (mine == null) {
        throw new QueryException(what + ": the child's where may use the parent's aliases " + parentAliases
            + " only in an equality child.column = parent value (alone or in a conjunction), not in " + c);
      }
      if (!childCols.isEmpty() && !((Expr.Col) childCols.get(0)).alias().equals(mine.alias())) {
        throw new QueryException(what + ": correlate on columns of one child relation, not both "
            + ((Expr.Col) childCols.get(0)).alias() + " and " + mine.alias());
      }
      childCols.add(mine);
      parentExprs.add(theirs);
    }
    if (childCols.isEmpty()) {
      throw new QueryException(what + ": the child's where must correlate it with the parent by an equality"
          + " child.column = parent value (parent aliases " + parentAliases + ")");
    }
    QueryIR.Select uncorrelated = new QueryIR.Select(child.from(), child.joins(),
        rest.isEmpty() ? null : Expressions.and(rest), child.groupBy(), child.having(), child.select(),
        child.distinct(), child.orderBy(), child.limit(), child.offset(), child.findOne(), child.after());
    return new Edge(column, name, inc.mode(), inc.separator(), uncorrelated, childCols, parentExprs);
  }

  private static boolean childColumn(Expr e, Set<String> childAliases) {
    return e instanceof Expr.Col c && childAliases.contains(c.alias());
  }

  private static boolean ofParent(Expr e, Set<String> parentAliases) {
    Set<String> used = Expressions.aliases(e);
    return !used.isEmpty() && parentAliases.containsAll(used) && !Expressions.hasAggregate(e);
  }

  /**
   * The block to compile for the parent's own rows: each include becomes a NULL placeholder in its
   * column, and the correlation values follow the select list as {@code __corr} columns.
   */
  QueryIR.Select parentSelect() {
    List<QueryIR.SelectItem> items = new ArrayList<>();
    for (QueryIR.SelectItem item : block.select()) {
      items.add(item.expr() instanceof Expr.Include ? new QueryIR.SelectItem(item.name(), new Expr.Lit(null,
          ColumnType.ANY)) : item);
    }
    for (int e = 0; e < edges.size(); e++) {
      for (int k = 0; k < edges.get(e).parentExprs().size(); k++) {
        items.add(new QueryIR.SelectItem(corrName(e, k), edges.get(e).parentExprs().get(k)));
      }
    }
    return new QueryIR.Select(block.from(), block.joins(), block.where(), block.groupBy(), block.having(), items,
        block.distinct(), block.orderBy(), block.limit(), block.offset(), block.findOne(), block.after());
  }

  /** Whether {@code name} is a correlation column {@link #parentSelect} added. */
  static boolean isCorrelation(String name) {
    return name.startsWith("__corr");
  }

  private static String corrName(int edge, int k) {
    return "__corr" + edge + "_" + k;
  }

  /**
   * Composes the parent's rows with each include's value. {@code root}: the rows are ordered again
   * (the joins drop positions) for the window face; a child's rows are reduced, not positioned.
   */
  Compiled compose(Compiled parent, QueryCompiler compiler, boolean root) {
    Stream acc = parent.stream();
    // Every edge's buckets come from the parent's own rows: an include's join changes only its
    // own column, so a child's change does not flow through the other edges' bucket relations.
    Stream own = acc;
    Schema rows = acc.schema();
    List<RowShape.Nest> nests = new ArrayList<>();
    List<Routing> routings = new ArrayList<>();
    int corrAt = userWidth;
    for (int e = 0; e < edges.size(); e++) {
      Edge edge = edges.get(e);
      int n = edge.childCols().size();
      int[] corr = new int[n];
      List<String> corrNames = new ArrayList<>();
      for (int k = 0; k < n; k++) {
        corr[k] = corrAt + k;
        corrNames.add(rows.column(corr[k]).name());
      }
      corrAt += n;
      Stream active = buckets(own, corr, false);
      String what = "include '" + edge.name() + "'";
      Compiled child;
      try {
        child = compiler.child(edge.child(), edge.childCols(), active, what);
      } catch (QueryException ex) {
        throw ex.getMessage().startsWith("include '") ? ex : new QueryException(what + ": " + ex.getMessage());
      }
      checkCorrelationTypes(edge, rows, corr, child);
      int v = child.visible().width();
      RowShape.Nest nest = new RowShape.Nest(edge.column(), edge.name(), edge.mode(), new RowShape(child.visible(),
          Projection.range(v, v + child.keys().length), true, child.nests()));
      if (edge.mode() == Expr.IncludeMode.COLLECTION) {
        // The value is the bucket itself; the facade adapter keeps the bucket's rows and follows
        // every routed bucket, a NULL one (always empty) included, so each active interval of a
        // bucket gets its own facade.
        compiler.facade(nest, buckets(own, corr, true), child);
        routings.add(new Routing(edge, corr, corrNames, null));
      } else {
        routings.add(new Routing(edge, corr, corrNames, bucketValues(edge, child)));
      }
      nests.add(nest);
    }
    routings.sort(Comparator.comparingInt(Routing::rank)); // stable: select order within a rank
    for (Routing r : routings) {
      acc = r.values() == null
          ? acc.map(rows, row -> row.with(r.edge().column(), RowList.of(row.project(r.corr()))))
          : routed(acc, r.corrNames(), r.values(), r.edge());
    }
    if (root && parent.ordered()) {
      acc = acc.topK(parent.sortKeys(), 0, Long.MAX_VALUE);
    }
    return parent.with(acc, Schema.of(rows.columns().subList(0, userWidth)), nests);
  }

  /**
   * How one edge sets its column of the parent rows: a collection include by a map of the row's
   * own correlation values, the others by a left join with the bucket values ({@code values}).
   */
  private record Routing(Edge edge, int[] corr, List<String> corrNames, Stream values) {
    /**
     * The edges' place in the chain of joins: a bucket value's change passes through the joins
     * of every edge after its own, each re-keying the wide parent row. A collection include's
     * value never changes with its child, a singleton usually follows a reference of the parent
     * (a project, an owner), while an array or a concatenation gathers a to-many child that
     * changes most; so they are joined in that order and a to-many change passes through no
     * other edge's join.
     */
    int rank() {
      return switch (edge.mode()) {
        case COLLECTION -> 0;
        case ONE -> 1;
        case ARRAY, CONCAT -> 2;
      };
    }
  }

  /**
   * The distinct correlation values of the parent rows: every routed bucket ({@code withNulls}),
   * or the active ones (a NULL value routes to the empty value and demands nothing).
   */
  private static Stream buckets(Stream parent, int[] corr, boolean withNulls) {
    List<Column> cols = new ArrayList<>();
    for (int k = 0; k < corr.length; k++) {
      cols.add(Column.of("__b" + k, parent.schema().column(corr[k]).type()));
    }
    Stream values = parent.map(Schema.of(cols), row -> row.project(corr));
    if (!withNulls) {
      int[] all = Projection.range(0, corr.length);
      values = values.filter(row -> !row.anyNull(all));
    }
    return values.distinct();
  }

  private static void checkCorrelationTypes(Edge edge, Schema parentRows, int[] corr, Compiled child) {
    Schema childRows = child.stream().schema();
    for (int k = 0; k < corr.length; k++) {
      ColumnType p = parentRows.column(corr[k]).type();
      ColumnType c = childRows.column(child.partition()[k]).type();
      if (!p.comparableWith(c)) {
        throw new QueryException("include '" + edge.name() + "': cannot correlate " + edge.childCols().get(k) + " ("
            + c + ") with " + edge.parentExprs().get(k) + " (" + p + ")");
      }
    }
  }

  /** One row per non-empty active bucket: (the bucket's correlation values, the include's value). */
  private static Stream bucketValues(Edge edge, Compiled child) {
    int v = child.visible().width();
    if (edge.mode() == Expr.IncludeMode.CONCAT && v != 1) {
      throw new QueryException("include '" + edge.name() + "': a concatenation needs a child with exactly one"
          + " column, not " + child.visible().columns().stream().map(Column::name).toList());
    }
    Schema childRows = child.stream().schema();
    int[] part = child.partition();
    List<Column> cols = new ArrayList<>();
    List<String> partNames = new ArrayList<>();
    for (int k = 0; k < part.length; k++) {
      cols.add(Column.of("__v" + k, childRows.column(part[k]).type()));
      partNames.add(childRows.column(part[k]).name());
    }
    cols.add(Column.of("__value", ColumnType.ANY));
    if (splicesWindow(edge, child)) {
      // the child's stream is its per-bucket window itself: its positioned changes are spliced
      // into each bucket's last list (no group held, nothing sorted)
      return child.stream().windowLists(partNames, child.elementColumns(), Schema.of(cols));
    }
    BucketValue value = new BucketValue(edge.mode(), edge.separator(), child.comparator(), child.elementColumns(),
        child.visible().column(0).type());
    return child.stream().reduce(partNames, Schema.of(cols), value);
  }

  /**
   * Whether an edge's bucket values are its child's windows as lists ({@link Stream#windowLists}):
   * an array of an ordered child without includes of its own, whose stream is then the top-K of
   * its order per bucket. Its value is the bucket's rows in the child's order, as {@link
   * BucketValue}'s (the top-K's total order is the child's, whose key makes it strict).
   */
  static boolean splicesWindow(Edge edge, Compiled child) {
    return edge.mode() == Expr.IncludeMode.ARRAY && child.ordered() && child.nests().isEmpty();
  }

  /**
   * Each parent row with its include column set to its bucket's value (or the empty value): one
   * join that sets the column in a copy of the parent row, without a wide pair or a map after it.
   */
  private static Stream routed(Stream parent, List<String> corrNames, Stream values, Edge edge) {
    List<String> bucketNames = new ArrayList<>();
    for (int k = 0; k < corrNames.size(); k++) {
      bucketNames.add("__v" + k);
    }
    String column = parent.schema().column(edge.column()).name();
    return parent.leftJoinSetting(values, corrNames, bucketNames, column, "__value", BucketValue.empty(edge.mode()));
  }

  /**
   * The reduction of one bucket's child rows to the row (bucket, the include's value). Given the
   * bucket's last row, a list keeps the element rows of the child rows still in it (the same
   * instances, not projected again), and an unchanged value is the last one itself.
   */
  private record BucketValue(Expr.IncludeMode mode, String separator, Comparator<Row> order, int[] element,
      ColumnType scalar) implements Reducer {
    /** How far past the last kept element {@link #kept} looks for the next one. */
    private static final int NEAR = 4;

    static Object empty(Expr.IncludeMode mode) {
      return mode == Expr.IncludeMode.CONCAT ? "" : RowList.empty();
    }

    @Override
    public ZSet reduce(Row bucket, ZSet group) {
      return ZSet.of(bucket.append(of(group, null)));
    }

    @Override
    public ZSet reduce(Row bucket, ZSet group, ZSet previous) {
      Object was = previous.size() == 1 ? previous.row(0).get(bucket.width()) : null;
      return ZSet.of(bucket.append(of(group, was instanceof RowList l ? l : null)));
    }

    /** The value of {@code group}; {@code was}: the bucket's last list value, or null. */
    Object of(ZSet group, RowList was) {
      Row[] rows = sorted(group);
      switch (mode) {
        case ONE:
          return was != null && was.size() == 1 && sameElement(rows[0], was.get(0)) ? was
              : RowList.of(rows[0].project(element));
        case CONCAT:
          StringBuilder sb = new StringBuilder();
          boolean first = true;
          for (Row r : rows) {
            Object x = r.get(0);
            if (x != null) {
              sb.append(first ? "" : separator).append(scalar.present(x));
              first = false;
            }
          }
          return sb.toString();
        default:
          int next = 0; // the first element of was not yet kept
          int keptAll = 0;
          for (int i = 0; i < rows.length; i++) {
            int k = was == null ? -1 : kept(rows[i], was, next);
            if (k >= 0) {
              rows[i] = was.get(k);
              keptAll += k == i ? 1 : 0;
              next = k + 1;
            } else {
              rows[i] = rows[i].project(element);
            }
          }
          return was != null && keptAll == rows.length && was.size() == rows.length ? was
              : RowList.of(Arrays.asList(rows));
      }
    }

    /** The group's rows, each repeated by its multiplicity, in the child's order. */
    private Row[] sorted(ZSet group) {
      int n = 0;
      for (int i = 0; i < group.size(); i++) {
        n += (int) Math.max(0, group.weight(i));
      }
      Row[] rows = new Row[n];
      n = 0;
      for (int i = 0; i < group.size(); i++) {
        for (long w = group.weight(i); w > 0; w--) {
          rows[n++] = group.row(i);
        }
      }
      Arrays.sort(rows, order);
      return rows;
    }

    /** The index of an element of {@code was} from {@code from} on (a few places at most) that is {@code r}'s, or -1. */
    private int kept(Row r, RowList was, int from) {
      for (int k = from; k < Math.min(was.size(), from + NEAR); k++) {
        if (sameElement(r, was.get(k))) {
          return k;
        }
      }
      return -1;
    }

    /** Whether {@code e} is child row {@code r}'s element (its values at the element columns). */
    private boolean sameElement(Row r, Row e) {
      if (e.width() != element.length) {
        return false;
      }
      for (int c = 0; c < element.length; c++) {
        if (!java.util.Objects.equals(r.get(element[c]), e.get(c))) {
          return false;
        }
      }
      return true;
    }
  }
}
