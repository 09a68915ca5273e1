package dev.rivulet.engine;

import dev.rivulet.engine.state.Bag;
import dev.rivulet.engine.state.KeyIndex;
import java.util.Arrays;

/**
 * The pairing of an inner join's hydration-sized step: each row of one side's change meets the
 * other side's index, and its pairs are collected into one output batch.
 *
 * <p>Law: for a change {@code d} of one side with keys {@code keys} (null: a null key, which
 * matches nothing) and the other side's index {@code I}, the pairs are {@code d x I}: for every row
 * {@code r} of weight {@code w} under key {@code k} and every value {@code v} of weight {@code u} in
 * {@code I}'s entries under {@code k}, the pair of {@code r} and {@code v} (left row first) with
 * weight {@code w * u}, in the order of {@code d}'s rows, then of {@code k}'s entries.
 *
 * <p>The index is read without making bags ({@link KeyIndex#bagOf}, {@link KeyIndex#packedFirst}):
 * a side packed by its own hydration (integer keys) stays packed however many of its keys the
 * other side meets, so pairing makes no bag and hashes no value. The pairs go into arrays owned by
 * this object; while every change and entry read weighs one (a hydration's, packed) no weights are
 * allocated, and the join hands the rows on whole ({@link Delta#adopt}).
 *
 * <p>Not thread-safe: made per step by its join (the graph's run loop).
 */
final class InnerJoinHydration {
  // Per-row loops run in chunks, one call each: a fresh JVM compiles a chunk after about a hundred
  // calls, where one long loop would run interpreted until on-stack replacement.
  private static final int CHUNK = 64;
  private final JoinRows shape;
  private Row[] rows;
  private long[] weights; // null while every pair weighs one
  private int size; // also the other side's entries read: one pair each

  /** @param capacity the pairs expected (the arrays grow past it) */
  InnerJoinHydration(JoinRows shape, int capacity) {
    this.shape = shape;
    this.rows = new Row[Math.max(16, capacity)];
  }

  /**
   * Adds the pairs of {@code d}'s rows under {@code keys} with {@code other}'s entries (see the
   * class comment); {@code dIsLeft} tells which side {@code d} is.
   */
  void pair(Delta d, Object[] keys, KeyIndex<Row> other, boolean dIsLeft) {
    long[] w = d.unitWeights() ? null : d.weights;
    for (int from = 0; from < d.size; from += CHUNK) {
      pair(d.rows, w, keys, from, Math.min(d.size, from + CHUNK), other, dIsLeft);
    }
  }

  /** {@link #pair} of the rows {@code [from, to)}, with weights {@code w} (null: all 1). */
  private void pair(Row[] in, long[] w, Object[] keys, int from, int to, KeyIndex<Row> other, boolean dIsLeft) {
    for (int i = from; i < to; i++) {
      Object key = keys[i];
      if (key == null) {
        continue;
      }
      long wi = w == null ? 1 : w[i];
      int e = other.packedFirst(key);
      if (e >= 0) {
        for (; e >= 0; e = other.packedNext(e)) {
          add(in[i], other.packedValue(e), wi * other.packedWeight(e), dIsLeft);
        }
      } else {
        matchBag(in[i], wi, other.bagOf(key), dIsLeft);
      }
    }
  }

  private void matchBag(Row row, long w, Bag<Row> bag, boolean dIsLeft) {
    if (bag == null) {
      return;
    }
    for (int j = 0; j < bag.size(); j++) {
      add(row, bag.value(j), w * bag.weight(j), dIsLeft);
    }
  }

  private void add(Row row, Row match, long w, boolean dIsLeft) {
    if (size == rows.length) {
      int capacity = size + (size >> 1) + 16;
      rows = Arrays.copyOf(rows, capacity);
      if (weights != null) {
        weights = Arrays.copyOf(weights, capacity);
      }
    }
    if (w != 1 && weights == null) {
      weights = new long[rows.length];
      Arrays.fill(weights, 0, size, 1);
    }
    rows[size] = dIsLeft ? shape.pair(row, match) : shape.pair(match, row);
    if (weights != null) {
      weights[size] = w;
    }
    size++;
  }

  /** The pairs collected, which is also the number of the other side's entries read. */
  int size() {
    return size;
  }

  /** Whether every pair weighs one. */
  boolean unitWeights() {
    return weights == null;
  }

  /** The pairs' rows, {@code [0, size())} (the array stays this batch's unless handed on). */
  Row[] rows() {
    return rows;
  }

  /** The weight of pair {@code i}. */
  long weight(int i) {
    return weights == null ? 1 : weights[i];
  }
}
