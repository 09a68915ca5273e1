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
 * value with {@value #FIRST} slots. Every {@value #WINDOW} lookups the column's hit rate decides:
 * below 15/16 the cache grows fourfold, up to {@value #MAX} slots; at that size, two windows in a row
 * below 1/8 (an id, a timestamp: values that do not repeat) stop the column for good, which frees
 * its cache. So the pool holds at most {@value #MAX} values per column. {@code Boolean}s become the
 * two constants.
 *
 * <p>Thread safety: a collection's writers may check rows on several threads at once (outside the
 * database's monitor), so the caches are read and written without a lock, and a row's values are
 * replaced while others may read it (each reader sees one of two equal immutable instances). That is safe because an
 * answer is always equal to the value asked for: a slot holds null or an immutable canonical value
 * (final fields, so safely published), and a racing writer only loses a slot or a count. The hit
 * counts are approximate under races; they decide only how big a column's cache is.
 */
public final class ValuePool implements EngineAccess.ValueSharing {
  static final int FIRST = 256;
  static final int MAX = 1 << 14;
  static final int WINDOW = 2048;
  static final int MAX_STRING = 64;
  private static final int WAYS = 4;
  private static final Object[] STOPPED = new Object[0];
  private final Object[][] caches; // per column: null until its first value, STOPPED once given up
  private final int[] lookups;
  private final int[] hits;
  private final int[] idleWindows; // consecutive windows at MAX with a hit rate below 1/8

  /** A pool for rows of {@code width} columns. */
  public ValuePool(int width) {
    caches = new Object[width][];
    lookups = new int[width];
    hits = new int[width];
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
      if (x == v || x != null && same(v, x)) {
        counted(column, true, cache);
        return x;
      }
    }
    System.arraycopy(cache, g, cache, g + 1, WAYS - 1); // the group keeps its most recent values
    cache[g] = v;
    counted(column, false, cache);
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

  /** Counts a lookup; at the end of a window, grows or stops the column's cache by its hit rate. */
  private void counted(int column, boolean hit, Object[] cache) {
    if (hit) {
      hits[column]++;
    }
    if (++lookups[column] >= WINDOW) {
      windowEnded(column, cache);
    }
  }

  private void windowEnded(int column, Object[] cache) {
    int h = hits[column];
    lookups[column] = 0;
    hits[column] = 0;
    if (h * 16 >= WINDOW * 15) {
      idleWindows[column] = 0;
    } else if (cache.length < MAX) {
      caches[column] = grown(cache);
    } else if (h * 8 >= WINDOW) {
      idleWindows[column] = 0;
    } else if (++idleWindows[column] >= 2) {
      caches[column] = STOPPED;
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
