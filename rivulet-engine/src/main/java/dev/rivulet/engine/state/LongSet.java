package dev.rivulet.engine.state;

/**
 * A set of {@code long}s in an open-addressing table probed linearly from a Fibonacci hash, at most
 * half full; no removal. Every {@code long} is a valid member (a separate flag holds 0, the empty
 * slot's mark).
 *
 * <p>Not thread-safe: owned by the index that uses it.
 */
final class LongSet {
  private static final long GOLDEN = 0x9E3779B97F4A7C15L;
  private long[] slots = new long[16];
  private int shift = Long.numberOfLeadingZeros(16) + 1;
  private boolean hasZero;
  private int size;

  boolean contains(long v) {
    if (v == 0) {
      return hasZero;
    }
    for (int s = home(v); ; s = (s + 1) & (slots.length - 1)) {
      long x = slots[s];
      if (x == v) {
        return true;
      }
      if (x == 0) {
        return false;
      }
    }
  }

  /** Adds {@code v}; returns whether it was new. */
  boolean add(long v) {
    if (v == 0) {
      boolean fresh = !hasZero;
      hasZero = true;
      size += fresh ? 1 : 0;
      return fresh;
    }
    int s = home(v);
    while (slots[s] != 0) {
      if (slots[s] == v) {
        return false;
      }
      s = (s + 1) & (slots.length - 1);
    }
    slots[s] = v;
    if (++size * 2 > slots.length) {
      rehash();
    }
    return true;
  }

  int size() {
    return size;
  }

  private int home(long v) {
    return (int) ((v * GOLDEN) >>> shift);
  }

  private void rehash() {
    long[] old = slots;
    slots = new long[old.length * 2];
    shift--;
    for (long v : old) {
      if (v != 0) {
        int s = home(v);
        while (slots[s] != 0) {
          s = (s + 1) & (slots.length - 1);
        }
        slots[s] = v;
      }
    }
  }
}
