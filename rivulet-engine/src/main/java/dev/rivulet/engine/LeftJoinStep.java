package dev.rivulet.engine;

import dev.rivulet.engine.state.Bag;
import dev.rivulet.engine.state.KeyIndex;
import dev.rivulet.engine.state.KeyWeights;
import dev.rivulet.engine.state.LongBatch;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The step of a left or anti {@link JoinOperator} (the join's law, with the left side preserved):
 * only the right changes are grouped by key, as only they turn a key's right side empty or not.
 *
 * <p>An update-sized step reuses scratch state ({@link #keyRun}, the join's key buffer): it is
 * confined, with its join, to the thread that runs the graph, and a step never re-enters itself.
 */
final class LeftJoinStep {
  private static final Object TAKEN = new Object(); // a key slot whose row was grouped already
  private final JoinOperator join;
  private final Delta keyRun = new Delta(2); // stepRightFew's group of one key, reused

  LeftJoinStep(JoinOperator join) {
    this.join = join;
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
  void step(Delta dl, Delta dr) {
    if (!dr.isEmpty() && join.left.entries() == 0) {
      // No left rows yet (a hydration): dR meets nothing, so it only enters the right index, in bulk.
      Object[] keys = join.keysOf(dr, join.rightKeys);
      for (int from = 0; join.rightWeights != null && from < dr.size; from += join.CHUNK) {
        weigh(keys, dr, from, Math.min(dr.size, from + join.CHUNK));
      }
      join.addAllChecked(join.right, keys, dr);
    } else if (!dr.isEmpty() && dr.size <= join.few) {
      stepRightFew(dr);
    } else if (!dr.isEmpty()) {
      Map<Object, Delta> byKey = new LinkedHashMap<>();
      for (int i = 0; i < dr.size; i++) {
        Row row = dr.rows[i];
        Object key = join.keyOf(row, join.rightKeys);
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
    if (join.inPlace != null && dl.size >= LeftRowsHydration.AT) {
      join.inPlace.emitInPlace(dl); // each left row is emitted at most once: its entry is written over dL's
      join.handOff(dl);
      return;
    }
    if (dl.size < KeyIndex.BULK_AT) {
      matchLeft(dl, null, null, 0, dl.size);
      return;
    }
    join.reserveOutput(dl.size); // a hydration's left rows emit about one row each
    if (!join.singleKey) {
      Object[] keys = join.keysOf(dl, join.leftKeys);
      for (int from = 0; from < dl.size; from += join.CHUNK) {
        matchLeft(dl, keys, null, from, Math.min(dl.size, from + join.CHUNK));
      }
      join.addAllChecked(join.left, keys, dl);
      return;
    }
    // One pass reads each key, matches the row and notes its integer key for the index.
    LongBatch bulk = new LongBatch(dl.size);
    for (int from = 0; from < dl.size; from += join.CHUNK) {
      matchLeft(dl, null, bulk, from, Math.min(dl.size, from + join.CHUNK));
    }
    if (bulk.others()) {
      join.addAllChecked(join.left, join.keysOf(dl, join.leftKeys), dl); // some key is not an integer
      return;
    }
    LeftRowsHydration.addAll(join.left, bulk, join.leftKeys[0], join.name);
  }

  /**
   * An update-sized {@code dR} (at most {@link JoinOperator#FEW} rows) of a left or anti join, grouped by key
   * without a map: each key's rows, in first-seen order, are gathered into {@link #keyRun} (reused;
   * the operator runs on one thread and a step does not re-enter itself) and stepped as the
   * general path steps a key's group, so the output is the same, in the same order.
   */
  private void stepRightFew(Delta dr) {
    Object[] keys = join.keysOf(dr, join.rightKeys);
    join.fewRuns++;
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
    Arrays.fill(join.keyBuffer, 0, n, null);
  }

  /**
   * One key's right changes {@code d} in a left or anti join: {@code L0 x dR}, into the right
   * index, and the key's unmatched left rows retracted or emitted where its right side turns
   * non-empty or empty.
   */
  private void stepRightKey(Object key, Delta d) {
    Bag<Row> l0 = join.left.get(key);
    boolean r0Empty = join.right.get(key) == null;
    if (join.type != JoinType.ANTI) {
      join.crossBagDelta(d, l0, false);
    }
    join.apply(join.right, key, d);
    if (join.rightWeights != null) {
      weigh(null, d, 0, d.size);
    }
    boolean r1Empty = join.right.get(key) == null;
    if (r0Empty != r1Empty) {
      join.emitBag(l0, r1Empty ? 1 : -1, true);
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
      Object key = keys != null ? keys[i] : join.keyOf(row, join.rightKeys);
      if (key != null) {
        long w = d.weights[i];
        join.rightWeights.add(key, w, join.onRight == null || join.onRight.test(row) ? w : 0);
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
      Object key = keys != null ? keys[i] : join.keyOf(row, join.leftKeys);
      if (join.rightWeights != null) {
        long pass = key == null ? KeyWeights.ABSENT : join.rightWeights.passing(key);
        if (pass == KeyWeights.ABSENT) {
          join.emitUnmatched(row, w, true);
        } else if (pass != 0) {
          join.emit(row, w * pass);
        }
      } else {
        matchRight(row, w, key);
      }
      if (keys == null && key != null) {
        if (bulk != null) {
          bulk.add(key, row, w);
        } else {
          JoinOperator.addChecked(join.left, key, row, w, join.name);
        }
      }
    }
  }

  /** {@code row x R1} for a left row of weight {@code w} under {@code key}, or the row unmatched. */
  private void matchRight(Row row, long w, Object key) {
    Bag<Row> r1 = key == null ? null : join.right.get(key);
    if (r1 == null) {
      join.emitUnmatched(row, w, true);
    } else if (join.type != JoinType.ANTI) {
      join.examined += r1.size();
      for (int j = 0; j < r1.size(); j++) {
        if (join.onRight == null || join.onRight.test(r1.value(j))) {
          join.emit(join.rows.pair(row, r1.value(j)), w * r1.weight(j));
        }
      }
    }
  }
}
