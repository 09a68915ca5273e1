package dev.rivulet.query.face;

import dev.rivulet.engine.Row;
import dev.rivulet.query.Cursor;
import dev.rivulet.query.WindowDelta;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns one change of an ordered window, given as the rows that left their old positions and the
 * rows that took new positions (a positioned delta: every other row kept its place relative to
 * the rest), into {@link WindowDelta} steps whose indexes are each into the list as it stands:
 *
 * <ol>
 *   <li>LEAVE for each removed row whose key is not added again, by old position descending;
 *   <li>MOVE or UPDATE for each key both removed and added, by new position ascending;
 *   <li>ENTER for each added row whose key was not removed, by new position ascending.
 * </ol>
 *
 * <p>How the indexes of step 2 are found without replaying the list: after step 1 the list is the
 * stable rows (neither removed nor added) with the moving rows in between; after step 2 it is the
 * new window without the entering rows. A moving row is placed by the number of stable rows before
 * it (its gap) and, within a gap, rows already placed come before rows still to move (each
 * ordered by its own position). A Fenwick tree over these (gap, class, position) coordinates
 * counts the moving rows before a coordinate, so each step costs O(log m) for m moving rows.
 *
 * <p>Not thread-safe; one instance per computation.
 */
public final class WindowSteps {
  /** How a stored row is shown: its visible part, key and cursor. */
  public interface View {
    Row visible(Row stored);

    Row key(Row stored);

    Cursor cursor(Row stored);
  }

  private final View view;
  private final long version;
  private final Side removed = new Side();
  private final Side added = new Side();

  /** Rows with positions, in arrays (most changes name one or two rows). */
  private static final class Side {
    private Row[] rows = new Row[2];
    private int[] at = new int[2];
    private int size;

    void add(Row row, int position) {
      if (size == rows.length) {
        rows = Arrays.copyOf(rows, size * 2);
        at = Arrays.copyOf(at, size * 2);
      }
      rows[size] = row;
      at[size++] = position;
    }

    Row row(int i) {
      return rows[i];
    }

    int at(int i) {
      return at[i];
    }
  }

  public WindowSteps(View view, long version) {
    this.view = view;
    this.version = version;
  }

  /** A row left old position {@code at}; removals come by position descending. */
  public void removed(Row stored, int at) {
    removed.add(stored, at);
  }

  /** A row took new position {@code at}; additions come by position ascending. */
  public void added(Row stored, int at) {
    added.add(stored, at);
  }

  public List<WindowDelta> steps() {
    int r = removed.size;
    int a = added.size;
    if (r <= 1 && a <= 1) {
      return single(r == 1 ? removed.row(0) : null, a == 1 ? added.row(0) : null);
    }
    return general();
  }

  /**
   * {@link #steps()} by the general rules even for a one-row change (tests check the one-row path,
   * which returns an immutable list, against it).
   */
  public List<WindowDelta> general() {
    int r = removed.size;
    int a = added.size;
    List<WindowDelta> out = new ArrayList<>(Math.max(r, a));
    Map<Row, Integer> addedByKey = new HashMap<>();
    for (int i = 0; i < a; i++) {
      addedByKey.put(view.key(added.row(i)), i);
    }
    int[] pairOfRemoved = new int[r]; // the added index of the same key, or -1
    boolean[] addedPaired = new boolean[a];
    int[] leaves = new int[r];
    int nLeaves = 0;
    for (int i = 0; i < r; i++) {
      Integer j = addedByKey.get(view.key(removed.row(i)));
      pairOfRemoved[i] = j == null ? -1 : j;
      if (j != null) {
        addedPaired[j] = true;
      } else {
        Row old = removed.row(i);
        Row shown = view.visible(old);
        out.add(new WindowDelta(WindowDelta.Op.LEAVE, shown, shown, view.key(old), removed.at(i), -1,
            view.cursor(old), version));
        leaves[nLeaves++] = removed.at(i);
      }
    }
    int[] enters = new int[a];
    int nEnters = 0;
    for (int j = 0; j < a; j++) {
      if (!addedPaired[j]) {
        enters[nEnters++] = added.at(j);
      }
    }
    moves(pairOfRemoved, Arrays.copyOf(leaves, nLeaves), Arrays.copyOf(enters, nEnters), out);
    for (int j = 0; j < a; j++) {
      if (!addedPaired[j]) {
        Row row = added.row(j);
        out.add(new WindowDelta(WindowDelta.Op.ENTER, view.visible(row), null, view.key(row), -1, added.at(j),
            view.cursor(row), version));
      }
    }
    return out;
  }

