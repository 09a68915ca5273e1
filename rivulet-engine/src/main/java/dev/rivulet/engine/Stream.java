package dev.rivulet.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * A stream of changes to a relation of rows of one {@link Schema}, inside a {@link
 * GraphBuilder}. Each method adds one operator and returns its output stream. Column names are
 * resolved here, at build time: an unknown column or a key type mismatch fails at once with a
 * {@link WiringException} naming the operator.
 */
public final class Stream {
  final GraphBuilder builder;
  final Operator op;

  Stream(GraphBuilder builder, Operator op) {
    this.builder = builder;
    this.op = op;
  }

  public Schema schema() {
    return op.schema;
  }

  /** The operator's name in its graph, e.g. {@code join#2}. */
  public String name() {
    return op.name;
  }

  /** Gives this stream's operator a name used in errors and counters. */
  public Stream named(String name) {
    op.name = Objects.requireNonNull(name);
    return this;
  }

  /**
   * Adds an operator built by its class's static {@code of}, declared to return {@link Operator}:
   * were a {@code new XOperator(..)} passed here, the verifier would load every operator class this
   * file can build (to check each is an Operator) when Stream is first linked, though a graph uses
   * a few (each class costs a fresh JVM a fraction of a millisecond before a first query is ready).
   */
  private Stream add(Operator o) {
    return new Stream(builder, builder.add(o, null));
  }

  private String next(String kind) {
    return kind + " on " + op.name;
  }

  private int[] columns(String kind, List<String> names) {
    try {
      return op.schema.indexesOf(names);
    } catch (SchemaException e) {
      throw new WiringException(next(kind) + ": " + e.getMessage());
    }
  }

  /** Applies {@code fn} to every row; its results must fit {@code out}. */
  public Stream map(Schema out, UnaryOperator<Row> fn) {
    return add(MapOperator.of(op, out, fn, false));
  }

  /**
   * {@link #map} of a window (the output of a {@link #topK} without partitions) by a function that keeps the values of every
   * column the window orders by, so that rows with equal results rank alike: a retraction and an
   * insertion with equal results then cancel (the row's result did not change), and the rest keep
   * their positions.
   */
  public Stream mapWindow(Schema out, UnaryOperator<Row> fn) {
    if (!(op instanceof TopKOperator t) || t.partitioned()) {
      throw new WiringException(next("map-window") + ": needs the output of a top-k without partitions");
    }
    return add(MapOperator.of(op, out, fn, true));
  }

  /** Keeps the rows {@code predicate} accepts. */
  public Stream filter(Predicate<Row> predicate) {
    return add(FilterOperator.of(op, predicate));
  }

  /** Replaces each row by the rows {@code fn} returns for it. */
  public Stream flatMap(Schema out, Function<Row, ? extends Iterable<Row>> fn) {
    return add(FlatMapOperator.of(op, out, fn));
  }

  /** Negates every weight. */
  public Stream negate() {
    return add(NegateOperator.of(op));
  }

  /** The multiset sum of this stream and {@code others}; all must have compatible schemas. */
  public Stream concat(Stream... others) {
    Operator[] ups = new Operator[others.length + 1];
    ups[0] = op;
    for (int i = 0; i < others.length; i++) {
      builder.checkOwns(others[i]);
      ups[i + 1] = others[i].op;
    }
    return add(ConcatOperator.of(ups));
  }

  /** Sums equal rows within each run and drops zero weights. */
  public Stream consolidate() {
    return add(ConsolidateOperator.of(op));
  }

  /** Each row with positive multiplicity, once. */
  public Stream distinct() {
    return add(DistinctOperator.of(op));
  }

  /**
   * Equi-join on {@code leftKeys[i] = rightKeys[i]}.
   *
   * @throws WiringException for an unknown column, unequal key counts or incompatible key types
   */
  public Stream join(Stream right, JoinType type, List<String> leftKeys, List<String> rightKeys) {
    return add(joinOperator(right, type, leftKeys, rightKeys, null));
  }

