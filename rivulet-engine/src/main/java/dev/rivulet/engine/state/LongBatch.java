package dev.rivulet.engine.state;

/**
 * The entries of a hydration-sized batch under {@code long} keys, noted while the batch is read
 * for something else: for each entry its key and the index of its row in the batch, in batch
 * order, with the keys' range and whether every delta was 1 or positive, so that {@link
 * KeyIndex#addAll(LongBatch, Object[], long[])} packs or builds them without another pass over
 * the batch. {@link #others} records that a non-null key of another kind was met (the batch then
 * goes in through {@link KeyIndex#addAll(Object[], Object[], long[], int)} instead).
 *
 * <p>Not thread-safe: made and filled by one operator's run.
 */
public final class LongBatch {
  final long[] keys;
  final int[] at;
  int size;
  long min = Long.MAX_VALUE;
  long max = Long.MIN_VALUE;
  boolean ones = true;
  boolean positive = true;
  private boolean others;

  /** @param capacity the batch's size (at most that many entries are noted) */
  public LongBatch(int capacity) {
    keys = new long[capacity];
    at = new int[capacity];
  }

  /** Notes batch row {@code i}, of delta {@code delta}, under {@code key}; a null key is skipped. */
  public void add(Object key, int i, long delta) {
    if (key instanceof Long l) {
      long k = l;
      keys[size] = k;
      at[size++] = i;
      min = Math.min(min, k);
      max = Math.max(max, k);
      if (delta != 1) {
        ones = false;
        positive &= delta > 0;
      }
    } else if (key != null) {
      others = true;
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
}
