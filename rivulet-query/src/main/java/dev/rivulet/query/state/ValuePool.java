package dev.rivulet.query.state;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.internal.EngineAccess;
import java.util.Arrays;

/**
 * Shared instances of a collection's repeated values: a row written with a value equal to one seen
 * recently in the same column gets that earlier instance, so a million rows drawn from a few
 * thousand titles, statuses or foreign keys hold a few thousand value objects, not a million.
 *
 * <p>How: per column, a table of the integers in [0, {@value #DIRECT}) indexed by value (a
 * foreign key, a small count: no hash, no probe, no equality call; made on the first with {@value
 * #FIRST} slots or as many as the largest needs), and a four-way set-associative cache of the other
 * canonical {@code Long}s, {@code Double}s and {@code String}s (strings up to {@value #MAX_STRING}
 * characters) with their hash codes, made on the column's first such value with {@value #FIRST}
 * slots. Every {@value #WINDOW} lookups the column's counts decide:
 * <ul>
 *   <li>two windows in a row without a hit, or (at {@value #MAX} hashed slots) below 1/8 (an id, a
 *       timestamp: values that do not repeat), stop the column for good, which frees its tables;
 *   <li>else a window whose hits replaced almost nothing (at least 1/8 of its lookups hit, but under
 *       1/16 of those hits found an equal value in another instance: the writer hands out shared
 *       instances already, e.g. constants, or integers below 16384, which the engine's canonical
 *       form shares) pauses the column: its next {@value
 *       #PAUSE} values are passed through unlooked, then a window is measured again. Pausing costs
 *       no memory, since what the lookups would have replaced was the same instance;
 *   <li>else a hashed cache that missed over 1/16 of the lookups grows fourfold, up to {@value
 *       #MAX} slots.
 * </ul>
 * So the pool holds at most {@value #DIRECT} + {@value #MAX} values per column, and its lookups
 * are spent where they replace instances. {@code Boolean}s become the two constants.
 *
 * <p>Rows are shared a column at a time ({@link #share(Row[], int, int, Object[][])}: a load's
 * rows, a chunk of a sync batch, {@value #BLOCK} rows at a time): a stopped column
 * costs nothing per row, a paused one skips a block's values at once, and a column's run of
 * strings or of small integers is looked up by a short loop of its own (hashed strings calling
 * {@link #find}, a small probe, per value), so a fresh JVM runs few bytecodes per value and
 * compiles them early. The result is the same as sharing the rows one by one ({@link
 * #share(Row)}): columns are independent, and a run stops where a window ends.
 *
 * <p>Thread safety: a collection's writers may share rows on several threads at once (outside the
 * database's monitor), so the tables are read and written without a lock, and a row's values are
 * replaced while others may read it (each reader sees one of two equal immutable instances). That
 * is safe because an answer is always equal to the value asked for: it is a cached value found
 * equal to it (a slot's hash only selects candidates; a small integer's slot only ever holds an
 * equal {@code Long}), a hashed cache's arrays are published together by its final fields, and a
 * racing writer only loses a slot, a count or a step of a pause. The counts are approximate under
 * races; they decide only how big a column's cache is and when it is looked up. A column's tables
 * are made, grown and dropped under the pool's monitor ({@link #install}, {@link #stop}), which
 * lookups never take: a stopped column stays stopped (a writer that read it before the stop makes
 * no table for it again, and none looks values up into the shared stopped marker).
 */
public final class ValuePool {
  static final int FIRST = 256;
  static final int MAX = 1 << 14;
  // Not more: a table of 2^17 slots for W4's 100k random issue ids cost a 1M-row load a third more
  // CPU than hashing them (misses all over the table, and every hit a replacing store).
  static final int DIRECT = 1 << 14;
  static final int WINDOW = 2048;
  static final int MAX_STRING = 64;
  static final int PAUSE = 15 * WINDOW;
  /** The rows shared a column at a time (a power of two). */
  public static final int BLOCK = 64;
  private static final int WAYS = 4;
  private static final Cache STOPPED = new Cache(WAYS);
  private final Cache[] caches; // per column: null until its first value, STOPPED once given up
  private final Long[][] directs; // per column: the integers in [0, DIRECT) seen, each at its own index
  private final int[] lookups;
  private final int[] hits;
  private final int[] saves; // hits whose answer was another instance than the value asked for
  private final int[] misses; // lookups the hashed cache missed
  private final int[] paused; // values left to pass unlooked; counted down
  private final int[] idleWindows; // consecutive windows without a hit, or at MAX below 1/8
  private final boolean[] savedLastWindow; // whether the column's last ended window replaced a value

