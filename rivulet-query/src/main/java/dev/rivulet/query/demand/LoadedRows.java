package dev.rivulet.query.demand;

import dev.rivulet.engine.Row;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Row ownership of a lazy collection: which settled requests (by generation) hold each loaded
 * key. A key stays loaded exactly while at least one of them is held; a key the source removed
 * is forgotten by all of them at once, so what is tracked never outgrows the rows that are here
 * (the space law). Guarded by the database's monitor.
 */
public final class LoadedRows {
  private static final long[] NONE = new long[0];
  private final Map<Row, long[]> owners = new HashMap<>();
  private final Map<Long, Set<Row>> keysOf = new HashMap<>();

  /**
   * Records that request {@code generation} holds {@code keys} (distinct), its baseline; the keys
   * its source added before it settled ({@link #adopt}) stay held too.
   */
  public void own(long generation, List<Row> keys) {
    for (Row k : keys) {
      adopt(generation, k);
    }
  }

  /**
   * Records that held request {@code generation} also holds {@code key} (a row its source added
   * later within its coverage); nothing when it holds it already.
   */
  public void adopt(long generation, Row key) {
    if (keysOf.computeIfAbsent(generation, g -> new LinkedHashSet<>()).add(key)) {
      long[] held = owners.getOrDefault(key, NONE);
      long[] more = Arrays.copyOf(held, held.length + 1);
      more[held.length] = generation;
      owners.put(key, more);
    }
  }

  /** The source removed the row of {@code key}: no request holds it any more. */
  public void forget(Row key) {
    long[] held = owners.remove(key);
    if (held != null) {
      for (long g : held) {
        keysOf.get(g).remove(key);
      }
    }
  }

  /** Releases request {@code generation}; hands each key nothing holds any more to {@code gone}. */
  public void release(long generation, Consumer<Row> gone) {
    Set<Row> held = keysOf.remove(generation);
    if (held == null) {
      return; // it never loaded (cancelled before it settled)
    }
    for (Row k : held) {
      long[] by = owners.get(k);
      if (by.length == 1) {
        owners.remove(k);
        gone.accept(k);
      } else {
        owners.put(k, without(by, generation));
      }
    }
  }

  private static long[] without(long[] gens, long generation) {
    long[] out = new long[gens.length - 1];
    int n = 0;
    for (long g : gens) {
      if (g != generation) {
        out[n++] = g;
      }
    }
    return out;
  }

  /** How many held requests loaded {@code key}. */
  public int owners(Row key) {
    return owners.getOrDefault(key, NONE).length;
  }

  /** How many keys some held request holds (bounded by the rows loaded). */
  public int trackedKeys() {
    return owners.size();
  }
}
