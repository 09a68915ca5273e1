package dev.rivulet.engine.state;

import java.util.Arrays;

/**
 * The entries of a hydration-sized batch under {@code long} keys, noted while the batch is read
 * for something else: each entry's key, value and delta, in batch order, with the keys' range and
 * whether every delta was 1 or positive, so that {@link KeyIndex#addAll(LongBatch)} packs or
 * builds them without another pass over the batch (and the batch's own arrays may be reused
 * meanwhile). {@link #others} records that a non-null key of another kind was met (such entries
 * are not noted).
 *
 * <p>Not thread-safe: made and filled by one operator's run.
 */
public final class LongBatch {
  final long[] keys;
  final Object[] values;
  long[] deltas; // null while every delta is 1
  int size;
  long min = Long.MAX_VALUE;
  long max = Long.MIN_VALUE;
  boolean positive = true;
  private boolean others;

  /** @param capacity the batch's size (at most that many entries are noted) */
  public LongBatch(int capacity) {
    keys = new long[capacity];
    values = new Object[capacity];
  }

  /** Notes {@code value} with {@code delta} under {@code key}; a null key is skipped. */
  public void add(Object key, Object value, long delta) {
    if (key instanceof Long l) {
      long k = l;
      keys[size] = k;
      values[size] = value;
      if (delta != 1 && deltas == null) {
        deltas = new long[keys.length];
        Arrays.fill(deltas, 0, size, 1);
      }
      if (deltas != null) {
        deltas[size] = delta;
        positive &= delta > 0;
      }
      size++;
      min = Math.min(min, k);
      max = Math.max(max, k);
    } else if (key != null) {
      others = true;
    }
  }

  /**
   * Notes {@code value} with delta 1 under {@code key}: {@link #add(Object, Object, long)} of an
   * integer key already unboxed, for a pass whose entries weigh one.
   */
  public void add(long key, Object value) {
    int j = size++;
    keys[j] = key;
    values[j] = value;
    if (deltas != null) {
      deltas[j] = 1;
    }
    if (key < min) {
      min = key;
    }
    if (key > max) {
      max = key;
    }
  }

  /** Whether a non-null key that is not a {@code Long} was met (the noted entries are then incomplete). */
  public boolean others() {
    return others;
  }

  /** Entries noted. */
  public int size() {
    return size;
  }

  /** The value of entry {@code j}. */
  public Object value(int j) {
    return values[j];
  }

  /** The delta of entry {@code j}. */
  long delta(int j) {
    return deltas == null ? 1 : deltas[j];
  }
}
