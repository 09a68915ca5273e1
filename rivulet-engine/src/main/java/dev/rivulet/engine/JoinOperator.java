package dev.rivulet.engine;

import dev.rivulet.engine.state.Bag;
import dev.rivulet.engine.state.KeyIndex;
import dev.rivulet.engine.state.KeyWeights;
import dev.rivulet.engine.state.LongBatch;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
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
 * <p>An update-sized step reuses per-operator scratch state ({@code keyRun}, the key buffer): the
 * operator is confined to the thread that runs its graph, and a step never re-enters itself.
 */
final class JoinOperator extends Operator {
  private static final int KEEP_KEYS = 1024; // a larger key buffer (a hydration's) is let go
  // A hydration's per-row loops run in chunks, one call each: a fresh JVM compiles a chunk after
  // about a hundred calls, where one long loop would run interpreted until on-stack replacement.
  private static final int CHUNK = 64;
  private final JoinType type;
  private final int[] leftKeys;
  private final int[] rightKeys;
  private final boolean singleKey;
  private final KeyIndex<Row> left = new KeyIndex<>(true);
  private final KeyIndex<Row> right = new KeyIndex<>(true);
  private Object[] keyBuffer = new Object[16];
  private final JoinRows rows; // the shape of the rows emitted
  private final boolean keepLeft;
  private final boolean keepRight;
  private final Predicate<Row> onRight; // a left join's filter on right parts, or null
  private final boolean unmatchedPass; // whether a row without a match passes that filter
  private final KeyWeights rightWeights; // left rows mode: per right key, total and onRight-passing weight
  /** The most right changes a left or anti join's update step groups by key without a map ({@link #stepRightFew}). */
  static final int FEW = 8;
  /** This join's {@link #FEW} (tests set 0 to take the map path always). */
  int few = FEW;
  private static final Object TAKEN = new Object(); // a key slot whose row was grouped already
  private final Delta keyRun = new Delta(2); // stepRightFew's group of one key, reused
  /** Steps whose right changes were grouped without a map ({@link #stepRightFew}), for tests. */
  long fewRuns;
  /** The least side of an inner step that takes the hydration-sized path (tests set more to take the row path always). */
  int bulkAt = KeyIndex.BULK_AT;
  /** Inner steps that took the hydration-sized path ({@link InnerJoinHydration}), for tests. */
  long innerBulkSteps;
  private final LeftRowsHydration inPlace; // left rows mode on one key column: a hydration's left rows, else null

  /** The changes of one key within a run. */
  private static final class KeyChanges {
    final Delta left = new Delta(2);
    final Delta right = new Delta(2);
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
  }

  /** A projecting twin of this plain, checked and not yet added inner join (see the projecting constructor). */
  JoinOperator keeping(int[] keepLeft, int[] keepRight) {
    if (type != JoinType.INNER || !rows.wide()) {
      throw new IllegalStateException(name + ": only a plain inner join can be made a projecting one");
    }
    return new JoinOperator(upstream[0], upstream[1], leftKeys, rightKeys, keepLeft, keepRight);
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
    if (type == JoinType.INNER) {
      stepInner(dl, dr);
      return;
    }
    if (!keepRight) {
      stepLeftPreserving(dl, dr);
      return;
    }
    Map<Object, KeyChanges> byKey = new LinkedHashMap<>();
    group(dl, leftKeys, byKey, true);
    group(dr, rightKeys, byKey, false);
    for (Map.Entry<Object, KeyChanges> e : byKey.entrySet()) {
      stepKey(e.getKey(), e.getValue());
    }
  }

