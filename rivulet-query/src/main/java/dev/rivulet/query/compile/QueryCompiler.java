package dev.rivulet.query.compile;

import dev.rivulet.engine.Column;
import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.GraphBuilder;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.engine.Stream;
import dev.rivulet.query.Expr;
import dev.rivulet.query.QueryException;
import dev.rivulet.query.QueryIR;
import dev.rivulet.query.Source;
import dev.rivulet.query.expr.Casts;
import dev.rivulet.query.expr.ExprCompiler;
import dev.rivulet.query.expr.Expressions;
import dev.rivulet.query.expr.Scope;
import dev.rivulet.query.expr.TypeChecker;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Compiles the query IR onto one engine graph. A block becomes: its relations (sources or
 * compiled subqueries), each filtered by the where-conjuncts that touch only it and may be pushed
 * below the joins; left-deep keyed joins; the remaining where filter; grouping and aggregates (see
 * {@link GroupingCompiler}); the projection; distinct; and order/offset/limit as a top-K window.
 * A block without joins, grouping or projection keeps the minimal pipeline (filter, then top-K).
 *
 * <p>Every check a query must pass (unknown aliases and columns, an alias used twice in one query
 * tree, a limit without an order, aggregates in where, type mismatches) happens here and fails
 * with a {@link QueryException} naming the clause. One compiler compiles one query tree; not
 * thread-safe.
 */
public final class QueryCompiler {
  private final GraphBuilder graph;
  private final Function<Source, Stream> inputs;
  private final Set<String> aliases = new HashSet<>();
  private final List<FacadeEdge> facades = new ArrayList<>();
  private final java.util.function.Predicate<Source> lazy;
  private final List<DemandEdge> demands = new ArrayList<>();
  private final List<DemandEdge> wholeReads = new ArrayList<>(); // lazy sources read without correlation
  private final Function<Source, dev.rivulet.engine.RowSource> snapshots; // null: none
  private final IndexedReads indexed = new IndexedReads();

  public QueryCompiler(GraphBuilder graph, Function<Source, Stream> inputs) {
    this(graph, inputs, s -> false);
  }

  /** @param lazy which sources load on demand (their reads become {@link #demands()}) */
  public QueryCompiler(GraphBuilder graph, Function<Source, Stream> inputs, java.util.function.Predicate<Source> lazy) {
    this(graph, inputs, lazy, null);
  }

  /**
   * @param snapshots the current rows of an eager source (null for none): an include's child that
   *     reads such a source directly semi-joins it with its active buckets in an operator that
   *     indexes the source's rows itself ({@link IndexedReads})
   */
  public QueryCompiler(GraphBuilder graph, Function<Source, Stream> inputs, java.util.function.Predicate<Source> lazy,
      Function<Source, dev.rivulet.engine.RowSource> snapshots) {
    this.graph = graph;
    this.inputs = inputs;
    this.lazy = lazy;
    this.snapshots = snapshots;
  }

  /**
   * Ends the compilation's indexed reads: the sources whose every read is an include's indexed
   * semi-join, whose inputs must then not be hydrated (the semi-joins read their rows).
   */
  public Set<Source> unhydratedSources() {
    return indexed.finish(snapshots);
  }

  /** The reads of lazy sources compiled so far: correlated ones with their outputs, then whole reads. */
  public List<DemandEdge> demands() {
    List<DemandEdge> out = new ArrayList<>(demands);
    out.addAll(wholeReads);
    return out;
  }

  public Compiled compile(QueryIR query) {
    if (query instanceof QueryIR.Select s) {
      return block(s);
    }
    return union((QueryIR.UnionAll) query);
  }

  /**
   * Compiles a live query's result keyed by the visible columns {@code publicKey} (null: the
   * derived key), reduced by that key inside the graph ({@link PublicKeys}).
   */
  public Compiled compile(QueryIR query, List<String> publicKey) {
    if (publicKey == null) {
      return compile(query);
    }
    if (query instanceof QueryIR.Select s) {
      return block(s, null, publicKey);
    }
    return PublicKeys.apply(union((QueryIR.UnionAll) query), publicKey);
  }

  /** The collection includes compiled so far, with their graph outputs. */
  public List<FacadeEdge> facades() {
    return List.copyOf(facades);
  }