  /**
   * A left join, then the rows whose right part (all nulls for a row without a match) {@code
   * onRight} accepts: the same as {@code join(right, LEFT, ..).filter(..)} with that predicate,
   * but a right row is tested once, before it is paired, and no rejected pair is built.
   * {@code onRight} must be a pure function of the right row.
   *
   * @throws WiringException as {@link #join}
   */
  public Stream leftJoinWhere(Stream right, List<String> leftKeys, List<String> rightKeys, Predicate<Row> onRight) {
    return add(joinOperator(right, JoinType.LEFT, leftKeys, rightKeys, Objects.requireNonNull(onRight)));
  }

  /**
   * The left parts of {@link #leftJoinWhere}'s rows (of a plain left join's when {@code onRight} is
   * null): each left row once per right row of its key that {@code onRight} accepts, or once when
   * its key has no right rows and {@code onRight} accepts all-null right columns. Each output row is
   * the left stream's own row object, so nothing is allocated per row; a window over this stream
   * holds the left rows by reference. Where the right side has at most one row per key, this is
   * the left rows the left join keeps, each once.
   *
   * @throws WiringException as {@link #join}
   */
  public Stream leftJoinLeftRows(Stream right, List<String> leftKeys, List<String> rightKeys, Predicate<Row> onRight) {
    return add(joinOperator(right, JoinType.LEFT, leftKeys, rightKeys, onRight, true));
  }

  /**
   * Each left row with its column {@code column} set to the value of {@code valueColumn} in each
   * right row of its key, or to {@code unmatched} when its key has no right rows (and for a right
   * row whose value is null): the rows of {@code join(right, LEFT, ..)} mapped to their left part
   * with that column replaced, without the wide pair or a map step. The column's type must accept
   * the right column's values and {@code unmatched}.
   *
   * @throws WiringException as {@link #join}, for an unknown column, or a column type that does
   *     not accept the values
   */
  public Stream leftJoinSetting(Stream right, List<String> leftKeys, List<String> rightKeys, String column,
      String valueColumn, Object unmatched) {
    String kind = "left join setting";
    int[][] keys = joinKeys(right, kind, leftKeys, rightKeys);
    int set = columns(kind, List.of(column))[0];
    int value = rightColumns(right, kind, List.of(valueColumn))[0];
    ColumnType to = op.schema.column(set).type();
    ColumnType from = right.op.schema.column(value).type();
    Object empty = Values.canonical(unmatched);
    if (to != ColumnType.ANY && to != from || empty != null && !to.accepts(empty)
        || empty == null && !op.schema.column(set).nullable()) {
      throw new WiringException(next(kind) + " with " + right.op.name + ": column '" + column + "' (" + to
          + ") does not accept the values of '" + valueColumn + "' (" + from + ") and " + unmatched);
    }
    return add(JoinOperator.setting(op, right.op, keys[0], keys[1], set, value, empty));
  }

  private Operator joinOperator(Stream right, JoinType type, List<String> leftKeys, List<String> rightKeys,
      Predicate<Row> onRight) {
    return joinOperator(right, type, leftKeys, rightKeys, onRight, false);
  }

  private Operator joinOperator(Stream right, JoinType type, List<String> leftKeys, List<String> rightKeys,
      Predicate<Row> onRight, boolean leftRows) {
    String kind = type.name().toLowerCase(java.util.Locale.ROOT) + " join";
    int[][] keys = joinKeys(right, kind, leftKeys, rightKeys);
    return JoinOperator.of(op, right.op, type, keys[0], keys[1], onRight, leftRows);
  }

  /** The positions of the columns {@code names} of {@code right}, the other side of a {@code kind}. */
  private int[] rightColumns(Stream right, String kind, List<String> names) {
    try {
      return right.op.schema.indexesOf(names);
    } catch (SchemaException e) {
      throw new WiringException(next(kind) + " with " + right.op.name + ": " + e.getMessage());
    }
  }