  /**
   * The usual change of one row, without the tables of the general rules (which give the same
   * steps): a key both removed and added moves or updates from its old position to its new one.
   */
  private List<WindowDelta> single(Row gone, Row come) {
    Row oldKey = gone == null ? null : view.key(gone);
    Row newKey = come == null ? null : view.key(come);
    if (gone != null && come != null && oldKey.equals(newKey)) {
      int from = removed.at(0);
      int to = added.at(0);
      return List.of(new WindowDelta(from == to ? WindowDelta.Op.UPDATE : WindowDelta.Op.MOVE, view.visible(come),
          view.visible(gone), newKey, from, to, view.cursor(come), version));
    }
    WindowDelta leave = null;
    WindowDelta enter = null;
    if (gone != null) {
      Row shown = view.visible(gone);
      leave = new WindowDelta(WindowDelta.Op.LEAVE, shown, shown, oldKey, removed.at(0), -1, view.cursor(gone),
          version);
    }
    if (come != null) {
      enter = new WindowDelta(WindowDelta.Op.ENTER, view.visible(come), null, newKey, -1, added.at(0),
          view.cursor(come), version);
    }
    return leave == null ? enter == null ? List.of() : List.of(enter) : enter == null ? List.of(leave)
        : List.of(leave, enter);
  }

  private void moves(int[] pairOfRemoved, int[] leaves, int[] enters, List<WindowDelta> out) {
    Arrays.sort(leaves);
    Arrays.sort(enters);
    int m = 0;
    for (int p : pairOfRemoved) {
      m += p >= 0 ? 1 : 0;
    }
    if (m == 0) {
      return;
    }
    int[] from = new int[m]; // removed index
    int[] to = new int[m]; // added index
    int[] oldPos = new int[m]; // in the list after the leaves
    int[] newPos = new int[m]; // in the new list without the entering rows
    int k = 0;
    for (int i = 0; i < pairOfRemoved.length; i++) {
      if (pairOfRemoved[i] >= 0) {
        from[k] = i;
        to[k] = pairOfRemoved[i];
        oldPos[k] = removed.at(i) - countBelow(leaves, removed.at(i));
        newPos[k] = added.at(to[k]) - countBelow(enters, added.at(to[k]));
        k++;
      }
    }
    int[] oldSorted = oldPos.clone();
    int[] newSorted = newPos.clone();
    Arrays.sort(oldSorted);
    Arrays.sort(newSorted);
    long[] waiting = new long[m]; // coordinate of each moving row before it moves
    long[] placed = new long[m]; // and after
    long[] coords = new long[2 * m];
    for (int i = 0; i < m; i++) {
      waiting[i] = coordinate(oldPos[i] - countBelow(oldSorted, oldPos[i]), 1, oldPos[i]);
      placed[i] = coordinate(newPos[i] - countBelow(newSorted, newPos[i]), 0, newPos[i]);
      coords[2 * i] = waiting[i];
      coords[2 * i + 1] = placed[i];
    }
    Arrays.sort(coords);
    int[] tree = new int[2 * m + 1];
    for (int i = 0; i < m; i++) {
      add(tree, Arrays.binarySearch(coords, waiting[i]), 1);
    }
    Integer[] byNew = new Integer[m];
    for (int i = 0; i < m; i++) {
      byNew[i] = i;
    }
    Arrays.sort(byNew, (x, y) -> Integer.compare(newPos[x], newPos[y]));
    for (int i : byNew) {
      int w = Arrays.binarySearch(coords, waiting[i]);
      int oldIndex = gap(waiting[i]) + below(tree, w);
      add(tree, w, -1);
      int p = Arrays.binarySearch(coords, placed[i]);
      int newIndex = gap(placed[i]) + below(tree, p);
      add(tree, p, 1);
      Row before = removed.row(from[i]);
      Row after = added.row(to[i]);
      WindowDelta.Op op = oldIndex == newIndex ? WindowDelta.Op.UPDATE : WindowDelta.Op.MOVE;
      out.add(new WindowDelta(op, view.visible(after), view.visible(before), view.key(after), oldIndex, newIndex,
          view.cursor(after), version));
    }
  }