  /** Adds the outputs of a collection include's active buckets and child rows. */
  void facade(RowShape.Nest nest, Stream active, Compiled child) {
    int n = facades.size();
    String activeOutput = "include" + n + ":active";
    String rowsOutput = "include" + n + ":rows";
    graph.output(activeOutput, active);
    graph.output(rowsOutput, child.stream());
    facades.add(new FacadeEdge(nest, activeOutput, rowsOutput, child.partition(), child.keys(),
        child.elementColumns(), child.comparator()));
  }

  /** One aliased relation's stream, visible schema, row width and key columns. */
  private record Rel(String alias, Stream stream, Schema visible, int[] keys, Source source) {
    int width() {
      return stream.schema().width();
    }
  }

  /**
   * Compiles an include's child block (its correlation taken out of its where): the relation its
   * correlated columns belong to is semi-joined with the parent's active buckets, and the block's
   * rows carry their bucket (see {@link Compiled#partition}).
   */
  Compiled child(QueryIR.Select child, List<Expr> childCols, Stream activeBuckets, String what) {
    return block(child, new Correlation(childCols, activeBuckets, what), null);
  }

  /** The correlated side of an include: the child's columns and the parent's active buckets. */
  private record Correlation(List<Expr> childCols, Stream activeBuckets, String what) {}

  private Compiled block(QueryIR.Select s) {
    return block(s, null, null);
  }

  private Compiled block(QueryIR.Select s, Correlation corr, List<String> publicKey) {
    IncludeCompiler includes = includes(s);
    if (includes != null) {
      s = includes.parentSelect();
    }
    List<QueryIR.Aliased> items = new ArrayList<>();
    items.add(s.from());
    for (QueryIR.Join j : s.joins()) {
      items.add(j.relation());
    }
    List<Rel> rels = new ArrayList<>();
    int fromRead = wholeReads.size(); // where the read of a lazy from table goes
    for (QueryIR.Aliased a : items) {
      rels.add(relation(a, rels.isEmpty() ? "from" : "join"));
    }
    Set<String> nullSupplying = nullSupplying(s);
    for (int i = 0; i < rels.size(); i++) {
      if (nullSupplying.contains(rels.get(i).alias)) {
        rels.set(i, witnessed(rels.get(i)));
      }
    }

    // Where: conjuncts that read one relation that is never null-extended go below the joins.
    List<Expr> rest = new ArrayList<>();
    if (s.where() != null) {
      Expressions.rejectAggregates(s.where(), "where");
      for (Expr c : Expressions.conjuncts(s.where())) {
        Set<String> used = Expressions.aliases(c);
        if (used.size() == 1 && !nullSupplying.contains(used.iterator().next())) {
          int i = indexOf(rels, used.iterator().next());
          if (i < 0) {
            rest.add(c); // unknown alias: reported by the filter below
            continue;
          }
          Rel r = rels.get(i);
          Layout alone = Layout.empty().append(r.alias, r.visible, r.width(), r.keys);
          rels.set(i, new Rel(r.alias, filter(r.stream, c, alone, "where"), r.visible, r.keys, r.source));
        } else {
          rest.add(c);
        }
      }
    }

    if (corr != null) {
      semiJoin(rels, corr, nullSupplying, s);
    } else if (rels.get(0).source != null && lazy.test(rels.get(0).source)) {
      wholeReads.set(fromRead, wholeReads.get(fromRead).pushed(DemandPushdown.of(s, alone(rels.get(0)))));
    }
    Rel first = rels.get(0);
    Stream acc = first.stream;
    Layout layout = Layout.empty().append(first.alias, first.visible, first.width(), first.keys);
    LeftJoinWindow leftJoin = null;
    JoinColumns reads = corr == null && includes == null ? JoinColumns.of(s, rest, visibleByAlias(rels)) : null;
    for (int i = 0; i < s.joins().size(); i++) {
      QueryIR.Join j = s.joins().get(i);
      Rel r = rels.get(i + 1);
      Expr onRight = j.kind() == QueryIR.JoinKind.LEFT && !nullsLeftAfter(s, i) ? takeOnly(rest, r) : null;
      Layout right = Layout.empty().append(r.alias, r.visible, r.width(), r.keys);
      Layout next = layout.then(right);
      int[] keepLeft = null;
      int[] keepRight = null;
      if (reads != null) {
        // Only the columns read after this join (and the keys) go on: the join emits them alone.
        List<Integer> keptLeft = new ArrayList<>();
        List<Integer> keptRight = new ArrayList<>();
        Layout leftAfter = layout.pruned(reads.after(i), keptLeft);
        Layout rightAfter = right.pruned(reads.after(i), keptRight);
        if (keptLeft.size() != layout.width() || keptRight.size() != right.width()) {
          keepLeft = ints(keptLeft);
          keepRight = ints(keptRight);
          next = leftAfter.then(rightAfter);
        }
      }
      JoinSpec spec = joinSpec(acc, layout, j, r, onRight, keepLeft, keepRight);
      if (s.joins().size() == 1 && j.kind() == QueryIR.JoinKind.LEFT && rest.isEmpty() && corr == null
          && includes == null && first.source != null && r.source != null && LeftJoinWindow.uniqueRight(r.stream, r.keys, spec.rightKeys())) {
        leftJoin = new LeftJoinWindow(acc, r.stream, spec.leftKeys(), spec.rightKeys(), spec.onRight(), first.keys);
      } else {
        acc = spec.build(acc, r.stream);
      }
      layout = next;
    }
    layout = layout.nullable(nullSupplying);
    if (!rest.isEmpty()) {
      acc = filter(acc, Expressions.and(rest), layout, "where");
    }
    Projection projection = new Projection(s, corr == null ? List.of() : corr.childCols(), publicKey,
        includes != null);
    Compiled c = leftJoin != null ? projection.compile(leftJoin, layout) : projection.compile(acc, layout);
    return includes == null ? c : includes.compose(c, this, corr == null);
  }