  /**
   * Checks a join's keys; returns the positions of the left ones and of the right ones.
   *
   * @throws WiringException for an unknown column, unequal key counts or incompatible key types
   */
  private int[][] joinKeys(Stream right, String kind, List<String> leftKeys, List<String> rightKeys) {
    builder.checkOwns(right);
    if (leftKeys.isEmpty() || leftKeys.size() != rightKeys.size()) {
      throw new WiringException(next(kind) + ": needs the same number (at least one) of left and right keys, got "
          + leftKeys + " and " + rightKeys);
    }
    int[] lk = columns(kind, leftKeys);
    int[] rk = rightColumns(right, kind, rightKeys);
    for (int i = 0; i < lk.length; i++) {
      ColumnType a = op.schema.column(lk[i]).type();
      ColumnType b = right.op.schema.column(rk[i]).type();
      if (!a.comparableWith(b)) {
        throw new WiringException(next(kind) + " with " + right.op.name + ": key type mismatch, "
            + leftKeys.get(i) + " is " + a + " but " + rightKeys.get(i) + " is " + b);
      }
    }
    return new int[][] {lk, rk};
  }

  /**
   * An inner join that emits, of each pair, the {@code keepLeft} columns of its left row followed
   * by the {@code keepRight} columns of its right row (named as {@link #join} names them): the same
   * rows as {@code join(right, INNER, ..)} then that projection, without the wide pair built.
   *
   * @throws WiringException as {@link #join}, or for a kept column index out of range
   */
  public Stream innerJoinKeeping(Stream right, List<String> leftKeys, List<String> rightKeys, int[] keepLeft,
      int[] keepRight) {
    int[][] keys = joinKeys(right, "inner join", leftKeys, rightKeys);
    for (int c : keepLeft) {
      if (c < 0 || c >= op.schema.width()) {
        throw new WiringException(next("inner join") + ": no left column " + c + " in " + op.schema);
      }
    }
    for (int c : keepRight) {
      if (c < 0 || c >= right.op.schema.width()) {
        throw new WiringException(next("inner join") + ": no right column " + c + " in " + right.op.schema);
      }
    }
    return add(JoinOperator.keeping(op, right.op, keys[0], keys[1], keepLeft.clone(), keepRight.clone()));
  }

  /**
   * The rows of this stream whose {@code leftKeys} equal the {@code rightKeys} of some row of
   * {@code right}, each with its multiplicity times that key's multiplicity in {@code right}: the
   * rows of {@code join(right, INNER, ..)} projected back to this stream's columns when {@code
   * right} holds each key once (an include's active buckets), but the left rows are indexed
   * compactly and a right key's rows are emitted as they are. With {@code initial} giving a
   * source (it is asked when the graph first runs), this stream's relation starts as that
   * source's rows and its input must not carry them too (null, or a null source: it starts empty).
   *
   * @throws WiringException for an unknown column, unequal key counts or incompatible key types
   */
  public Stream semiJoin(Stream right, List<String> leftKeys, List<String> rightKeys,
      java.util.function.Supplier<RowSource> initial) {
    int[][] keys = joinKeys(right, "semi-join", leftKeys, rightKeys);
    return add(SemiJoinOperator.of(op, right.op, keys[0], keys[1], initial));
  }

  /** Shorthand for a join on one column of each side. */
  public Stream join(Stream right, JoinType type, String leftKey, String rightKey) {
    return join(right, type, List.of(leftKey), List.of(rightKey));
  }

  /**
   * Over the output of a {@link #topK} partitioned by {@code partitionBy}: one row per partition
   * whose window holds rows, the partition's values followed by the window as a {@link RowList}
   * of each row's {@code element} columns in window order ({@code out}: the partition columns' types,
   * then one column for the list). Kept current by splicing the window's positioned changes into
   * its last list, so a row that stays keeps its element row: the reduction of an array include's
   * ordered child without sorting or holding each group.
   */
  public Stream windowLists(List<String> partitionBy, int[] element, Schema out) {
    int[] part = columns("window-list", partitionBy);
    if (!(op instanceof TopKOperator t) || !t.partitionedBy(part)) {
      throw new WiringException(next("window-list") + ": needs the output of a top-k partitioned by " + partitionBy);
    }
    for (int c : element) {
      if (c < 0 || c >= op.schema.width()) {
        throw new WiringException(next("window-list") + ": element column " + c + " is not a column of " + op.schema);
      }
    }
    if (out.width() != part.length + 1) {
      throw new WiringException(next("window-list") + ": the output needs " + (part.length + 1) + " columns, not "
          + out.width());
    }
    return add(WindowListOperator.of(op, part, element.clone(), out));
  }

