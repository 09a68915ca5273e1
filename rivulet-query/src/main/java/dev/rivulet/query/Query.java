package dev.rivulet.query;

import dev.rivulet.query.compile.QueryCompiler;
import dev.rivulet.query.compile.QueryPlans;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The query builder: an immutable, fluent description of a query that produces the {@link
 * QueryIR}. Every method returns a new query.
 *
 * <pre>{@code
 * Query q = Query.from("i", issues)
 *     .leftJoin("u", users, Query.on("i.assignee", "u.id"))
 *     .where(eq(col("i.status"), lit("open")))
 *     .select(Query.as("id", col("i.id")), Query.as("who", col("u.name")))
 *     .orderBy(Query.desc(col("i.priority")))
 *     .limit(50);
 * }</pre>
 *
 * <p>{@link #ir()} checks the query against its sources' schemas and fails with a {@link
 * QueryException} that names the clause and the column (unknown columns or aliases, an alias used
 * twice, a limit without an order on a query that may have several rows, an aggregate in where, type
 * mismatches).
 */
public final class Query {
  private final QueryIR ir;

  private Query(QueryIR ir) {
    this.ir = ir;
  }

  /** A query reading {@code source} under {@code alias}. */
  public static Query from(String alias, Source source) {
    return new Query(select(new QueryIR.Aliased(alias, new QueryIR.Table(source))));
  }

  /** A query reading the result of {@code subquery} under {@code alias}. */
  public static Query from(String alias, Query subquery) {
    return new Query(select(new QueryIR.Aliased(alias, new QueryIR.Subquery(subquery.ir))));
  }

  /** {@code q1 UNION ALL q2 ...}. */
  public static Query unionAll(Query... parts) {
    List<QueryIR> irs = new ArrayList<>();
    for (Query q : parts) {
      irs.add(q.ir);
    }
    return new Query(new QueryIR.UnionAll(irs));
  }

  private static QueryIR.Select select(QueryIR.Aliased from) {
    return new QueryIR.Select(from, List.of(), null, List.of(), null, List.of(), false, List.of(), null, 0, false);
  }

  /** One join equality, {@code "a.x"} = {@code "b.y"}. */
  public static QueryIR.On on(String left, String right) {
    return new QueryIR.On(Exprs.col(left), Exprs.col(right));
  }

  public static QueryIR.SelectItem as(String name, Expr expr) {
    return new QueryIR.SelectItem(name, expr);
  }

  /**
   * A nested live collection per parent: the child query's rows that correlate with the parent
   * row, as a {@link LiveCollection} (read-only) shared by all parents with the same correlation
   * values and stable while any parent routes to it. See {@link Expr.Include} for correlation.
   */
  public static QueryIR.SelectItem include(String name, Query child) {
    return new QueryIR.SelectItem(name, new Expr.Include(child.ir, Expr.IncludeMode.COLLECTION, null));
  }

  /** The correlated child rows as an immutable {@code List<Row>} in the child's order ({@code []} when none). */
  public static QueryIR.SelectItem includeArray(String name, Query child) {
    return new QueryIR.SelectItem(name, new Expr.Include(child.ir, Expr.IncludeMode.ARRAY, null));
  }

  /** The first correlated child row in the child's order, or null when there is none. */
  public static QueryIR.SelectItem includeOne(String name, Query child) {
    return new QueryIR.SelectItem(name, new Expr.Include(child.ir, Expr.IncludeMode.ONE, null));
  }

  /**
   * The child's single column over the correlated rows: non-null values as text, joined by {@code
   * separator} in the child's order ({@code ""} when none).
   */
  public static QueryIR.SelectItem includeConcat(String name, Query child, String separator) {
    return new QueryIR.SelectItem(name, new Expr.Include(child.ir, Expr.IncludeMode.CONCAT,
        java.util.Objects.requireNonNull(separator, "separator")));
  }

  /** Ascending, NULLs last. */
  public static QueryIR.OrderItem asc(Expr e) {
    return new QueryIR.OrderItem(e, false, false);
  }

  /** Descending, NULLs first (NULL sorts as the largest value, as in PostgreSQL). */
  public static QueryIR.OrderItem desc(Expr e) {
    return new QueryIR.OrderItem(e, true, true);
  }

  /** Ascending by the output column {@code outputName} of the select list ({@code ORDER BY name}). */
  public static QueryIR.OrderItem asc(String outputName) {
    return asc(Exprs.output(outputName));
  }