  /**
   * An inner join has no null-extended part, so it needs no per-key grouping: {@code dL x R0},
   * then {@code dL} goes into the left index, then {@code L1 x dR}, then {@code dR} into the
   * right index. Each side's matches are emitted before its changes go into its index (they read
   * only the other index), so a hydration-sized batch is indexed in bulk ({@link
   * KeyIndex#addAll}); its pairs are collected by {@link InnerJoinHydration}, which reads the
   * other index without making bags, with the smaller side going first ({@link #pairSide}), and
   * handed on as one batch. (Right and full joins group a run's changes by key to see each key's
   * side turn empty or non-empty.)
   */
  private void stepInner(Delta dl, Delta dr) {
    if (!bulk(dl, dr)) { // chosen on the consolidated sizes: only the bulk path reads unit weights
      dl.materialize();
      dr.materialize();
      stepInnerRows(dl, leftKeys, right, left, true);
      stepInnerRows(dr, rightKeys, left, right, false);
      return;
    }
    innerBulkSteps++;
    InnerJoinHydration pairs = new InnerJoinHydration(rows, Math.max(dl.size, dr.size));
    // The smaller change is indexed first and the larger one probes it: short chains per probe, and
    // a fresh JVM compiles the probe loop (called per chunk of the larger side) early.
    if (dl.size >= dr.size) {
      pairSide(pairs, dr, rightKeys, left, right, false);
      pairSide(pairs, dl, leftKeys, right, left, true);
    } else {
      pairSide(pairs, dl, leftKeys, right, left, true);
      pairSide(pairs, dr, rightKeys, left, right, false);
    }
    examined += pairs.size(); // one entry of the other index read per pair
    handOn(pairs);
  }

  /**
   * One side's change {@code d} of a hydration-sized inner step: its pairs with {@code other}
   * (none while that is empty), then into {@code own} in bulk. Either side may go first: {@code
   * L0 x dR + dL x R1} and {@code dL x R0 + L1 x dR} are the same change.
   */
  private void pairSide(InnerJoinHydration pairs, Delta d, int[] keyColumns, KeyIndex<Row> other,
      KeyIndex<Row> own, boolean isLeft) {
    Object[] keys = keysOf(d, keyColumns);
    if (other.entries() > 0) { // a hydration's first batch meets nothing: no lookups
      pairs.pair(d, keys, other, isLeft);
    }
    addAllChecked(own, keys, d);
  }

  /** Whether an inner step takes the hydration-sized path ({@link InnerJoinHydration}, indexes built in bulk). */
  private boolean bulk(Delta dl, Delta dr) {
    return dl.size >= bulkAt || dr.size >= bulkAt;
  }

  /** Emits the pairs collected: a batch of unit weights as it is, without a copy where the target allows. */
  private void handOn(InnerJoinHydration pairs) {
    if (pairs.unitWeights()) {
      Delta out = new Delta(0);
      out.adopt(pairs.rows(), pairs.size());
      handOff(out);
      return;
    }
    reserveOutput(pairs.size());
    for (int i = 0; i < pairs.size(); i++) {
      emit(pairs.rows()[i], pairs.weight(i));
    }
  }

  /** One side of an update-sized inner step, row by row: its matches in {@code other}, then into {@code own}. */
  private void stepInnerRows(Delta d, int[] keys, KeyIndex<Row> other, KeyIndex<Row> own, boolean isLeft) {
    for (int i = 0; i < d.size; i++) {
      Row row = d.rows[i];
      Object key = keyOf(row, keys);
      if (key == null) {
        continue;
      }
      Bag<Row> match = other.get(key);
      if (match != null) {
        examined += match.size();
        for (int j = 0; j < match.size(); j++) {
          Row out = isLeft ? rows.pair(row, match.value(j)) : rows.pair(match.value(j), row);
          emit(out, d.weights[i] * match.weight(j));
        }
      }
      long w = own.add(key, row, d.weights[i]);
      if (w < 0) {
        throw new InvariantViolation(name + ": multiplicity of " + row + " would become " + w);
      }
    }
  }