  /**
   * Groups rows by {@code keys} and replaces each group's rows by {@code reducer}'s output, whose
   * rows must fit {@code out}. Only groups that changed in a run are reduced again.
   */
  public Stream reduce(List<String> keys, Schema out, Reducer reducer) {
    return add(ReduceOperator.of(op, columns("reduce", keys), out, reducer));
  }

  /**
   * One row per group of equal {@code keys}: the key columns followed by each aggregate. With no
   * keys there is exactly one row, even over no input (SQL's global aggregate).
   */
  public Stream groupBy(List<String> keys, Aggregate... aggregates) {
    int[] k = columns("group by", keys);
    List<Aggregate> aggs = List.of(aggregates);
    int[] inCols = new int[aggs.size()];
    List<Column> cols = new ArrayList<>();
    for (int c : k) {
      cols.add(op.schema.column(c));
    }
    for (int i = 0; i < inCols.length; i++) {
      Aggregate a = aggs.get(i);
      ColumnType in = ColumnType.INT;
      if (a.column() == null) {
        inCols[i] = -1;
      } else {
        inCols[i] = columns("group by", List.of(a.column()))[0];
        in = op.schema.column(inCols[i]).type();
        boolean numeric = in.isNumeric() || in == ColumnType.ANY;
        if ((a.kind() == Aggregate.Kind.SUM || a.kind() == Aggregate.Kind.AVG) && !numeric) {
          throw new WiringException(next("group by") + ": " + a.kind().name().toLowerCase(java.util.Locale.ROOT)
              + "(" + a.column() + ") needs a numeric column but it is " + in);
        }
      }
      boolean countish = a.kind() == Aggregate.Kind.COUNT || a.kind() == Aggregate.Kind.COUNT_ROWS
          || a.kind() == Aggregate.Kind.COUNT_DISTINCT;
      cols.add(new Column(a.as(), a.resultType(in), !countish));
    }
    Schema out;
    try {
      out = Schema.of(cols);
    } catch (SchemaException e) {
      throw new WiringException(next("group by") + ": " + e.getMessage());
    }
    return add(AggregateOperator.of(op, k, aggs, inCols, out));
  }

  /**
   * The window {@code [offset, offset + limit)} of each partition of equal {@code partitionBy}
   * columns, in the order of {@code order} with the whole row as the final tie-break. The output
   * is positioned (see {@link ZSet}); positions are relative to the partition's window.
   *
   * @param limit the window size, or {@code Long.MAX_VALUE} for no limit
   */
  public Stream topK(List<String> partitionBy, List<SortKey> order, long offset, long limit) {
    if (offset < 0 || limit < 0) {
      throw new WiringException(next("top-k") + ": offset and limit must not be negative, got offset "
          + offset + " and limit " + limit);
    }
    int[] part = columns("top-k", partitionBy);
    List<String> sortColumns = new ArrayList<>(order.size());
    for (SortKey k : order) {
      sortColumns.add(k.column());
    }
    int[] cols = columns("top-k", sortColumns);
    boolean[] desc = new boolean[cols.length];
    boolean[] nullsFirst = new boolean[cols.length];
    ColumnType[] types = new ColumnType[cols.length];
    for (int i = 0; i < cols.length; i++) {
      desc[i] = order.get(i).descending();
      nullsFirst[i] = order.get(i).nullsFirst();
      types[i] = op.schema.column(cols[i]).type();
    }
    return add(TopKOperator.of(op, part, new RowOrder(cols, desc, nullsFirst, types), offset, limit));
  }

  /** {@link #topK} over the whole stream. */
  public Stream topK(List<SortKey> order, long offset, long limit) {
    return topK(List.of(), order, offset, limit);
  }

  /** The whole stream in order, positioned: {@link #topK} without offset or limit. */
  public Stream orderBy(SortKey... order) {
    return topK(List.of(), Arrays.asList(order), 0, Long.MAX_VALUE);
  }

  @Override
  public String toString() {
    return op.name + op.schema;
  }
}