  /** The block's includes, or null when it has none (then the include compiler is not even loaded). */
  private static IncludeCompiler includes(QueryIR.Select s) {
    for (QueryIR.SelectItem item : s.select()) {
      Expr e = item.expr(); // a leaf tested first: a flat select list loads no include class
      if (!Expressions.leaf(e) && e instanceof Expr.Include) {
        return IncludeCompiler.of(s);
      }
    }
    return null;
  }

  /**
   * Keeps only the rows of the correlated relation whose correlation values are an active bucket.
   * A lazy relation's read becomes the include's demand, with the order and limit of block {@code
   * s} when they may go into its requests ({@link DemandPushdown}).
   */
  private void semiJoin(List<Rel> rels, Correlation corr, Set<String> nullSupplying, QueryIR.Select s) {
    String alias = ((Expr.Col) corr.childCols().get(0)).alias();
    if (nullSupplying.contains(alias)) {
      throw new QueryException(corr.what() + ": correlates on " + alias + ", which an outer join null-extends");
    }
    int i = indexOf(rels, alias);
    Rel r = rels.get(i);
    Layout alone = Layout.empty().append(r.alias, r.visible, r.width(), r.keys);
    List<String> cols = new ArrayList<>();
    List<String> buckets = new ArrayList<>();
    for (int k = 0; k < corr.childCols().size(); k++) {
      int at = alone.resolve((Expr.Col) corr.childCols().get(k), corr.what()).index();
      cols.add(r.stream.schema().column(at).name());
      buckets.add(corr.activeBuckets().schema().column(k).name());
    }
    if (r.source != null && lazy.test(r.source)) {
      removeLastRead(r.source); // this read is served by the include's demand instead
      String output = "include" + demands.size() + ":demand";
      graph.output(output, corr.activeBuckets());
      List<String> names = new ArrayList<>();
      for (Expr c : corr.childCols()) {
        names.add(((Expr.Col) c).column());
      }
      demands.add(new DemandEdge(output, r.source, names).pushed(i == 0 ? DemandPushdown.of(s, alone(r)) : null));
    }
    if (snapshots != null && r.source != null && !lazy.test(r.source) && indexed.isInput(r.stream, r.source)
        && snapshots.apply(r.source) != null) {
      Stream kept = r.stream.semiJoin(corr.activeBuckets(), cols, buckets, indexed.read(r.source));
      rels.set(i, new Rel(r.alias, kept, r.visible, r.keys, null));
      return;
    }
    int width = r.width();
    int[] own = Projection.range(0, width);
    Stream kept = r.stream.join(corr.activeBuckets(), dev.rivulet.engine.JoinType.INNER, cols, buckets)
        .map(r.stream.schema(), row -> row.project(own));
    rels.set(i, new Rel(r.alias, kept, r.visible, r.keys, null));
  }