  /**
   * A left or anti join: a key's right side turns empty or non-empty only through {@code dR}, so
   * only {@code dR} is grouped by key. First {@code dR} meets {@code L0} ({@code L0 x dR}; where the
   * right side turns non-empty or empty, {@code L0}'s unmatched rows are retracted or emitted) and
   * enters the right index; then each {@code dL} row meets {@code R1}: {@code dL x R1}, or the row
   * unmatched when {@code R1} is empty. Together that is the law's {@code L0 x dR + dL x R1} plus
   * the change of the null-extended part, without a per-key map over a hydration's left rows.
   * While the left index is empty (a hydration), {@code dR} pairs with nothing and turns no
   * unmatched row matched, so it goes into the right index without grouping.
   */
  private void stepLeftPreserving(Delta dl, Delta dr) {
    if (!dr.isEmpty() && left.entries() == 0) {
      // No left rows yet (a hydration): dR meets nothing, so it only enters the right index, in bulk.
      Object[] keys = keysOf(dr, rightKeys);
      for (int from = 0; rightWeights != null && from < dr.size; from += CHUNK) {
        weigh(keys, dr, from, Math.min(dr.size, from + CHUNK));
      }
      addAllChecked(right, keys, dr);
    } else if (!dr.isEmpty() && dr.size <= few) {
      stepRightFew(dr);
    } else if (!dr.isEmpty()) {
      Map<Object, Delta> byKey = new LinkedHashMap<>();
      for (int i = 0; i < dr.size; i++) {
        Row row = dr.rows[i];
        Object key = keyOf(row, rightKeys);
        if (key != null) { // a right row with a null key matches nothing and is not kept
          byKey.computeIfAbsent(key, k -> new Delta(2)).add(row, dr.weights[i]);
        }
      }
      for (Map.Entry<Object, Delta> e : byKey.entrySet()) {
        stepRightKey(e.getKey(), e.getValue());
      }
    }
    // The dL loop reads only the right index, so a hydration-sized dL is indexed in bulk after it.
    // Left rows mode takes its in-place path from a smaller batch: it builds no bags, and so a
    // small hydration (the engine's warm-up's) runs the code a large one will.
    if (inPlace != null && dl.size >= LeftRowsHydration.AT) {
      inPlace.emitInPlace(dl); // each left row is emitted at most once: its entry is written over dL's
      handOff(dl);
      return;
    }
    if (dl.size < KeyIndex.BULK_AT) {
      matchLeft(dl, null, null, 0, dl.size);
      return;
    }
    reserveOutput(dl.size); // a hydration's left rows emit about one row each
    if (!singleKey) {
      Object[] keys = keysOf(dl, leftKeys);
      for (int from = 0; from < dl.size; from += CHUNK) {
        matchLeft(dl, keys, null, from, Math.min(dl.size, from + CHUNK));
      }
      addAllChecked(left, keys, dl);
      return;
    }
    // One pass reads each key, matches the row and notes its integer key for the index.
    LongBatch bulk = new LongBatch(dl.size);
    for (int from = 0; from < dl.size; from += CHUNK) {
      matchLeft(dl, null, bulk, from, Math.min(dl.size, from + CHUNK));
    }
    if (bulk.others()) {
      addAllChecked(left, keysOf(dl, leftKeys), dl); // some key is not an integer
      return;
    }
    LeftRowsHydration.addAll(left, bulk, leftKeys[0], name);
  }

  /**
   * An update-sized {@code dR} (at most {@link #FEW} rows) of a left or anti join, grouped by key
   * without a map: each key's rows, in first-seen order, are gathered into {@link #keyRun} (reused;
   * the operator runs on one thread and a step does not re-enter itself) and stepped as the
   * general path steps a key's group, so the output is the same, in the same order.
   */
  private void stepRightFew(Delta dr) {
    Object[] keys = keysOf(dr, rightKeys);
    fewRuns++;
    for (int i = 0; i < dr.size; i++) {
      Object key = keys[i];
      if (key == null || key == TAKEN) {
        continue; // a right row with a null key matches nothing and is not kept; TAKEN: already stepped
      }
      Delta d = keyRun;
      d.clear();
      d.add(dr.rows[i], dr.weights[i]);
      for (int j = i + 1; j < dr.size; j++) {
        if (keys[j] != null && keys[j] != TAKEN && key.equals(keys[j])) {
          d.add(dr.rows[j], dr.weights[j]);
          keys[j] = TAKEN;
        }
      }
      stepRightKey(key, d);
    }
    releaseFew(dr.size);
  }

