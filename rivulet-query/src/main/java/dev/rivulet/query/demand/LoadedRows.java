package dev.rivulet.query.demand;

import dev.rivulet.engine.Row;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Row ownership of a lazy collection: which settled requests (by generation) loaded each key. A
 * key stays loaded exactly while at least one of them is held. Guarded by the database's monitor.
 */
public final class LoadedRows {
  private final Map<Row, int[]> owners = new HashMap<>();
  private final Map<Long, java.util.Set<Row>> keysOf = new HashMap<>();

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
    if (keysOf.computeIfAbsent(generation, g -> new java.util.LinkedHashSet<>()).add(key)) {
      owners.computeIfAbsent(key, x -> new int[1])[0]++;
    }
  }

  /** Releases request {@code generation}; hands each key nothing holds any more to {@code gone}. */
  public void release(long generation, Consumer<Row> gone) {
    java.util.Set<Row> held = keysOf.remove(generation);
    if (held == null) {
      return; // it never loaded (cancelled before it settled)
    }
    for (Row k : held) {
      int[] n = owners.get(k);
      if (--n[0] == 0) {
        owners.remove(k);
        gone.accept(k);
      }
    }
  }

  /** How many held requests loaded {@code key}. */
  public int owners(Row key) {
    int[] n = owners.get(key);
    return n == null ? 0 : n[0];
  }
}