  /** One column's slots: values and their hash codes, in groups of {@value #WAYS}, most recent first. */
  private static final class Cache {
    final int[] hashes;
    final Object[] values;
    final int shift; // 32 - log2(slots): a hash's group is its golden-ratio product's top bits

    Cache(int slots) {
      hashes = new int[slots];
      values = new Object[slots];
      shift = Integer.numberOfLeadingZeros(slots) + 1;
    }
  }

  /** A pool for rows of {@code width} columns. */
  public ValuePool(int width) {
    caches = new Cache[width];
    directs = new Long[width][];
    lookups = new int[width];
    hits = new int[width];
    saves = new int[width];
    misses = new int[width];
    paused = new int[width];
    idleWindows = new int[width];
    savedLastWindow = new boolean[width];
  }

  /**
   * Holds each value of {@code row} (canonical) that an earlier equal one can stand for with that
   * earlier instance, in place: the row stays equal to itself, only its value objects change (see
   * {@code EngineAccess#valuesInPlace}).
   */
  public void share(Row row) {
    share(new Row[] {row}, 0, 1, new Object[1][]);
  }

  /**
   * {@link #share(Row)} of each row of {@code rows[from..to)} (canonical; null entries are
   * skipped), in order, a column at a time.
   *
   * @param block the caller's scratch space of {@link #BLOCK} entries (or of {@code to - from}),
   *     not used by another thread meanwhile; left holding references
   */
  public void share(Row[] rows, int from, int to, Object[][] block) {
    EngineAccess access = EngineAccess.get();
    int width = caches.length;
    int i = from;
    while (i < to) {
      int end = Math.min(to, i + block.length);
      int n = access.valuesInPlace(rows, i, end, width, block);
      i = end;
      for (int c = 0; c < width; c++) {
        if (caches[c] != STOPPED) {
          shareColumn(block, n, c);
        }
      }
    }
  }

  /** Shares column {@code c} of {@code block[0..n)}: skips what a pause skips, looks up the rest. */
  private void shareColumn(Object[][] block, int n, int c) {
    int i = 0;
    while (i < n) {
      if (caches[c] == STOPPED) {
        return;
      }
      int p = paused[c];
      if (p > 0) {
        int skip = Math.min(p, n - i);
        paused[c] = p - skip; // racy: a lost update only changes the pause's length
        i += skip;
        continue;
      }
      i = lookUp(block, i, n, c);
      if (lookups[c] >= WINDOW) {
        windowEnded(c);
      }
    }
  }

  /**
   * Looks up column {@code c} of {@code block[from..to)} until the window ends; returns where it
   * stopped. A found equal value in another instance replaces the row's. Runs of strings and of
   * small integers go to a loop of their own (few branches per value, so they run fast while a
   * fresh JVM still has them interpreted or in C1); any other value is looked up alone.
   */
  private int lookUp(Object[][] block, int from, int to, int c) {
    int i = from;
    while (i < to && lookups[c] < WINDOW && caches[c] != STOPPED) {
      Object v = block[i][c];
      if (v instanceof String) {
        i = strings(block, i, to, c);
      } else if (v instanceof Long l && l >= 0 && l < DIRECT) {
        i = smallIntegers(block, i, to, c);
      } else {
        other(block[i], c);
        i++;
      }
    }
    return i;
  }

