package dev.rivulet.engine;

import dev.rivulet.engine.state.Bag;
import dev.rivulet.engine.state.KeyIndex;
import dev.rivulet.engine.state.KeyWeights;
import java.util.Arrays;
import java.util.function.Predicate;

/**
 * Keyed equi-join of two streams, inner, outer or anti, with SQL null semantics (a key with a null
 * column matches nothing).
 *
 * <p>Law: for every key k, the output is {@code L_k x R_k} (inner part) plus, on a preserved
 * side, that side's rows null-extended while the other side has no rows for k. Incrementally,
 * with {@code L1 = L0 + dL}: {@code d(L x R) = dL x R0 + L1 x dR}, and a null-extended part is
 * retracted or re-emitted exactly when the other side of its key turns non-empty or empty within
 * the run. Retains both sides indexed by key; rows with a null key are not retained because they
 * can never match.
 *
 * <p>The key of a row is its one key value itself on a single-column join (no key row is
 * allocated, and integer keys go to a primitive table, see {@link KeyIndex}), else the projected
 * row of its key values.
 *
 * <p>Both indexes are lazy ({@link KeyIndex#KeyIndex(boolean)}): a hydration-sized batch is packed
 * by key into primitive arrays and a key's bag is made when the key is first looked up or loses a value,
 * so of a side only the other side's few keys look into (an include's child semi-joined with its
 * active buckets) only those keys get bags. The packed entries moved into bags count as examined.
 *
 * <p>A left join may carry a filter on right parts ({@link Stream#leftJoinWhere}): a right row it
 * rejects is kept in the index (it still makes its key matched) but never paired, and the
 * null-extended rows are emitted only when the filter accepts all-null right columns.
 *
 * <p>A left join may emit only its left parts ({@link Stream#leftJoinLeftRows}): each output row
 * is then the left input's own {@code Row} object, so nothing is allocated per pair and what
 * retains the output (a top-K) holds the input's rows by reference. A setting left join ({@link
 * Stream#leftJoinSetting}) emits each pair as the left row with one column set to the right row's
 * value: one copy of the left row, no wide pair.
 *
 * <p>Its step is one of three algorithms by join type, each in its own class: {@link InnerJoinStep}
 * (no null-extended part, no grouping), {@link LeftJoinStep} (left or anti: only the right
 * changes grouped by key) and {@link KeyedJoinStep} (right or full: both sides grouped by key);
 * the indexes, the key buffer and the helpers they share stay here.
 *
 * <p>An update-sized step reuses per-operator scratch state (the key buffer, the left step's key
 * group): the operator is confined to the thread that runs its graph, and a step never re-enters
 * itself.
 */
final class JoinOperator extends Operator {
  private static final int KEEP_KEYS = 1024; // a larger key buffer (a hydration's) is let go
  // A hydration's per-row loops run in chunks, one call each: a fresh JVM compiles a chunk after
  // about a hundred calls, where one long loop would run interpreted until on-stack replacement.
  static final int CHUNK = 64;
  final JoinType type;
  final int[] leftKeys;
  final int[] rightKeys;
  final boolean singleKey;
  final KeyIndex<Row> left = new KeyIndex<>(true);
  final KeyIndex<Row> right = new KeyIndex<>(true);
  Object[] keyBuffer = new Object[16];
  final JoinRows rows; // the shape of the rows emitted
  final boolean keepLeft;
  final boolean keepRight;
  final Predicate<Row> onRight; // a left join's filter on right parts, or null
  final boolean unmatchedPass; // whether a row without a match passes that filter
  final KeyWeights rightWeights; // left rows mode: per right key, total and onRight-passing weight
  /** The most right changes a left or anti join's update step groups by key without a map ({@link #stepRightFew}). */
  static final int FEW = 8;
  /** This join's {@link #FEW} (tests set 0 to take the map path always). */
  int few = FEW;
  /** Steps whose right changes were grouped without a map ({@link #stepRightFew}), for tests. */
  long fewRuns;
  /** The least side of an inner step that takes the hydration-sized path (tests set more to take the row path always). */
  int bulkAt = KeyIndex.BULK_AT;
  /** Inner steps that took the hydration-sized path ({@link InnerJoinHydration}), for tests. */
  long innerBulkSteps;
  final LeftRowsHydration inPlace; // left rows mode on one key column: a hydration's left rows, else null
  // The step of this join's type (exactly one is set): inner, left or anti, right or full.
  private final InnerJoinStep inner;
  private final LeftJoinStep leftPreserving;
  private final KeyedJoinStep keyed;

  /** A new join as an {@link Operator} (see {@link Stream}: no operator class is loaded until a graph uses it); the constructors' arguments. */
  static Operator of(Operator l, Operator r, JoinType type, int[] leftKeys, int[] rightKeys, Predicate<Row> onRight,
      boolean leftRows) {
    return new JoinOperator(l, r, type, leftKeys, rightKeys, onRight, leftRows);
  }

  static Operator setting(Operator l, Operator r, int[] leftKeys, int[] rightKeys, int setColumn, int valueColumn,
      Object unmatched) {
    return new JoinOperator(l, r, leftKeys, rightKeys, setColumn, valueColumn, unmatched);
  }