  private static Layout alone(Rel r) {
    return Layout.empty().append(r.alias, r.visible, r.width(), r.keys);
  }

  /** Drops the latest whole read of {@code source} (the one of the block being compiled). */
  private void removeLastRead(Source source) {
    for (int i = wholeReads.size() - 1; i >= 0; i--) {
      if (wholeReads.get(i).source() == source) {
        wholeReads.remove(i);
        return;
      }
    }
  }

  private Rel relation(QueryIR.Aliased a, String clause) {
    if (!identifier(a.alias()) || a.alias().startsWith("__")) {
      throw new QueryException(clause + ": alias '" + a.alias() + "' must be an identifier not starting with __");
    }
    if (!aliases.add(a.alias())) {
      throw new QueryException(clause + ": alias '" + a.alias() + "' is used twice in one query tree");
    }
    if (a.relation() instanceof QueryIR.Table t) {
      Source src = t.source();
      int[] keys;
      try {
        keys = src.schema().indexesOf(src.keyColumns());
      } catch (RuntimeException e) {
        throw new QueryException(clause + ": source " + src.name() + ": " + e.getMessage());
      }
      if (lazy.test(src)) {
        wholeReads.add(new DemandEdge(null, src, List.of()));
      }
      return new Rel(a.alias(), indexed.input(src, inputs.apply(src)), visibleOf(src.schema()), keys, src);
    }
    Compiled c = compile(((QueryIR.Subquery) a.relation()).query());
    return new Rel(a.alias(), c.stream(), c.visible(), c.keys(), null);
  }