  /** Lets go of what {@link #stepRightFew} held: the scratch group and the first {@code n} keys. */
  private void releaseFew(int n) {
    keyRun.clear();
    Arrays.fill(keyBuffer, 0, n, null);
  }

  /**
   * One key's right changes {@code d} in a left or anti join: {@code L0 x dR}, into the right
   * index, and the key's unmatched left rows retracted or emitted where its right side turns
   * non-empty or empty.
   */
  private void stepRightKey(Object key, Delta d) {
    Bag<Row> l0 = left.get(key);
    boolean r0Empty = right.get(key) == null;
    if (type != JoinType.ANTI) {
      crossBagDelta(d, l0, false);
    }
    apply(right, key, d);
    if (rightWeights != null) {
      weigh(null, d, 0, d.size);
    }
    boolean r1Empty = right.get(key) == null;
    if (r0Empty != r1Empty) {
      emitBag(l0, r1Empty ? 1 : -1, true);
    }
  }

  /**
   * Adds the right rows {@code d[from, to)}, under {@code keys} (or, without them, the key of
   * each row), to {@link #rightWeights}: each row's weight to its key's total, and to its passing
   * weight when {@code onRight} accepts the row. A row with a null key is not weighed.
   */
  private void weigh(Object[] keys, Delta d, int from, int to) {
    for (int i = from; i < to; i++) {
      Row row = d.rows[i];
      Object key = keys != null ? keys[i] : keyOf(row, rightKeys);
      if (key != null) {
        long w = d.weights[i];
        rightWeights.add(key, w, onRight == null || onRight.test(row) ? w : 0);
      }
    }
  }

  /**
   * {@code dL x R1} for {@code dl[from, to)}, or each row unmatched where {@code R1} has no rows of
   * its key. Without {@code keys} each row's key is read here, and the row goes into the left index
   * at once (an update-sized run) or its key is noted in {@code bulk}; a null key is never looked
   * up. In left rows mode a row's
   * pairs are all the row itself, so the row is emitted once with its key's passing right weight
   * ({@link #rightWeights}): no right bag is read and no right row tested here.
   */
  private void matchLeft(Delta dl, Object[] keys, LongBatch bulk, int from, int to) {
    for (int i = from; i < to; i++) {
      Row row = dl.rows[i];
      long w = dl.weights[i];
      Object key = keys != null ? keys[i] : keyOf(row, leftKeys);
      if (rightWeights != null) {
        long pass = key == null ? KeyWeights.ABSENT : rightWeights.passing(key);
        if (pass == KeyWeights.ABSENT) {
          emitUnmatched(row, w, true);
        } else if (pass != 0) {
          emit(row, w * pass);
        }
      } else {
        matchRight(row, w, key);
      }
      if (keys == null && key != null) {
        if (bulk != null) {
          bulk.add(key, row, w);
        } else {
          addChecked(left, key, row, w, name);
        }
      }
    }
  }

  /** {@code row x R1} for a left row of weight {@code w} under {@code key}, or the row unmatched. */
  private void matchRight(Row row, long w, Object key) {
    Bag<Row> r1 = key == null ? null : right.get(key);
    if (r1 == null) {
      emitUnmatched(row, w, true);
    } else if (type != JoinType.ANTI) {
      examined += r1.size();
      for (int j = 0; j < r1.size(); j++) {
        if (onRight == null || onRight.test(r1.value(j))) {
          emit(rows.pair(row, r1.value(j)), w * r1.weight(j));
        }
      }
    }
  }

