package dev.rivulet.query.state;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.internal.EngineAccess;

/**
 * Shared instances of a collection's repeated values: a row written with a value equal to one seen
 * recently in the same column gets that earlier instance, so a million rows drawn from a few
 * thousand titles, statuses or foreign keys hold a few thousand value objects, not a million.
 *
 * <p>How: per column, a four-way set-associative cache of canonical {@code Long}, {@code Double} and
 * {@code String} values (strings up to {@value #MAX_STRING} characters), made on the column's first
 * value with {@value #FIRST} slots. Every {@value #WINDOW} lookups the column's counts decide:
 * <ul>
 *   <li>two windows in a row without a hit, or (at {@value #MAX} slots) below 1/8 (an id, a
 *       timestamp: values that do not repeat), stop the column for good, which frees its cache;
 *   <li>else a window whose hits replaced almost nothing (at least half of its lookups hit, but under
 *       1/16 found an equal value in another instance: the writer hands out shared instances
 *       already, e.g. constants or small boxed integers) pauses the column: its next {@value
 *       #PAUSE} values are passed through unlooked, then a window is measured again. Pausing costs
 *       no memory, since what the lookups would have replaced was the same instance;
 *   <li>else a hit rate below 15/16 grows the cache fourfold, up to {@value #MAX} slots.
 * </ul>
 * So the pool holds at most {@value #MAX} values per column, and its lookups are spent where they
 * replace instances. {@code Boolean}s become the two constants.
 *
 * <p>Thread safety: a collection's writers may check rows on several threads at once (outside the
 * database's monitor), so the caches are read and written without a lock, and a row's values are
 * replaced while others may read it (each reader sees one of two equal immutable instances). That
 * is safe because an answer is always equal to the value asked for: a slot holds null or an
 * immutable canonical value (final fields, so safely published), and a racing writer only loses a
 * slot, a count or a step of a pause. The counts are approximate under races; they decide only how
 * big a column's cache is and when it is looked up.
 */
public final class ValuePool implements EngineAccess.ValueSharing {
  static final int FIRST = 256;
  static final int MAX = 1 << 14;
  static final int WINDOW = 2048;
  static final int MAX_STRING = 64;
  static final int PAUSE = 15 * WINDOW;
  private static final int WAYS = 4;
  private static final Object[] STOPPED = new Object[0];
  private final Object[][] caches; // per column: null until its first value, STOPPED once given up
  private final int[] lookups;
  private final int[] hits;
  private final int[] saves; // hits whose answer was another instance than the value asked for
  private final int[] paused; // values left to pass unlooked; counted down
  private final int[] idleWindows; // consecutive windows without a hit, or at MAX below 1/8

  /** A pool for rows of {@code width} columns. */
  public ValuePool(int width) {
    caches = new Object[width][];
    lookups = new int[width];
    hits = new int[width];
    saves = new int[width];
    paused = new int[width];
    idleWindows = new int[width];
  }

  /**
   * Holds each value of {@code row} (canonical) that an earlier equal one can stand for with that
   * earlier instance, in place: the row stays equal to itself, only its value objects change (see
   * {@code EngineAccess#shareValues}).
   */
  public void share(Row row) {
    if (row.width() <= caches.length) {
      EngineAccess.get().shareValues(row, this);
    }
  }

  /** The shared instance equal to canonical {@code v} in {@code column}, or {@code v}. */
  @Override
  public Object share(int column, Object v) {
    Object[] cache = caches[column];
    if (cache == STOPPED) {
      return v; // first, so that a stopped column's values are not even read
    }
    if (v instanceof Boolean b) {
      return b ? Boolean.TRUE : Boolean.FALSE;
    }
    if (paused[column] > 0) {
      paused[column]--; // racy: a lost decrement only lengthens the pause
      return v;
    }
    int h;
    if (v instanceof String s) { // per type, so that each hash and equality call is a direct one
      if (s.length() > MAX_STRING) {
        return v;
      }
      h = s.hashCode();
    } else if (v instanceof Long l) {
      h = Long.hashCode(l);
    } else if (v instanceof Double d) {
      h = Double.hashCode(d);
    } else {
      return v;
    }
    if (cache == null) {
      cache = new Object[FIRST];
      caches[column] = cache;
    }
    int g = group(h, cache.length);
    for (int i = g; i < g + WAYS; i++) {
      Object x = cache[i];
      if (x == v) {
        counted(column, 1, 0, cache);
        return x;
      }
      if (x != null && same(v, x)) {
        counted(column, 1, 1, cache);
        return x;
      }
    }
    System.arraycopy(cache, g, cache, g + 1, WAYS - 1); // the group keeps its most recent values
    cache[g] = v;
    counted(column, 0, 0, cache);
    return v;
  }

  /** Equality of a canonical String, Long or Double {@code v} with a cached value {@code x}. */
  private static boolean same(Object v, Object x) {
    if (v instanceof String s) {
      return x instanceof String t && s.equals(t);
    }
    if (v instanceof Long l) {
      return x instanceof Long m && l.longValue() == m.longValue();
    }
    return x instanceof Double e && ((Double) v).equals(e);
  }

  /** True while {@code column} is pooled (not stopped) (for tests). */
  boolean pooling(int column) {
    return caches[column] != STOPPED;
  }

  /** True while {@code column}'s values pass unlooked for a while (for tests). */
  boolean paused(int column) {
    return paused[column] > 0;
  }

  /** The slots of {@code column}'s cache, 0 before its first value or once stopped (for tests). */
  int slots(int column) {
    return caches[column] == null ? 0 : caches[column].length;
  }

  /** The first slot of the group of {@value #WAYS} of a value with hash code {@code h}. */
  private static int group(int h, int length) {
    // mixed (murmur3's finalizer): close hashes land far apart
    h = (h ^ h >>> 16) * 0x85EBCA6B;
    h = (h ^ h >>> 13) * 0xC2B2AE35;
    return (h ^ h >>> 16) >>> Integer.numberOfLeadingZeros(length) + 1 & -WAYS;
  }

  /** Counts a lookup (a hit, a save); at the end of a window, decides the column's cache by its counts. */
  private void counted(int column, int hit, int saved, Object[] cache) {
    hits[column] += hit;
    saves[column] += saved;
    if (++lookups[column] >= WINDOW) {
      windowEnded(column, cache);
    }
  }

  private void windowEnded(int column, Object[] cache) {
    int h = hits[column];
    int s = saves[column];
    lookups[column] = 0;
    hits[column] = 0;
    saves[column] = 0;
    boolean idle = h == 0 || cache.length >= MAX && h * 8 < WINDOW;
    idleWindows[column] = idle ? idleWindows[column] + 1 : 0;
    if (idleWindows[column] >= 2) {
      caches[column] = STOPPED;
    } else if (h * 2 >= WINDOW && s * 16 < WINDOW) {
      paused[column] = PAUSE; // the hits found the same instances: nothing to grow for either
    } else if (h * 16 < WINDOW * 15 && cache.length < MAX) {
      caches[column] = grown(cache);
    }
  }

  private static Object[] grown(Object[] cache) {
    Object[] out = new Object[cache.length * 4];
    for (int i = cache.length - 1; i >= 0; i--) { // the oldest first: they end last in their groups
      Object v = cache[i];
      if (v != null) {
        int g = group(v.hashCode(), out.length);
        System.arraycopy(out, g, out, g + 1, WAYS - 1);
        out[g] = v;
      }
    }
    return out;
  }
}
