package dev.rivulet.engine;

import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;

/**
 * The rows that may enter or leave one window {@code [offset, end)} of ranks during a run, each
 * with its occurrences before and after ({@code start}, {@code count}), and the positioned change
 * they make: the copies that leave, at their old positions in descending order, then the copies
 * that enter, at their new positions in ascending order.
 *
 * <p>Reusable scratch, cleared per partition and run; owned by one {@link TopKOperator} and
 * confined to the graph's thread.
 */
final class WindowDiff {
  /** A row with its occurrences in the old and new rank order. */
  static final class Candidate {
    Row row;
    long oldStart;
    long oldCount;
    long newStart;
    long newCount;
    long moving; // copies leaving (removals) or entering (insertions)
  }

  /** Receives one positioned entry. */
  @FunctionalInterface
  interface Sink {
    void accept(Row row, long weight, int position);
  }

  /** Up to this many entries, a sort is by insertion (see {@link #sortForEmission}). */
  static final int SMALL_SORT = 16;
  // The emission's orders for more entries, made when first needed: each lambda costs a fresh JVM
  // its linkage.
  private Comparator<Candidate> leavingOrder;
  private Comparator<Candidate> enteringOrder;

  private final long offset;
  private final long end;
  private Candidate[] items = new Candidate[16];
  private int size;
  private Candidate[] removed = new Candidate[4];
  private Candidate[] inserted = new Candidate[4];
  private final HashMap<Row, Candidate> byRow = new HashMap<>(); // used once a walk meets more than LINEAR rows
  private static final int LINEAR = 8; // up to this many candidates, addOrGet scans them
  private boolean mapped; // the candidates are in byRow
  /** Walks whose candidates went into the map (for tests). */
  long mappedWalks;
  /** Whether few entries are sorted by insertion, and the sorts of several entries that were not (for tests). */
  boolean insertionSorts = true;
  long generalSorts;

  WindowDiff(long offset, long end) {
    this.offset = offset;
    this.end = end;
  }

  void clear() {
    for (int i = 0; i < size; i++) {
      items[i].row = null;
    }
    size = 0;
    if (mapped) {
      byRow.clear();
      mapped = false;
    }
  }

  int size() {
    return size;
  }

  /** A new candidate for {@code row}, all counts zero. */
  Candidate add(Row row) {
    if (size == items.length) {
      items = Arrays.copyOf(items, size * 2);
    }
    Candidate c = items[size];
    if (c == null) {
      c = new Candidate();
      items[size] = c;
    }
    size++;
    c.row = row;
    c.oldStart = 0;
    c.oldCount = 0;
    c.newStart = 0;
    c.newCount = 0;
    return c;
  }

  /**
   * The candidate for {@code row}, created if absent (for walks that meet a row twice; a walk's
   * candidates all come from here). A few are scanned; more go into a map.
   */
  Candidate addOrGet(Row row) {
    if (!mapped) {
      for (int i = 0; i < size; i++) {
        if (items[i].row.equals(row)) {
          return items[i];
        }
      }
      Candidate c = add(row);
      if (size > LINEAR) {
        mapped = true;
        mappedWalks++;
        for (int i = 0; i < size; i++) {
          byRow.put(items[i].row, items[i]);
        }
      }
      return c;
    }
    Candidate c = byRow.get(row);
    if (c == null) {
      c = add(row);
      byRow.put(row, c);
    }
    return c;
  }

  /** Occurrences of a run {@code [start, start + count)} that fall in the window. */
  long inWindow(long start, long count) {
    return count == 0 ? 0 : Math.max(0, Math.min(start + count, end) - Math.max(start, offset));
  }

  /** Emits the positioned change of the window. */
  void emit(Sink sink) {
    int nr = 0;
    int ni = 0;
    for (int i = 0; i < size; i++) {
      Candidate c = items[i];
      long before = inWindow(c.oldStart, c.oldCount);
      long after = inWindow(c.newStart, c.newCount);
      if (before != after) {
        c.moving = Math.abs(before - after);
        if (before > after) {
          removed = put(removed, nr++, c);
        } else {
          inserted = put(inserted, ni++, c);
        }
      }
    }
    sortForEmission(removed, nr, true);
    sortForEmission(inserted, ni, false);
    for (int i = 0; i < nr; i++) {
      Candidate c = removed[i];
      sink.accept(c.row, -c.moving, (int) (Math.max(c.oldStart, offset) - offset));
      removed[i] = null;
    }
    for (int i = 0; i < ni; i++) {
      Candidate c = inserted[i];
      sink.accept(c.row, c.moving, (int) (Math.max(c.newStart, offset) - offset));
      inserted[i] = null;
    }
  }

  /**
   * Sorts {@code a[0..n)} into emission order: copies leaving by old start, descending, copies
   * entering by new start, ascending (the starts of either kind are distinct: each copy was, or
   * is, present). A run moves a few rows, sorted in place by insertion: the update path then runs
   * no shared JDK sort, whose compiled code the application's other sorts may have deoptimised or
   * made megamorphic.
   */
  private void sortForEmission(Candidate[] a, int n, boolean leaving) {
    if (n > SMALL_SORT || !insertionSorts) {
      generalSorts += n > 1 ? 1 : 0;
      Arrays.sort(a, 0, n, generalOrder(leaving));
      return;
    }
    for (int i = 1; i < n; i++) {
      Candidate c = a[i];
      long key = emissionKey(c, leaving);
      int j = i - 1;
      for (; j >= 0 && emissionKey(a[j], leaving) > key; j--) {
        a[j + 1] = a[j];
      }
      a[j + 1] = c;
    }
  }

  private static long emissionKey(Candidate c, boolean leaving) {
    return leaving ? -c.oldStart : c.newStart;
  }

  private Comparator<Candidate> generalOrder(boolean leaving) {
    if (leavingOrder == null) {
      leavingOrder = (x, y) -> Long.compare(emissionKey(x, true), emissionKey(y, true));
      enteringOrder = (x, y) -> Long.compare(emissionKey(x, false), emissionKey(y, false));
    }
    return leaving ? leavingOrder : enteringOrder;
  }

  private static Candidate[] put(Candidate[] a, int i, Candidate c) {
    if (i == a.length) {
      a = Arrays.copyOf(a, i * 2);
    }
    a[i] = c;
    return a;
  }
}