  static Operator keeping(Operator l, Operator r, int[] leftKeys, int[] rightKeys, int[] keepLeft, int[] keepRight) {
    return new JoinOperator(l, r, leftKeys, rightKeys, keepLeft, keepRight);
  }

  JoinOperator(Operator l, Operator r, JoinType type, int[] leftKeys, int[] rightKeys) {
    this(l, r, type, leftKeys, rightKeys, null);
  }

  /** @param onRight for a left join, the filter on right parts (see {@link Stream#leftJoinWhere}), or null */
  JoinOperator(Operator l, Operator r, JoinType type, int[] leftKeys, int[] rightKeys, Predicate<Row> onRight) {
    this(l, r, type, leftKeys, rightKeys, onRight, false);
  }

  /**
   * @param leftRows for a left join, emit each output row's left part only, as the left input's
   *     own row (see {@link Stream#leftJoinLeftRows})
   */
  JoinOperator(Operator l, Operator r, JoinType type, int[] leftKeys, int[] rightKeys, Predicate<Row> onRight,
      boolean leftRows) {
    this(l, r, leftRows ? JoinRows.leftRows(l.schema, r.schema) : JoinRows.wide(type, l.schema, r.schema), type,
        leftKeys, rightKeys, onRight);
  }

  /**
   * A setting left join ({@link Stream#leftJoinSetting}): each output row is the left row with
   * column {@code setColumn} set to the right row's {@code valueColumn} (a canonical value), or
   * to {@code unmatched} (canonical) for a left row without a right row or a right row whose value
   * is null.
   */
  JoinOperator(Operator l, Operator r, int[] leftKeys, int[] rightKeys, int setColumn, int valueColumn,
      Object unmatched) {
    this(l, r, JoinRows.setting(l.schema, r.schema, setColumn, valueColumn, unmatched), JoinType.LEFT, leftKeys,
        rightKeys, null);
  }

  /**
   * A projecting inner join: each pair is emitted as the {@code keepLeft} columns of its left row
   * followed by the {@code keepRight} columns of its right row (the same rows as the join, then
   * that projection, without the wide pair being built). Only the emitted pairs differ from a
   * plain inner join's; the indexes retain the input rows as they come.
   */
  JoinOperator(Operator l, Operator r, int[] leftKeys, int[] rightKeys, int[] keepLeft, int[] keepRight) {
    this(l, r, JoinRows.keeping(l.schema, r.schema, keepLeft, keepRight), JoinType.INNER, leftKeys, rightKeys, null);
  }

  private JoinOperator(Operator l, Operator r, JoinRows rows, JoinType type, int[] leftKeys, int[] rightKeys,
      Predicate<Row> onRight) {
    super(rows.name(), rows.schema(), l, r);
    if (rows.type() != type) {
      throw new IllegalArgumentException(name + ": emitting left rows only needs a left join, not " + type);
    }
    if (onRight != null && type != JoinType.LEFT) {
      throw new IllegalArgumentException(name + ": a right-side filter needs a left join, not " + type);
    }
    this.rows = rows;
    this.type = type;
    this.leftKeys = leftKeys;
    this.rightKeys = rightKeys;
    this.singleKey = leftKeys.length == 1;
    this.keepLeft = type == JoinType.LEFT || type == JoinType.FULL || type == JoinType.ANTI;
    this.keepRight = type == JoinType.RIGHT || type == JoinType.FULL;
    this.rightWeights = rows.leftRows() ? new KeyWeights() : null;
    this.onRight = onRight;
    this.unmatchedPass = onRight == null || onRight.test(rows.rightNulls());
    this.inPlace = rows.leftRows() && singleKey
        ? new LeftRowsHydration(name, leftKeys[0], rightWeights, unmatchedPass, left) : null;
    this.inner = type == JoinType.INNER ? new InnerJoinStep(this) : null;
    this.leftPreserving = type != JoinType.INNER && !keepRight ? new LeftJoinStep(this) : null;
    this.keyed = keepRight ? new KeyedJoinStep(this) : null;
  }

  @Override
  boolean readsUnitWeights() {
    return inPlace != null || type == JoinType.INNER; // see step and stepInner
  }

  @Override
  void step() {
    // Unit weights read as they are: the left rows' hydration's, and an inner join's bulk step's
    // (the inner join materializes for its row path itself, once consolidation fixed the sizes).
    if (inPlace != null) {
      if (inputs[0].size < LeftRowsHydration.AT) {
        inputs[0].materialize();
      }
      inputs[1].materialize();
    }
    long late = lateWork();
    stepSides();
    examined += lateWork() - late;
  }

  /** Packed entries the indexes moved into bags or compared with a retracted row so far. */
  private long lateWork() {
    return left.opened() + right.opened() + left.compared() + right.compared();
  }

  private void stepSides() {
    Delta dl = inputs[0].consolidateIfRetracting();
    Delta dr = inputs[1].consolidateIfRetracting();
    examined += dl.size + dr.size;
    if (inner != null) {
      inner.step(dl, dr);
    } else if (leftPreserving != null) {
      leftPreserving.step(dl, dr);
    } else {
      keyed.step(dl, dr);
    }
  }