  /** The keys of {@code d}'s rows (null for a null key), in a buffer reused across runs. */
  private Object[] keysOf(Delta d, int[] keys) {
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
  private void addAllChecked(KeyIndex<Row> index, Object[] keys, Delta d) {
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
  private Object keyOf(Row row, int[] keys) {
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

  /** Groups one side's changes by key; rows with a null key bypass the index. */
  private void group(Delta d, int[] keys, Map<Object, KeyChanges> byKey, boolean isLeft) {
    for (int i = 0; i < d.size; i++) {
      Row row = d.rows[i];
      Object key = keyOf(row, keys);
      if (key == null) {
        emitUnmatched(row, d.weights[i], isLeft);
        continue;
      }
      KeyChanges kc = byKey.computeIfAbsent(key, k -> new KeyChanges());
      (isLeft ? kc.left : kc.right).add(row, d.weights[i]);
    }
  }

  private void stepKey(Object key, KeyChanges kc) {
    Bag<Row> l0 = left.get(key);
    Bag<Row> r0 = right.get(key);
    boolean l0Empty = l0 == null;
    boolean r0Empty = r0 == null;
    boolean l1Empty = (l0Empty ? 0 : l0.total()) + sum(kc.left) == 0;
    boolean r1Empty = (r0Empty ? 0 : r0.total()) + sum(kc.right) == 0;

    if (type != JoinType.ANTI) {
      // dL x R0 + L0 x dR + dL x dR  (= dL x R0 + L1 x dR)
      crossBagDelta(kc.left, r0, true);
      crossBagDelta(kc.right, l0, false);
      for (int i = 0; i < kc.left.size; i++) {
        for (int j = 0; j < kc.right.size; j++) {
          emit(rows.pair(kc.left.rows[i], kc.right.rows[j]), kc.left.weights[i] * kc.right.weights[j]);
        }
      }
    }
    if (keepLeft) {
      nullPart(l0, kc.left, r0Empty, r1Empty, true);
    }
    if (keepRight) {
      nullPart(r0, kc.right, l0Empty, l1Empty, false);
    }
    apply(left, key, kc.left);
    apply(right, key, kc.right);
  }

  /**
   * Change of one side's null-extended rows for a key: they exist exactly while the other side
   * is empty. {@code own0} is that side's bag before the run, {@code own} its change.
   */
  private void nullPart(Bag<Row> own0, Delta own, boolean other0Empty, boolean other1Empty, boolean isLeft) {
    if (other0Empty && other1Empty) {
      for (int i = 0; i < own.size; i++) {
        emitUnmatched(own.rows[i], own.weights[i], isLeft);
      }
    } else if (other0Empty) {
      emitBag(own0, -1, isLeft);
    } else if (other1Empty) {
      emitBag(own0, 1, isLeft);
      for (int i = 0; i < own.size; i++) {
        emitUnmatched(own.rows[i], own.weights[i], isLeft);
      }
    }
  }

  private void emitBag(Bag<Row> bag, long sign, boolean isLeft) {
    if (bag == null || isLeft && !unmatchedPass) {
      return;
    }
    examined += bag.size();
    for (int i = 0; i < bag.size(); i++) {
      emitUnmatched(bag.value(i), sign * bag.weight(i), isLeft);
    }
  }

  private void emitUnmatched(Row row, long weight, boolean isLeft) {
    if (isLeft && keepLeft && unmatchedPass) {
      emit(rows.leftAlone(row), weight);
    } else if (!isLeft && keepRight) {
      emit(rows.rightAlone(row), weight);
    }
  }

  /** Emits {@code d x bag} (or {@code bag x d} when {@code dIsLeft} is false). */
  private void crossBagDelta(Delta d, Bag<Row> bag, boolean dIsLeft) {
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

  private static long sum(Delta d) {
    long s = 0;
    for (int i = 0; i < d.size; i++) {
      s += d.weights[i];
    }
    return s;
  }

  /**
   * Adds one key's consolidated changes {@code d} to {@code index}, insertions first: a key whose
   * row is replaced (a retraction and an insertion, an updated bucket value) keeps its bag instead
   * of dropping it and making a new one. Each row occurs once in {@code d}, so the order changes
   * neither a row's weight nor whether it goes negative.
   */
  private void apply(KeyIndex<Row> index, Object key, Delta d) {
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
