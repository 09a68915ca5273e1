package dev.rivulet.engine;

import dev.rivulet.engine.state.LongSlots;
import java.util.Arrays;

/**
 * A set of entry numbers of a flat row index ({@link SemiJoinIndex}), found by their rows: an
 * open-addressing table probed linearly from each row's hash ({@link Row#hashCode}, computed once
 * per row), so the entry holding a row is found without walking its key's chain. The rows live in
 * the index's array, passed to each call (it is reallocated as the index grows). Removal shifts
 * back the rest of the probe run (no tombstones); the table doubles when over half full.
 *
 * <p>Confined to the thread that runs the graph, owned by its index.
 */
final class RowEntries {
  private static final int FREE = -1;
  private int[] slots = new int[16];
  private int bits = 4;
  private int size;

  RowEntries() {
    Arrays.fill(slots, FREE);
  }

  /** Entries held. */
  int size() {
    return size;
  }

  /** Adds entry {@code e}, whose row is {@code rows[e]}. */
  void add(int e, Row[] rows) {
    if ((size + 1) * 2L > slots.length) {
      grow(rows);
    }
    put(e, rows[e].hashCode());
    size++;
  }

  /**
   * The entry whose row is {@code row} itself, else one whose row equals it, or -1. Equal rows hash
   * alike, so both searches stay in one probe run.
   */
  int find(Row row, Row[] rows) {
    int h = row.hashCode();
    int mask = slots.length - 1;
    int home = LongSlots.hash(h, bits);
    for (int s = home; slots[s] != FREE; s = (s + 1) & mask) {
      if (rows[slots[s]] == row) {
        return slots[s];
      }
    }
    for (int s = home; slots[s] != FREE; s = (s + 1) & mask) {
      Row r = rows[slots[s]];
      if (r.hashCode() == h && r.equals(row)) {
        return slots[s];
      }
    }
    return FREE;
  }

  /** Removes entry {@code e} (held, its row still at {@code rows[e]}). */
  void remove(int e, Row[] rows) {
    int mask = slots.length - 1;
    int s = LongSlots.hash(rows[e].hashCode(), bits);
    while (slots[s] != e) {
      s = (s + 1) & mask;
    }
    // backward shift: move up each later entry of the run whose home is not in (s, j]
    for (int j = (s + 1) & mask; slots[j] != FREE; j = (j + 1) & mask) {
      int home = LongSlots.hash(rows[slots[j]].hashCode(), bits);
      if (((j - home) & mask) >= ((j - s) & mask)) {
        slots[s] = slots[j];
        s = j;
      }
    }
    slots[s] = FREE;
    size--;
  }

  private void put(int e, int hash) {
    int mask = slots.length - 1;
    int s = LongSlots.hash(hash, bits);
    while (slots[s] != FREE) {
      s = (s + 1) & mask;
    }
    slots[s] = e;
  }

  private void grow(Row[] rows) {
    int[] old = slots;
    slots = new int[old.length * 2];
    bits++;
    Arrays.fill(slots, FREE);
    for (int e : old) {
      if (e != FREE) {
        put(e, rows[e].hashCode());
      }
    }
  }
}