  /**
   * Looks up the strings of column {@code c} from {@code block[from]} (a string) on, until another
   * non-null value, {@code to} or the window's end; returns where it stopped.
   */
  private int strings(Object[][] block, int from, int to, int c) {
    Cache cache = caches[c];
    int budget = WINDOW - lookups[c];
    int looked = 0;
    int hit = 0;
    int saved = 0;
    int i = from;
    for (; i < to && looked < budget; i++) {
      Object[] values = block[i];
      Object v = values[c];
      if (!(v instanceof String s)) {
        if (v == null) {
          continue;
        }
        break;
      }
      if (s.length() > MAX_STRING) {
        continue;
      }
      if (cache == null) {
        cache = install(c, null, new Cache(FIRST));
      }
      if (cache == STOPPED) {
        break; // stopped by another writer: nothing is looked up or cached for it again
      }
      looked++;
      Object x = find(cache, s.hashCode(), s);
      if (x != null) {
        hit++;
        if (x != s) {
          values[c] = x;
          saved++;
        }
      }
    }
    counted(c, looked, hit, saved, looked - hit);
    return i;
  }

  /**
   * Looks up the integers in [0, {@value #DIRECT}) of column {@code c} from {@code block[from]} (one
   * of them) on in the column's table, until another non-null value, {@code to} or the window's
   * end; returns where it stopped.
   */
  private int smallIntegers(Object[][] block, int from, int to, int c) {
    Long[] d = directs[c];
    int end = Math.min(to, from + WINDOW - lookups[c]); // each value on the way is looked up, or a null
    int looked = 0;
    int hit = 0;
    int saved = 0;
    int i = from;
    for (; i < end; i++) {
      Object[] values = block[i];
      Object v = values[c];
      if (!(v instanceof Long l)) {
        if (v == null) {
          continue;
        }
        break;
      }
      long k = l;
      if (d == null || k < 0 || k >= d.length) {
        if (k < 0 || k >= DIRECT) {
          break;
        }
        d = directFor(c, (int) k);
        if (d == null) {
          break; // stopped by another writer
        }
      }
      looked++;
      Long x = d[(int) k];
      if (x == null) {
        d[(int) k] = l;
      } else {
        hit++;
        if (x != l) {
          values[c] = x;
          saved++;
        }
      }
    }
    counted(c, looked, hit, saved, 0);
    return i;
  }

  /** Looks up value {@code c} of {@code values}, which neither run takes (a null, a large integer, ...). */
  private void other(Object[] values, int c) {
    Object v = values[c];
    int h;
    if (v instanceof Long l) {
      h = Long.hashCode(l);
    } else if (v instanceof Double d) {
      h = Double.hashCode(d);
    } else {
      if (v instanceof Boolean b) {
        values[c] = b ? Boolean.TRUE : Boolean.FALSE;
      }
      return;
    }
    Cache cache = caches[c];
    if (cache == null) {
      cache = install(c, null, new Cache(FIRST));
    }
    if (cache == STOPPED) {
      return; // stopped by another writer
    }
    Object x = find(cache, h, v);
    if (x == null) {
      counted(c, 1, 0, 0, 1);
    } else if (x != v) {
      values[c] = x;
      counted(c, 1, 1, 1, 0);
    } else {
      counted(c, 1, 1, 0, 0);
    }
  }

  private void counted(int c, int looked, int hit, int saved, int missed) {
    lookups[c] += looked;
    hits[c] += hit;
    saves[c] += saved;
    misses[c] += missed;
  }

  /**
   * The cached value equal to {@code v} (hash code {@code h}): {@code v} itself when it is the
   * cached instance, else another; or null when none is, after caching {@code v} first in its
   * group (the group keeps its most recent values). Called per value, so that a fresh JVM compiles
   * it within a few thousand values; a loop over the ways (not four inlined equality tests), so
   * that its optimised compile is small and quick while the load it serves is still running.
   */
  private static Object find(Cache cache, int h, Object v) {
    int[] hs = cache.hashes;
    Object[] vs = cache.values;
    int g = h * 0x9E3779B9 >>> cache.shift & -WAYS;
    for (int w = g; w < g + WAYS; w++) {
      Object x;
      if (hs[w] == h && (x = vs[w]) != null && (x == v || same(v, x))) {
        return x;
      }
    }
    // a miss: the set's entries move one way down (the last falls out) and the value goes first
    System.arraycopy(hs, g, hs, g + 1, WAYS - 1);
    System.arraycopy(vs, g, vs, g + 1, WAYS - 1);
    hs[g] = h;
    vs[g] = v;
    return null;
  }