  /** Descending by the output column {@code outputName} of the select list. */
  public static QueryIR.OrderItem desc(String outputName) {
    return desc(Exprs.output(outputName));
  }

  /** Ascending by the output column at 1-based {@code position} ({@code ORDER BY 2}). */
  public static QueryIR.OrderItem asc(int position) {
    return asc(Exprs.output(position));
  }

  /** Descending by the output column at 1-based {@code position}. */
  public static QueryIR.OrderItem desc(int position) {
    return desc(Exprs.output(position));
  }

  /** {@code item} with NULLs placed first. */
  public static QueryIR.OrderItem nullsFirst(QueryIR.OrderItem item) {
    return new QueryIR.OrderItem(item.expr(), item.descending(), true);
  }

  /** {@code item} with NULLs placed last. */
  public static QueryIR.OrderItem nullsLast(QueryIR.OrderItem item) {
    return new QueryIR.OrderItem(item.expr(), item.descending(), false);
  }

  public Query join(QueryIR.JoinKind kind, String alias, Source source, QueryIR.On... on) {
    return join(kind, new QueryIR.Aliased(alias, new QueryIR.Table(source)), on);
  }

  public Query join(QueryIR.JoinKind kind, String alias, Query subquery, QueryIR.On... on) {
    return join(kind, new QueryIR.Aliased(alias, new QueryIR.Subquery(subquery.ir)), on);
  }

  /** {@code INNER JOIN source AS alias ON ...}. */
  public Query innerJoin(String alias, Source source, QueryIR.On... on) {
    return join(QueryIR.JoinKind.INNER, alias, source, on);
  }

  /** {@code INNER JOIN (subquery) AS alias ON ...}. */
  public Query innerJoin(String alias, Query subquery, QueryIR.On... on) {
    return join(QueryIR.JoinKind.INNER, alias, subquery, on);
  }

  /** {@code LEFT JOIN source AS alias ON ...}: every row of the left side, null-extended. */
  public Query leftJoin(String alias, Source source, QueryIR.On... on) {
    return join(QueryIR.JoinKind.LEFT, alias, source, on);
  }

  public Query leftJoin(String alias, Query subquery, QueryIR.On... on) {
    return join(QueryIR.JoinKind.LEFT, alias, subquery, on);
  }

  /** {@code RIGHT JOIN source AS alias ON ...}: every row of {@code source}, null-extended. */
  public Query rightJoin(String alias, Source source, QueryIR.On... on) {
    return join(QueryIR.JoinKind.RIGHT, alias, source, on);
  }

  public Query rightJoin(String alias, Query subquery, QueryIR.On... on) {
    return join(QueryIR.JoinKind.RIGHT, alias, subquery, on);
  }

  /** {@code FULL JOIN source AS alias ON ...}: every row of both sides, null-extended. */
  public Query fullJoin(String alias, Source source, QueryIR.On... on) {
    return join(QueryIR.JoinKind.FULL, alias, source, on);
  }

  public Query fullJoin(String alias, Query subquery, QueryIR.On... on) {
    return join(QueryIR.JoinKind.FULL, alias, subquery, on);
  }

  private Query join(QueryIR.JoinKind kind, QueryIR.Aliased rel, QueryIR.On... on) {
    QueryIR.Select s = block("join");
    List<QueryIR.Join> joins = new ArrayList<>(s.joins());
    joins.add(new QueryIR.Join(kind, rel, Arrays.asList(on)));
    return with(new QueryIR.Select(s.from(), joins, s.where(), s.groupBy(), s.having(), s.select(), s.distinct(),
        s.orderBy(), s.limit(), s.offset(), s.findOne(), s.after()));
  }

  /** Adds a where condition (ANDed with any earlier one). */
  public Query where(Expr condition) {
    QueryIR.Select s = block("where");
    Expr w = s.where() == null ? condition : new Expr.And(List.of(s.where(), condition));
    return with(new QueryIR.Select(s.from(), s.joins(), w, s.groupBy(), s.having(), s.select(), s.distinct(),
        s.orderBy(), s.limit(), s.offset(), s.findOne(), s.after()));
  }

  public Query groupBy(Expr... keys) {
    QueryIR.Select s = block("group by");
    return with(new QueryIR.Select(s.from(), s.joins(), s.where(), Arrays.asList(keys), s.having(), s.select(),
        s.distinct(), s.orderBy(), s.limit(), s.offset(), s.findOne(), s.after()));
  }

  public Query having(Expr condition) {
    QueryIR.Select s = block("having");
    return with(new QueryIR.Select(s.from(), s.joins(), s.where(), s.groupBy(), condition, s.select(), s.distinct(),
        s.orderBy(), s.limit(), s.offset(), s.findOne(), s.after()));
  }