  /** (gap, class, position) packed so that longs compare as the tuples do. */
  private static long coordinate(int gap, int cls, int position) {
    return ((long) gap << 32) | ((long) cls << 31) | position;
  }

  private static int gap(long coordinate) {
    return (int) (coordinate >>> 32);
  }

  /** How many of the sorted {@code values} are below {@code v}. */
  private static int countBelow(int[] values, int v) {
    int lo = 0;
    int hi = values.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (values[mid] < v) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  private static void add(int[] tree, int index, int delta) {
    for (int i = index + 1; i < tree.length; i += i & -i) {
      tree[i] += delta;
    }
  }

  /** The count at coordinates below {@code index}. */
  private static int below(int[] tree, int index) {
    int s = 0;
    for (int i = index; i > 0; i -= i & -i) {
      s += tree[i];
    }
    return s;
  }

  /**
   * The steps that take window {@code before} to window {@code after} (lists of stored rows in
   * order): rows with the same key and row that keep their relative order (a longest increasing
   * subsequence of old positions) stay; every other row leaves, enters, moves or updates.
   */
  public static List<WindowDelta> diff(List<Row> before, List<Row> after, View view, long version) {
    Map<Row, Integer> oldIndex = new HashMap<>();
    for (int i = 0; i < before.size(); i++) {
      oldIndex.put(view.key(before.get(i)), i);
    }
    int[] seq = new int[after.size()]; // old index of each new row kept as is, else -1
    for (int j = 0; j < after.size(); j++) {
      Integer i = oldIndex.get(view.key(after.get(j)));
      seq[j] = i != null && before.get(i).equals(after.get(j)) ? i : -1;
    }
    boolean[] stableNew = longestIncreasing(seq);
    boolean[] stableOld = new boolean[before.size()];
    for (int j = 0; j < seq.length; j++) {
      if (stableNew[j]) {
        stableOld[seq[j]] = true;
      }
    }
    WindowSteps steps = new WindowSteps(view, version);
    for (int i = before.size() - 1; i >= 0; i--) {
      if (!stableOld[i]) {
        steps.removed(before.get(i), i);
      }
    }
    for (int j = 0; j < after.size(); j++) {
      if (!stableNew[j]) {
        steps.added(after.get(j), j);
      }
    }
    return steps.steps();
  }

  /** Marks a longest strictly increasing subsequence of the non-negative entries. */
  static boolean[] longestIncreasing(int[] seq) {
    int n = seq.length;
    int[] tailIdx = new int[n];
    int[] prev = new int[n];
    int len = 0;
    for (int j = 0; j < n; j++) {
      if (seq[j] < 0) {
        continue;
      }
      int lo = 0;
      int hi = len;
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (seq[tailIdx[mid]] < seq[j]) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      prev[j] = lo > 0 ? tailIdx[lo - 1] : -1;
      tailIdx[lo] = j;
      len = Math.max(len, lo + 1);
    }
    boolean[] out = new boolean[n];
    for (int j = len > 0 ? tailIdx[len - 1] : -1; j >= 0; j = prev[j]) {
      out[j] = true;
    }
    return out;
  }

  /** The steps that rebuild {@code window} from nothing: RESET, then ENTER per row in order. */
  public static List<WindowDelta> reset(List<Row> window, View view, long version) {
    List<WindowDelta> out = new ArrayList<>(window.size() + 1);
    out.add(new WindowDelta(WindowDelta.Op.RESET, null, null, null, -1, -1, null, version));
    for (int i = 0; i < window.size(); i++) {
      Row row = window.get(i);
      out.add(new WindowDelta(WindowDelta.Op.ENTER, view.visible(row), null, view.key(row), -1, i,
          view.cursor(row), version));
    }
    return out;
  }
}