  /** Whether {@code s} is an ASCII identifier: a letter or underscore, then letters, digits and underscores. */
  static boolean identifier(String s) {
    if (s.isEmpty()) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean letter = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
      if (!letter && (i == 0 || c < '0' || c > '9')) {
        return false;
      }
    }
    return true;
  }

  /**
   * A relation that an outer join may null-extend needs a key that tells "absent" from "present
   * with null key values": some key column that is never null while the row exists. A relation
   * without one (an empty key, as of a global aggregate, or only nullable key columns) gets a
   * hidden, always-true {@code __present} column added to its rows and its key; otherwise two
   * result rows, one null-extended and one with null keys, could share the derived key.
   */
  private static Rel witnessed(Rel r) {
    Schema schema = r.stream.schema();
    for (int k : r.keys) {
      if (!schema.column(k).nullable()) {
        return r;
      }
    }
    List<Column> cols = new ArrayList<>(schema.columns());
    cols.add(Column.notNull("__present", ColumnType.BOOL));
    Stream marked = r.stream.map(Schema.of(cols), row -> row.append(Boolean.TRUE));
    int[] keys = java.util.Arrays.copyOf(r.keys, r.keys.length + 1);
    keys[r.keys.length] = schema.width();
    return new Rel(r.alias, marked, r.visible, keys, r.source);
  }

  /** The leading columns of a source schema, without its hidden {@code __} columns. */
  private static Schema visibleOf(Schema schema) {
    int v = 0;
    while (v < schema.width() && !schema.column(v).name().startsWith("__")) {
      v++;
    }
    return v == schema.width() ? schema : Schema.of(schema.columns().subList(0, v));
  }

  /** Aliases whose columns may be null-extended by an outer join. */
  private static Set<String> nullSupplying(QueryIR.Select s) {
    Set<String> out = new HashSet<>();
    List<String> before = new ArrayList<>();
    before.add(s.from().alias());
    for (QueryIR.Join j : s.joins()) {
      String a = j.relation().alias();
      if (j.kind() == QueryIR.JoinKind.LEFT || j.kind() == QueryIR.JoinKind.FULL) {
        out.add(a);
      }
      if (j.kind() == QueryIR.JoinKind.RIGHT || j.kind() == QueryIR.JoinKind.FULL) {
        out.addAll(before);
      }
      before.add(a);
    }
    return out;
  }

  private static Layout nullableAlone(Rel r) {
    return Layout.empty().append(r.alias, r.visible, r.width(), r.keys).nullable(Set.of(r.alias));
  }

  private static boolean isBool(Expr c, Layout scope) {
    try {
      ColumnType t = TypeChecker.typeOf(c, scope, "where");
      return t == ColumnType.BOOL || t == ColumnType.ANY;
    } catch (QueryException e) {
      return false;
    }
  }

  /** Whether a join after join {@code i} of {@code s} null-extends the relations before it (right or full). */
  private static boolean nullsLeftAfter(QueryIR.Select s, int i) {
    for (int k = i + 1; k < s.joins().size(); k++) {
      QueryIR.JoinKind kind = s.joins().get(k).kind();
      if (kind == QueryIR.JoinKind.RIGHT || kind == QueryIR.JoinKind.FULL) {
        return true;
      }
    }
    return false;
  }

  /**
   * Removes from {@code conjuncts} the boolean ones that read only {@code r}; their conjunction, or
   * null. (One that does not type-check stays, for the where filter to report.)
   */
  private static Expr takeOnly(List<Expr> conjuncts, Rel r) {
    List<Expr> taken = new ArrayList<>();
    Layout alone = nullableAlone(r);
    for (java.util.Iterator<Expr> it = conjuncts.iterator(); it.hasNext();) {
      Expr c = it.next();
      if (Expressions.aliases(c).equals(Set.of(r.alias)) && isBool(c, alone)) {
        taken.add(c);
        it.remove();
      }
    }
    return taken.isEmpty() ? null : Expressions.and(taken);
  }

  /**
   * A checked join of a block: its kind, key column names, for a left join its right-side
   * condition, and for a pruned inner join the columns of each side it emits.
   */
  private record JoinSpec(dev.rivulet.engine.JoinType type, List<String> leftKeys, List<String> rightKeys,
      java.util.function.Predicate<Row> onRight, int[] keepLeft, int[] keepRight) {
    Stream build(Stream left, Stream right) {
      if (onRight != null) {
        return left.leftJoinWhere(right, leftKeys, rightKeys, onRight);
      }
      return keepLeft != null ? left.innerJoinKeeping(right, leftKeys, rightKeys, keepLeft, keepRight)
          : left.join(right, type, leftKeys, rightKeys);
    }
  }

  /**
   * Checks the join of {@code r}; {@code onRight}, where-conjuncts that read only {@code r} of a
   * left join that no later join null-extends, is tested on the right rows before pairing (a row
   * without a match is tested with all its right columns null), which keeps the same rows as
   * filtering the joined rows. {@code keepLeft} and {@code keepRight}, for an inner join, are the
   * columns of each side it emits (see {@link JoinColumns}), or null for all.
   */
  private JoinSpec joinSpec(Stream left, Layout layout, QueryIR.Join j, Rel r, Expr onRight, int[] keepLeft,
      int[] keepRight) {
    String clause = "join " + r.alias;
    if (j.on().isEmpty()) {
      throw new QueryException(clause + ": needs at least one equality");
    }
    Layout right = Layout.empty().append(r.alias, r.visible, r.width(), r.keys);
    List<String> lk = new ArrayList<>();
    List<String> rk = new ArrayList<>();
    for (QueryIR.On on : j.on()) {
      Expr.Col mine = on.right();
      Expr.Col theirs = on.left();
      if (!mine.alias().equals(r.alias)) {
        mine = on.left();
        theirs = on.right();
      }
      if (!mine.alias().equals(r.alias) || theirs.alias().equals(r.alias)) {
        throw new QueryException(clause + ": condition " + on.left() + " = " + on.right() + " must compare "
            + r.alias + " with an earlier relation");
      }
      Scope.Slot a = layout.resolve(theirs, clause);
      Scope.Slot b = right.resolve(mine, clause);
      if (!a.type().comparableWith(b.type())) {
        throw new QueryException(clause + ": cannot match " + theirs + " (" + a.type() + ") with " + mine
            + " (" + b.type() + ")");
      }
      lk.add(left.schema().column(a.index()).name());
      rk.add(r.stream.schema().column(b.index()).name());
    }
    // the engine's join types carry the same names (by name, not an enum switch: that would be
    // one more class for a fresh JVM to load)
    dev.rivulet.engine.JoinType type = dev.rivulet.engine.JoinType.valueOf(j.kind().name());
    return new JoinSpec(type, lk, rk, onRight == null ? null : ExprCompiler.predicate(onRight, nullableAlone(r)),
        keepLeft, keepRight);
  }

  private static Map<String, Schema> visibleByAlias(List<Rel> rels) {
    Map<String, Schema> out = new HashMap<>();
    for (Rel r : rels) {
      out.put(r.alias, r.visible);
    }
    return out;
  }

  private static int[] ints(List<Integer> list) {
    int[] out = new int[list.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = list.get(i);
    }
    return out;
  }

  /** Filters by a condition, which must be boolean. */
  static Stream filter(Stream in, Expr condition, Scope scope, String clause) {
    ColumnType t = TypeChecker.typeOf(condition, scope, clause);
    if (t != ColumnType.BOOL && t != ColumnType.ANY) {
      throw new QueryException(clause + ": condition " + condition + " is " + t + ", not BOOL");
    }
    return in.filter(ExprCompiler.predicate(condition, scope));
  }

  /** The common type of two comparable column types, as SQL types a union's column. */
  private static ColumnType widest(ColumnType a, ColumnType b) {
    if (a == b) {
      return a;
    }
    if (a == ColumnType.ANY || b == ColumnType.ANY) {
      return ColumnType.ANY;
    }
    return a == ColumnType.DECIMAL || b == ColumnType.DECIMAL ? ColumnType.DECIMAL : ColumnType.DOUBLE;
  }

  private static int indexOf(List<Rel> rels, String alias) {
    for (int i = 0; i < rels.size(); i++) {
      if (rels.get(i).alias.equals(alias)) {
        return i;
      }
    }
    return -1;
  }

  /**
   * Union all: each part's rows keep their visible columns; the key becomes (part number, the
   * part's key padded with nulls to the widest part key), so equal keys of two parts stay apart.
   */
  private Compiled union(QueryIR.UnionAll u) {
    if (u.parts().size() < 2) {
      throw new QueryException("union all: needs at least two parts");
    }
    List<Compiled> parts = new ArrayList<>();
    int keyWidth = 0;
    for (QueryIR q : u.parts()) {
      Compiled c = compile(q);
      parts.add(c);
      keyWidth = Math.max(keyWidth, c.keys().length);
    }
    Schema first = parts.get(0).visible();
    for (int p = 1; p < parts.size(); p++) {
      Schema other = parts.get(p).visible();
      if (other.width() != first.width()) {
        throw new QueryException("union all: part " + (p + 1) + " has " + other.width() + " columns but part 1 has "
            + first.width());
      }
      for (int c = 0; c < first.width(); c++) {
        if (!first.column(c).type().comparableWith(other.column(c).type())) {
          throw new QueryException("union all: column " + first.column(c).name() + " is " + first.column(c).type()
              + " in part 1 but " + other.column(c).type() + " in part " + (p + 1));
        }
      }
    }
    List<Column> cols = new ArrayList<>();
    for (int c = 0; c < first.width(); c++) {
      ColumnType t = first.column(c).type();
      boolean nullable = false;
      for (Compiled part : parts) {
        t = widest(t, part.visible().column(c).type());
        nullable |= part.visible().column(c).nullable();
      }
      cols.add(new Column(first.column(c).name(), t, nullable));
    }
    cols.add(Column.of("__part", ColumnType.INT));
    for (int k = 0; k < keyWidth; k++) {
      cols.add(Column.of("__key" + k, ColumnType.ANY));
    }
    Schema out = Schema.of(cols);
    Stream acc = null;
    for (int p = 0; p < parts.size(); p++) {
      Compiled c = parts.get(p);
      int v = first.width();
      int[] keys = c.keys();
      long part = p;
      int width = keyWidth;
      // A column the union types DOUBLE holds doubles: this part's INT (or ANY) values convert.
      boolean[] toDouble = new boolean[v];
      for (int i = 0; i < v; i++) {
        toDouble[i] = cols.get(i).type() == ColumnType.DOUBLE && c.visible().column(i).type() != ColumnType.DOUBLE;
      }
      Stream mapped = c.stream().map(out, row -> {
        Object[] vals = new Object[v + 1 + width];
        for (int i = 0; i < v; i++) {
          vals[i] = toDouble[i] ? Casts.toDouble(row.get(i)) : row.get(i);
        }
        vals[v] = part;
        for (int i = 0; i < keys.length; i++) {
          vals[v + 1 + i] = row.get(keys[i]);
        }
        return Row.of(vals);
      });
      acc = acc == null ? mapped : acc.concat(mapped);
    }
    int[] keys = new int[1 + keyWidth];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = first.width() + i;
    }
    return new Compiled(acc, Schema.of(cols.subList(0, first.width())), keys, new int[0]);
  }
}
