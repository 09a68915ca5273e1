package dev.rivulet.engine;

import dev.rivulet.engine.state.Bag;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The step of a right or full {@link JoinOperator} (either side preserved): both sides' changes
 * are grouped by key, so that each key's side turning empty or non-empty within the run retracts
 * or emits the other side's null-extended rows (the join's law, per key).
 *
 * <p>Confined, with its join, to the thread that runs the graph.
 */
final class KeyedJoinStep {
  private final JoinOperator join;

  /** The changes of one key within a run. */
  private static final class KeyChanges {
    final Delta left = new Delta(2);
    final Delta right = new Delta(2);
  }

  KeyedJoinStep(JoinOperator join) {
    this.join = join;
  }

  void step(Delta dl, Delta dr) {
    Map<Object, KeyChanges> byKey = new LinkedHashMap<>();
    group(dl, join.leftKeys, byKey, true);
    group(dr, join.rightKeys, byKey, false);
    for (Map.Entry<Object, KeyChanges> e : byKey.entrySet()) {
      stepKey(e.getKey(), e.getValue());
    }
  }

  /** Groups one side's changes by key; rows with a null key bypass the index. */
  private void group(Delta d, int[] keys, Map<Object, KeyChanges> byKey, boolean isLeft) {
    for (int i = 0; i < d.size; i++) {
      Row row = d.rows[i];
      Object key = join.keyOf(row, keys);
      if (key == null) {
        join.emitUnmatched(row, d.weights[i], isLeft);
        continue;
      }
      KeyChanges kc = byKey.computeIfAbsent(key, k -> new KeyChanges());
      (isLeft ? kc.left : kc.right).add(row, d.weights[i]);
    }
  }

  private void stepKey(Object key, KeyChanges kc) {
    Bag<Row> l0 = join.left.get(key);
    Bag<Row> r0 = join.right.get(key);
    boolean l0Empty = l0 == null;
    boolean r0Empty = r0 == null;
    boolean l1Empty = (l0Empty ? 0 : l0.total()) + sum(kc.left) == 0;
    boolean r1Empty = (r0Empty ? 0 : r0.total()) + sum(kc.right) == 0;

    if (join.type != JoinType.ANTI) {
      // dL x R0 + L0 x dR + dL x dR  (= dL x R0 + L1 x dR)
      join.crossBagDelta(kc.left, r0, true);
      join.crossBagDelta(kc.right, l0, false);
      for (int i = 0; i < kc.left.size; i++) {
        for (int j = 0; j < kc.right.size; j++) {
          join.emit(join.rows.pair(kc.left.rows[i], kc.right.rows[j]), kc.left.weights[i] * kc.right.weights[j]);
        }
      }
    }
    if (join.keepLeft) {
      nullPart(l0, kc.left, r0Empty, r1Empty, true);
    }
    if (join.keepRight) {
      nullPart(r0, kc.right, l0Empty, l1Empty, false);
    }
    join.apply(join.left, key, kc.left);
    join.apply(join.right, key, kc.right);
  }

  /**
   * Change of one side's null-extended rows for a key: they exist exactly while the other side
   * is empty. {@code own0} is that side's bag before the run, {@code own} its change.
   */
  private void nullPart(Bag<Row> own0, Delta own, boolean other0Empty, boolean other1Empty, boolean isLeft) {
    if (other0Empty && other1Empty) {
      for (int i = 0; i < own.size; i++) {
        join.emitUnmatched(own.rows[i], own.weights[i], isLeft);
      }
    } else if (other0Empty) {
      join.emitBag(own0, -1, isLeft);
    } else if (other1Empty) {
      join.emitBag(own0, 1, isLeft);
      for (int i = 0; i < own.size; i++) {
        join.emitUnmatched(own.rows[i], own.weights[i], isLeft);
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
}
