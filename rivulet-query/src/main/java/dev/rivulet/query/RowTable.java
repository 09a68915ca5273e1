package dev.rivulet.query;

import dev.rivulet.engine.Row;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The keyed rows of a collection: a map from key rows to rows, with no order.
 *
 * <p>How: open addressing with linear probing over one array of (key, row) pairs, so a lookup
 * touches no per-entry node, iteration is a scan, and a load of n rows sizes the table once.
 * Slots come from the key's hash with its high bits folded in, which keeps keys inserted in
 * sequence (the usual bulk load) next to each other in memory; if a probe run ever grows long
 * (hashes that share their low bits), the table switches for good to a multiplicative spread.
 * Removal shifts the following probe run back instead of leaving tombstones.
 *
 * <p>Not thread-safe: owned by one collection, guarded by its database's monitor.
 */
final class RowTable {
  private static final int MIN_CAPACITY = 16;
  private static final int LONG_PROBE = 24;
  private Object[] slots; // key at 2s, row at 2s + 1; an empty slot has a null key
  private int mask;
  private int shift; // for the multiplicative spread: 32 - log2(capacity)
  private int size;
  private boolean scrambled;

  RowTable() {
    slots = new Object[2 * MIN_CAPACITY];
    setCapacity(MIN_CAPACITY);
  }

  int size() {
    return size;
  }

  boolean isEmpty() {
    return size == 0;
  }

  /** The row of {@code key}, or null. */
  Row get(Row key) {
    int s = find(key);
    return s < 0 ? null : (Row) slots[2 * s + 1];
  }

  /** Sets the row of {@code key}; returns the row it replaced, or null. */
  Row put(Row key, Row row) {
    int probes = 0;
    int s = home(key.hashCode());
    for (Object k; (k = slots[2 * s]) != null; s = (s + 1) & mask, probes++) {
      if (k.equals(key)) {
        Row before = (Row) slots[2 * s + 1];
        slots[2 * s + 1] = row;
        return before;
      }
    }
    slots[2 * s] = key;
    slots[2 * s + 1] = row;
    size++;
    if (size > (mask + 1) / 2) {
      rehash(2 * (mask + 1));
    } else if (probes > LONG_PROBE && !scrambled) {
      scrambled = true;
      rehash(mask + 1);
    }
    return null;
  }

  /** Removes the row of {@code key}; returns it, or null when absent. */
  Row remove(Row key) {
    int s = find(key);
    if (s < 0) {
      return null;
    }
    Row before = (Row) slots[2 * s + 1];
    shiftBack(s);
    size--;
    return before;
  }

  /** Makes room for {@code n} rows in all, so a bulk load grows the table at most once. */
  void reserve(int n) {
    int cap = MIN_CAPACITY;
    while (cap / 2 < n) {
      cap <<= 1;
    }
    if (cap > mask + 1) {
      rehash(cap);
    }
  }

  void forEach(BiConsumer<Row, Row> action) {
    for (int i = 0; i < slots.length; i += 2) {
      if (slots[i] != null) {
        action.accept((Row) slots[i], (Row) slots[i + 1]);
      }
    }
  }

  List<Row> keys() {
    List<Row> out = new ArrayList<>(size);
    forEach((k, r) -> out.add(k));
    return out;
  }

  List<Row> rows() {
    List<Row> out = new ArrayList<>(size);
    forEach((k, r) -> out.add(r));
    return out;
  }

  /** A copy as a map (in this table's iteration order). */
  Map<Row, Row> toMap() {
    Map<Row, Row> out = new LinkedHashMap<>(size * 2);
    forEach(out::put);
    return out;
  }

  private int find(Row key) {
    for (int s = home(key.hashCode()); slots[2 * s] != null; s = (s + 1) & mask) {
      if (slots[2 * s].equals(key)) {
        return s;
      }
    }
    return -1;
  }

  /** Empties slot {@code gap} and moves back the entries whose probe run passes it. */
  private void shiftBack(int gap) {
    for (int s = (gap + 1) & mask; slots[2 * s] != null; s = (s + 1) & mask) {
      int home = home(slots[2 * s].hashCode());
      // The entry at s may fill the gap unless its home lies cyclically in (gap, s].
      boolean homeAfterGap = gap <= s ? gap < home && home <= s : gap < home || home <= s;
      if (!homeAfterGap) {
        slots[2 * gap] = slots[2 * s];
        slots[2 * gap + 1] = slots[2 * s + 1];
        gap = s;
      }
    }
    slots[2 * gap] = null;
    slots[2 * gap + 1] = null;
  }

  private int home(int h) {
    return scrambled ? h * 0x9E3779B9 >>> shift : (h ^ h >>> 16) & mask;
  }

  private void setCapacity(int capacity) {
    mask = capacity - 1;
    shift = Integer.numberOfLeadingZeros(capacity) + 1;
  }

  private void rehash(int capacity) {
    Object[] old = slots;
    slots = new Object[2 * capacity];
    setCapacity(capacity);
    for (int i = 0; i < old.length; i += 2) {
      if (old[i] != null) {
        int s = home(old[i].hashCode());
        while (slots[2 * s] != null) {
          s = (s + 1) & mask;
        }
        slots[2 * s] = old[i];
        slots[2 * s + 1] = old[i + 1];
      }
    }
  }
}
