package dev.rivulet.engine;

/**
 * One shared {@code Long} per integer in [0, {@value #SIZE}): what {@link Values#canonical} makes of
 * an integer in that range, so rows built from {@code int}s or freshly boxed {@code long}s (ids,
 * foreign keys, counts, priorities) hold one instance per value instead of one per row, before a
 * collection's value pool looks at them (which then finds nothing to replace and pauses the
 * column). {@code Long.valueOf} shares only [-128, 127].
 *
 * <p>Thread safety: the table is filled lazily without a lock. Two threads racing on an empty slot
 * may each store an instance and either may stay; every instance in a slot is equal, and a {@code
 * Long}'s value is final, so a reader always sees a whole, equal value. Only identity can differ,
 * and nothing in Rivulet relies on it beyond saving memory.
 */
final class SharedLongs {
  /** The integers shared: [0, SIZE), the range of a value pool's direct table. */
  static final int SIZE = 1 << 14;
  private static final Long[] TABLE = new Long[SIZE];

  private SharedLongs() {}

  /** {@code v} as a {@code Long}: the shared instance when {@code v} is in [0, SIZE). */
  static Long of(long v) {
    if (v < 0 || v >= SIZE) {
      return v;
    }
    Long shared = TABLE[(int) v];
    if (shared == null) {
      shared = v;
      TABLE[(int) v] = shared;
    }
    return shared;
  }

  /** {@code v} itself, or the shared instance equal to it when it is in [0, SIZE) (then {@code v} may become it). */
  static Long share(Long v) {
    long x = v;
    if (x < 0 || x >= SIZE) {
      return v;
    }
    Long shared = TABLE[(int) x];
    if (shared == null) {
      TABLE[(int) x] = v;
      return v;
    }
    return shared;
  }
}
