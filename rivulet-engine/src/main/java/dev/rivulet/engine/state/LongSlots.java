package dev.rivulet.engine.state;

/**
 * The slot table of the engine's primitive {@code long}-keyed indexes ({@link LongKeyedBags},
 * {@link PackedBags}, {@link KeyWeights}, the semi-join's left index): keys only, probed linearly
 * from a Fibonacci hash of all 64 bits (keys that collide in their low bits still spread); each
 * index keeps its payload in arrays of {@link #slots} elements beside it. 0 marks a free slot and
 * key 0 has its own slot after the probed ones, so every {@code long} is a valid key. Removal
 * shifts back the rest of the probe run (no tombstones) one move a {@link #vacate} call, for the
 * index to move its payload along. The table never grows by itself: an index that claims a slot
 * checks {@link #crowded} and then moves its keys and payload into a larger table. Public only for
 * the semi-join's index; the package is not exported.
 *
 * <p>Not thread-safe: owned by the index that holds it.
 */
public final class LongSlots {
  private static final long GOLDEN = 0x9E3779B97F4A7C15L;
  private final long[] keys; // the last slot holds key 0 while zero is set
  private final int mask;
  private final int shift; // home = (key * golden) >>> shift
  private boolean zero;
  private int size;

  /** An empty table of {@code capacity} probed slots, a power of two of at least 2. */
  public LongSlots(int capacity) {
    if (capacity < 2 || (capacity & (capacity - 1)) != 0) {
      throw new IllegalArgumentException("a slot table's capacity must be a power of two of at least 2, got " + capacity);
    }
    keys = new long[capacity + 1];
    mask = capacity - 1;
    shift = 64 - Integer.numberOfTrailingZeros(capacity);
  }

  /** The top {@code bits} (1 to 32) bits of {@code key}'s hash: its home in a table of 2^bits slots. */
  public static int hash(long key, int bits) {
    return (int) ((key * GOLDEN) >>> (64 - bits));
  }

  /** The slot of {@code key}, or -1 when it holds none. */
  public int find(long key) {
    if (key == 0) {
      return zero ? mask + 1 : -1;
    }
    for (int s = home(key); ; s = (s + 1) & mask) {
      long k = keys[s];
      if (k == key) {
        return s;
      }
      if (k == 0) {
        return -1;
      }
    }
  }

  /**
   * The slot of {@code key}; when it has none, a free slot taken for it, returned as {@code ~slot}
   * (negative). The caller keeps the table from filling up ({@link #crowded}).
   */
  public int claim(long key) {
    if (key == 0) {
      if (zero) {
        return mask + 1;
      }
      zero = true;
      size++;
      return ~(mask + 1);
    }
    int s = home(key);
    for (long k; (k = keys[s]) != 0; s = (s + 1) & mask) {
      if (k == key) {
        return s;
      }
    }
    keys[s] = key;
    size++;
    return ~s;
  }

  /**
   * Removes the key of slot {@code gap}, one move at a time: returns the slot whose key now fills
   * {@code gap} (the caller moves that slot's payload to {@code gap} and calls again with it), or
   * -1 once {@code gap} is free.
   */
  public int vacate(int gap) {
    if (gap > mask) {
      zero = false;
    } else {
      for (int s = (gap + 1) & mask; keys[s] != 0; s = (s + 1) & mask) {
        // the key at s may fill the gap unless its home lies cyclically within (gap, s]
        if (((s - home(keys[s])) & mask) >= ((s - gap) & mask)) {
          keys[gap] = keys[s];
          return s;
        }
      }
      keys[gap] = 0;
    }
    size--;
    return -1;
  }

  /** Whether slot {@code s} (below {@link #slots}) holds a key. */
  public boolean used(int s) {
    return s > mask ? zero : keys[s] != 0;
  }

  /** The key of slot {@code s}, which must be {@link #used}. */
  public long key(int s) {
    return keys[s];
  }

  /** Number of keys held. */
  public int size() {
    return size;
  }

  /** Number of probed slots (a power of two). */
  public int capacity() {
    return mask + 1;
  }

  /** Length of the payload arrays: {@link #capacity} plus key 0's slot. */
  public int slots() {
    return mask + 2;
  }

  /** Whether more than half the probed slots are taken: time to move to a larger table. */
  public boolean crowded() {
    return size > (mask + 1) >>> 1;
  }

  /** The slot where a probe for {@code key} starts. */
  int home(long key) {
    return (int) ((key * GOLDEN) >>> shift);
  }
}