  /** The keys of {@code d}'s rows (null for a null key), in a buffer reused across runs. */
  Object[] keysOf(Delta d, int[] keys) {
    if (keyBuffer.length < d.size) {
      keyBuffer = new Object[Math.max(d.size, keyBuffer.length * 2)];
    }
    for (int from = 0; from < d.size; from += CHUNK) {
      keysOf(d, keys, from, Math.min(d.size, from + CHUNK));
    }
    return keyBuffer;
  }

  private void keysOf(Delta d, int[] keys, int from, int to) {
    for (int i = from; i < to; i++) {
      keyBuffer[i] = keyOf(d.rows[i], keys);
    }
  }

  /** Adds {@code d} under {@code keys} to {@code index}, then lets a hydration-sized buffer go. */
  void addAllChecked(KeyIndex<Row> index, Object[] keys, Delta d) {
    int bad = index.addAll(keys, d.rows, d.unitWeights() ? null : d.weights, d.size);
    if (bad >= 0) {
      Row row = d.rows[bad]; // a retracting delta is consolidated: the row's only change this run
      throw new InvariantViolation(name + ": multiplicity of " + row + " would become "
          + index.get(keys[bad]).weightOf(row));
    }
    if (keyBuffer.length > KEEP_KEYS) {
      keyBuffer = new Object[KEEP_KEYS];
    } else {
      Arrays.fill(keyBuffer, 0, d.size, null);
    }
  }

  /** The key of {@code row} (see the class comment), or null when a key column is null. */
  Object keyOf(Row row, int[] keys) {
    if (singleKey) {
      return row.canonicalAt(keys[0]);
    }
    return row.anyNull(keys) ? null : row.project(keys);
  }

  /** Hydrations whose left rows were emitted in place ({@link LeftRowsHydration}), for tests. */
  long inPlaceHydrations() {
    return inPlace == null ? 0 : inPlace.runs;
  }

  /** The left rows' hydration path (left rows mode on one key column), or null, for tests. */
  LeftRowsHydration leftRowsHydration() {
    return inPlace;
  }

  /** Which index the keys use: {@code "value"} (one column) or {@code "row"} (several), for tests. */
  String keyKind() {
    return singleKey ? "value" : "row";
  }

  /** The left and right retained indexes, for tests. */
  KeyIndex<Row> index(boolean isLeft) {
    return isLeft ? left : right;
  }

  /**
   * Adds {@code row} with {@code weight} under {@code key} to {@code index}; a weight turned
   * negative is an {@link InvariantViolation} naming the join {@code name}.
   */
  static void addChecked(KeyIndex<Row> index, Object key, Row row, long weight, String name) {
    long w = index.add(key, row, weight);
    if (w < 0) {
      throw new InvariantViolation(name + ": multiplicity of " + row + " would become " + w);
    }
  }

  void emitBag(Bag<Row> bag, long sign, boolean isLeft) {
    if (bag == null || isLeft && !unmatchedPass) {
      return;
    }
    examined += bag.size();
    for (int i = 0; i < bag.size(); i++) {
      emitUnmatched(bag.value(i), sign * bag.weight(i), isLeft);
    }
  }

  void emitUnmatched(Row row, long weight, boolean isLeft) {
    if (isLeft && keepLeft && unmatchedPass) {
      emit(rows.leftAlone(row), weight);
    } else if (!isLeft && keepRight) {
      emit(rows.rightAlone(row), weight);
    }
  }

  /** Emits {@code d x bag} (or {@code bag x d} when {@code dIsLeft} is false). */
  void crossBagDelta(Delta d, Bag<Row> bag, boolean dIsLeft) {
    if (bag == null || d.isEmpty()) {
      return;
    }
    examined += (long) bag.size() * d.size;
    for (int i = 0; i < d.size; i++) {
      if (!dIsLeft && onRight != null && !onRight.test(d.rows[i])) {
        continue;
      }
      for (int j = 0; j < bag.size(); j++) {
        Row out = dIsLeft ? rows.pair(d.rows[i], bag.value(j)) : rows.pair(bag.value(j), d.rows[i]);
        emit(out, d.weights[i] * bag.weight(j));
      }
    }
  }

  /**
   * Adds one key's consolidated changes {@code d} to {@code index}, insertions first: a key whose
   * row is replaced (a retraction and an insertion, an updated bucket value) keeps its bag instead
   * of dropping it and making a new one. Each row occurs once in {@code d}, so the order changes
   * neither a row's weight nor whether it goes negative.
   */
  void apply(KeyIndex<Row> index, Object key, Delta d) {
    for (int i = 0; i < d.size; i++) {
      if (d.weights[i] > 0) {
        addChecked(index, key, d.rows[i], d.weights[i], name);
      }
    }
    for (int i = 0; i < d.size; i++) {
      if (d.weights[i] < 0) {
        addChecked(index, key, d.rows[i], d.weights[i], name);
      }
    }
  }

  @Override
  long retained() {
    return left.entries() + right.entries();
  }
}