  /**
   * Column {@code c}'s table of small integers, made or grown to hold {@code k} (below {@link
   * #DIRECT}); null when the column was stopped.
   */
  private Long[] directFor(int c, int k) {
    Long[] d = directs[c];
    int n = Math.max(FIRST, Integer.highestOneBit(k) << 1);
    Long[] out = d == null ? new Long[n] : Arrays.copyOf(d, n);
    synchronized (this) {
      if (caches[c] == STOPPED) {
        return null;
      }
      directs[c] = out;
    }
    return out;
  }

  /**
   * Makes {@code next} column {@code c}'s cache, replacing {@code expected} (null: its first, grown
   * from it otherwise), and returns the column's cache then: {@link #STOPPED} when another writer
   * stopped the column, the first cache another writer made meanwhile. Tables change rarely (a
   * column's first value, a growth, a stop), so only their changes take the pool's monitor; a stop
   * is thus final, never undone by a writer that read the column before it.
   */
  private synchronized Cache install(int c, Cache expected, Cache next) {
    Cache now = caches[c];
    if (now == STOPPED) {
      return STOPPED;
    }
    if (expected == null && now != null) {
      return now; // another writer made the first one: it is kept
    }
    caches[c] = next;
    return next;
  }

  /** Stops column {@code c} for good: its tables are dropped and never made again (tests stop columns too). */
  synchronized void stop(int c) {
    caches[c] = STOPPED;
    directs[c] = null;
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

  /**
   * Whether some column is replacing values by shared instances: neither stopped nor paused, and
   * it replaced some in its current window or its last. A prediction from the rows pooled so far:
   * where it is wrong, a copy of a load's later rows made before they are pooled costs memory,
   * never meaning.
   */
  public boolean replacing() {
    for (int c = 0; c < caches.length; c++) {
      if (caches[c] != STOPPED && paused[c] == 0 && (saves[c] > 0 || savedLastWindow[c])) {
        return true;
      }
    }
    return false;
  }

  /** True while {@code column} is pooled (not stopped) (for tests). */
  boolean pooling(int column) {
    return caches[column] != STOPPED;
  }

  /** True while {@code column}'s values pass unlooked for a while (for tests). */
  boolean paused(int column) {
    return paused[column] > 0;
  }

  /** The slots of {@code column}'s table of small integers, 0 before the first or once stopped (for tests). */
  int directSlots(int column) {
    Long[] d = directs[column];
    return d == null ? 0 : d.length;
  }

  /** The slots of {@code column}'s hashed cache, 0 before its first value or once stopped (for tests). */
  int slots(int column) {
    Cache cache = caches[column];
    return cache == null || cache == STOPPED ? 0 : cache.values.length;
  }

  /** At the end of {@code column}'s window, decides its cache by the window's counts. */
  private void windowEnded(int column) {
    Cache cache = caches[column];
    int h = hits[column];
    int s = saves[column];
    int m = misses[column];
    lookups[column] = 0;
    hits[column] = 0;
    saves[column] = 0;
    misses[column] = 0;
    savedLastWindow[column] = s > 0;
    if (cache == STOPPED) {
      return;
    }
    boolean idle = h == 0 || cache != null && cache.values.length >= MAX && h * 8 < WINDOW;
    idleWindows[column] = idle ? idleWindows[column] + 1 : 0;
    if (idleWindows[column] >= 2) {
      stop(column);
    } else if (h * 8 >= WINDOW && s * 16 < h) {
      paused[column] = PAUSE; // the hits found the same instances: nothing to grow for either
    } else if (m * 16 > WINDOW && cache != null && cache.values.length < MAX) {
      install(column, cache, grown(cache));
    }
  }

  private static Cache grown(Cache cache) {
    Cache out = new Cache(cache.values.length * 4);
    for (int i = cache.values.length - 1; i >= 0; i--) { // the oldest first: they end last in their groups
      Object v = cache.values[i];
      if (v != null) {
        find(out, cache.hashes[i], v); // a miss: cached first in its group
      }
    }
    return out;
  }
}
