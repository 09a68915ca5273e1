package dev.rivulet.engine;

import java.util.Objects;

/**
 * A reusable lookup key for a map keyed by key rows: equal to (and hashing as) the row that
 * {@code row.project(columns)} would make, without making it. {@link java.util.Map#get} and
 * {@link java.util.Map#remove} match a key {@code k} by {@code probe.equals(k)}, so a lookup with
 * a probe finds the key row stored for the same values; a probe is never stored as a key itself.
 *
 * <p>Owned by one operator, confined to the thread that runs its graph; {@link #clear} drops the
 * row it points at.
 */
final class KeyProbe {
  private Row row;
  private int[] columns;
  private int hash;

  /** This probe, now standing for {@code row}'s values at {@code columns}. */
  KeyProbe of(Row row, int[] columns) {
    this.row = row;
    this.columns = columns;
    int h = 1; // Row.hashCode of the projection: Arrays.hashCode of its values
    for (int c : columns) {
      h = 31 * h + Objects.hashCode(row.canonicalAt(c));
    }
    hash = h;
    return this;
  }

  /** The key row this probe stands for, made (a key to store). */
  Row project() {
    return row.project(columns);
  }

  /** Forgets the row (so a map's owner does not keep it reachable). */
  void clear() {
    row = null;
  }

  /** Whether {@code key} holds {@code row}'s values at {@code columns} (as the probe of them would equal it). */
  static boolean matches(Row key, Row row, int[] columns) {
    for (int i = 0; i < columns.length; i++) {
      if (!Objects.equals(key.canonicalAt(i), row.canonicalAt(columns[i]))) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Row r && r.width() == columns.length && matches(r, row, columns);
  }
}
