package dev.rivulet.engine.state;

import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;

/** Batch shapes the packed-index tests share. */
final class Batches {
  private Batches() {}

  /** Reorders a batch in place: each key's entries together in batch order, keys by first. */
  static void group(Object[] keys, Object[] values, long[] deltas) {
    Map<Object, Integer> rank = new HashMap<>();
    Integer[] order = new Integer[keys.length];
    for (int i = 0; i < keys.length; i++) {
      rank.putIfAbsent(keys[i], rank.size());
      order[i] = i;
    }
    Arrays.sort(order, Comparator.comparing(i -> rank.get(keys[i]))); // stable
    Object[] ks = keys.clone();
    Object[] vs = values.clone();
    long[] ds = deltas.clone();
    for (int i = 0; i < keys.length; i++) {
      keys[i] = ks[order[i]];
      values[i] = vs[order[i]];
      deltas[i] = ds[order[i]];
    }
  }

  /** The batch noted in a {@link LongBatch}, as a join's hydration notes it: Long keys only. */
  static LongBatch longBatch(Object[] keys, Object[] values, long[] deltas) {
    LongBatch b = new LongBatch(keys.length);
    for (int i = 0; i < keys.length; i++) {
      b.add(keys[i], values[i], deltas[i]);
    }
    return b;
  }
}
