package dev.rivulet.query.state;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.internal.EngineAccess;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Objects;

/**
 * A collection's keys touched in the running transaction, each with its stored row before the
 * transaction and now, in the order first touched: the net change per key its subscribers are
 * handed at publication. Flat arrays reused from one transaction to the next: staging a change
 * makes no entry object, and an entry is found by comparing key values in place (no key row)
 * while a transaction touches at most {@value #SCAN} keys; beyond that a map of key rows finds
 * them.
 *
 * <p>An entry's key is the key row given when it was first staged, or, when none was, the key
 * columns of the stored row it was first staged with (a stored row holds its key at {@code
 * storedKeys}; an entry keeps that row, as a key inserted and deleted in one transaction ends with
 * no row before or after).
 *
 * <p>Not thread-safe: owned by one collection, guarded by its database's monitor.
 */
public final class StagedChanges {
  private static final EngineAccess ENGINE = EngineAccess.get();
  static final int SCAN = 8;
  private static final int KEEP = 1024;
  private final int[] storedKeys;
  private Row[] keys = new Row[4]; // the key row given, or null
  private Row[] refs = new Row[4]; // a stored row holding the key
  private Row[] before = new Row[4];
  private Row[] after = new Row[4];
  private int size;
  private HashMap<Row, Integer> index; // key row -> entry, while more than SCAN entries

  /** @param storedKeys where a stored row holds its key */
  public StagedChanges(int[] storedKeys) {
    this.storedKeys = storedKeys;
  }

  /**
   * Records that the stored row of a key went from {@code before} to {@code after} (either null
   * for absent, not both); {@code key} the key row, or null to take it from the stored rows. A
   * key already staged keeps its first {@code before} and takes this {@code after}.
   */
  public void stage(Row key, Row before, Row after) {
    Row stored = after != null ? after : before;
    int e = find(key, stored);
    if (e >= 0) {
      this.after[e] = after;
      return;
    }
    if (size == keys.length) {
      keys = Arrays.copyOf(keys, size * 2);
      refs = Arrays.copyOf(refs, size * 2);
      this.before = Arrays.copyOf(this.before, size * 2);
      this.after = Arrays.copyOf(this.after, size * 2);
    }
    keys[size] = key;
    refs[size] = stored;
    this.before[size] = before;
    this.after[size] = after;
    if (index != null) {
      index.put(key(size), size);
    } else if (size == SCAN) {
      index = new HashMap<>();
      for (int i = 0; i <= size; i++) {
        index.put(key(i), i);
      }
    }
    size++;
  }

  /** Whether entries are found by a map of key rows (more than {@value #SCAN} staged), not by scanning (for tests). */
  boolean indexed() {
    return index != null;
  }

  public int size() {
    return size;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  /** Entry {@code i}'s stored row before the transaction, or null. */
  public Row before(int i) {
    return before[i];
  }

  /** Entry {@code i}'s stored row now, or null. */
  public Row after(int i) {
    return after[i];
  }

  /** Entry {@code i}'s key row (projected from its stored row when none was given). */
  public Row key(int i) {
    return keys[i] != null ? keys[i] : refs[i].project(storedKeys);
  }

  /** Forgets every entry; arrays grown by a large transaction shrink back. */
  public void clear() {
    if (keys.length > KEEP) {
      keys = new Row[4];
      refs = new Row[4];
      before = new Row[4];
      after = new Row[4];
    } else {
      Arrays.fill(keys, 0, size, null);
      Arrays.fill(refs, 0, size, null);
      Arrays.fill(before, 0, size, null);
      Arrays.fill(after, 0, size, null);
    }
    index = null;
    size = 0;
  }

  /** The entry of the key {@code key} (or, when null, {@code stored}'s key columns) names, or -1. */
  private int find(Row key, Row stored) {
    if (index != null) {
      Integer e = index.get(key != null ? key : stored.project(storedKeys));
      return e == null ? -1 : e;
    }
    for (int i = 0; i < size; i++) {
      if (sameKey(i, key, stored)) {
        return i;
      }
    }
    return -1;
  }

  private boolean sameKey(int i, Row key, Row stored) {
    Row mine = keys[i];
    for (int k = 0; k < storedKeys.length; k++) {
      Object a = ENGINE.canonicalAt(mine != null ? mine : refs[i], mine != null ? k : storedKeys[k]);
      Object b = ENGINE.canonicalAt(key != null ? key : stored, key != null ? k : storedKeys[k]);
      if (!Objects.equals(a, b)) {
        return false;
      }
    }
    return true;
  }
}