  public Query select(QueryIR.SelectItem... items) {
    QueryIR.Select s = block("select");
    return with(new QueryIR.Select(s.from(), s.joins(), s.where(), s.groupBy(), s.having(), Arrays.asList(items),
        s.distinct(), s.orderBy(), s.limit(), s.offset(), s.findOne(), s.after()));
  }

  public Query distinct() {
    QueryIR.Select s = block("distinct");
    return with(new QueryIR.Select(s.from(), s.joins(), s.where(), s.groupBy(), s.having(), s.select(), true,
        s.orderBy(), s.limit(), s.offset(), s.findOne(), s.after()));
  }

  public Query orderBy(QueryIR.OrderItem... items) {
    QueryIR.Select s = block("order by");
    return with(new QueryIR.Select(s.from(), s.joins(), s.where(), s.groupBy(), s.having(), s.select(), s.distinct(),
        Arrays.asList(items), s.limit(), s.offset(), s.findOne(), s.after()));
  }

  /**
   * Keeps at most {@code limit} rows of the ordered result. Needs an order by, except on a query
   * that has at most one row (an aggregate without group by), where no order can matter.
   */
  public Query limit(long limit) {
    QueryIR.Select s = block("limit");
    return with(new QueryIR.Select(s.from(), s.joins(), s.where(), s.groupBy(), s.having(), s.select(), s.distinct(),
        s.orderBy(), limit, s.offset(), s.findOne(), s.after()));
  }

  /** Skips the first {@code offset} rows of the ordered result; needs an order by as {@link #limit} does. */
  public Query offset(long offset) {
    QueryIR.Select s = block("offset");
    return with(new QueryIR.Select(s.from(), s.joins(), s.where(), s.groupBy(), s.having(), s.select(), s.distinct(),
        s.orderBy(), s.limit(), offset, s.findOne(), s.after()));
  }

  /**
   * Starts the ordered result strictly after {@code cursor}: its values are the order's sort keys
   * followed by the result key (the total order), as a window delta's cursor carries them; the
   * row comparison follows each sort key's direction and NULL placement, as SQL's {@code WHERE
   * (k1, k2, id) > (...)} does for ascending keys. Needs an order by.
   */
  public Query after(Cursor cursor) {
    return withAfter(java.util.Objects.requireNonNull(cursor, "cursor"));
  }

  /** This query starting after {@code cursor}, or from the head when it is null. */
  Query withAfter(Cursor cursor) {
    QueryIR.Select s = block("after");
    return with(new QueryIR.Select(s.from(), s.joins(), s.where(), s.groupBy(), s.having(), s.select(), s.distinct(),
        s.orderBy(), s.limit(), s.offset(), s.findOne(), cursor));
  }

  /** At most one row: the first in the query's order (or by key when it has none). */
  public Query findOne() {
    QueryIR.Select s = block("findOne");
    return with(new QueryIR.Select(s.from(), s.joins(), s.where(), s.groupBy(), s.having(), s.select(), s.distinct(),
        s.orderBy(), s.limit(), s.offset(), true, s.after()));
  }

  /** The unchecked IR. */
  public QueryIR raw() {
    return ir;
  }

  /**
   * The IR, checked: compiled once against a scratch graph so that every error surfaces now.
   *
   * @throws QueryException naming the clause and column at fault
   */
  public QueryIR ir() {
    QueryPlans.check(ir);
    return ir;
  }

  /**
   * Compiles this query into {@code graph} and returns its result stream: the visible columns
   * first (hidden key and sort columns may follow), positioned when the query orders. {@code
   * inputs} gives the stream of each source. This is the pipeline a {@link LiveQuery} runs, for
   * callers that wire graphs themselves.
   *
   * @throws QueryException naming the clause and column at fault
   */
  public dev.rivulet.engine.Stream compile(dev.rivulet.engine.GraphBuilder graph,
      java.util.function.Function<Source, dev.rivulet.engine.Stream> inputs) {
    return new QueryCompiler(graph, inputs).compile(ir).stream();
  }

  private QueryIR.Select block(String clause) {
    if (!(ir instanceof QueryIR.Select s)) {
      throw new QueryException(clause + ": a union all cannot take clauses; wrap it with Query.from(alias, union)");
    }
    return s;
  }

  private static Query with(QueryIR.Select s) {
    return new Query(s);
  }

  @Override
  public String toString() {
    return ir.toString();
  }
}
