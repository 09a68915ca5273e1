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
  private final List<Row> removedRows = new ArrayList<>();
  private final List<Integer> removedAt = new ArrayList<>();
  private final List<Row> addedRows = new ArrayList<>();
  private final List<Integer> addedAt = new ArrayList<>();

  public WindowSteps(View view, long version) {
    this.view = view;
    this.version = version;
  }

  /** A row left old position {@code at}; removals come by position descending. */
  public void removed(Row stored, int at) {
    removedRows.add(stored);
    removedAt.add(at);
  }

  /** A row took new position {@code at}; additions come by position ascending. */
  public void added(Row stored, int at) {
    addedRows.add(stored);
    addedAt.add(at);
  }

  public List<WindowDelta> steps() {
    int r = removedRows.size();
    int a = addedRows.size();
    if (r <= 1 && a <= 1) {
      return single(r == 1 ? removedRows.get(0) : null, a == 1 ? addedRows.get(0) : null);
    }
    return general();
  }

  /**
   * {@link #steps()} by the general rules even for a one-row change (tests check the one-row path,
   * which returns an immutable list, against it).
   */
  public List<WindowDelta> general() {
    int r = removedRows.size();
    int a = addedRows.size();
    List<WindowDelta> out = new ArrayList<>(Math.max(r, a));
    Map<Row, Integer> addedByKey = new HashMap<>();
    for (int i = 0; i < a; i++) {
      addedByKey.put(view.key(addedRows.get(i)), i);
    }
    int[] pairOfRemoved = new int[r]; // the added index of the same key, or -1
    boolean[] addedPaired = new boolean[a];
    int[] leaves = new int[r];
    int nLeaves = 0;
    for (int i = 0; i < r; i++) {
      Integer j = addedByKey.get(view.key(removedRows.get(i)));
      pairOfRemoved[i] = j == null ? -1 : j;
      if (j != null) {
        addedPaired[j] = true;
      } else {
        Row old = removedRows.get(i);
        Row shown = view.visible(old);
        out.add(new WindowDelta(WindowDelta.Op.LEAVE, shown, shown, view.key(old), removedAt.get(i), -1,
            view.cursor(old), version));
        leaves[nLeaves++] = removedAt.get(i);
      }
    }
    int[] enters = new int[a];
    int nEnters = 0;
    for (int j = 0; j < a; j++) {
      if (!addedPaired[j]) {
        enters[nEnters++] = addedAt.get(j);
      }
    }
    moves(pairOfRemoved, Arrays.copyOf(leaves, nLeaves), Arrays.copyOf(enters, nEnters), out);
    for (int j = 0; j < a; j++) {
      if (!addedPaired[j]) {
        Row row = addedRows.get(j);
        out.add(new WindowDelta(WindowDelta.Op.ENTER, view.visible(row), null, view.key(row), -1, addedAt.get(j),
            view.cursor(row), version));
      }
    }
    return out;
  }

  /**
   * The usual change of one row, without the tables of the general rules (which give the same
   * steps): a key both removed and added moves or updates from its old position to its new one.
   */
  private List<WindowDelta> single(Row removed, Row added) {
    Row oldKey = removed == null ? null : view.key(removed);
    Row newKey = added == null ? null : view.key(added);
    if (removed != null && added != null && oldKey.equals(newKey)) {
      int from = removedAt.get(0);
      int to = addedAt.get(0);
      return List.of(new WindowDelta(from == to ? WindowDelta.Op.UPDATE : WindowDelta.Op.MOVE, view.visible(added),
          view.visible(removed), newKey, from, to, view.cursor(added), version));
    }
    WindowDelta leave = null;
    WindowDelta enter = null;
    if (removed != null) {
      Row shown = view.visible(removed);
      leave = new WindowDelta(WindowDelta.Op.LEAVE, shown, shown, oldKey, removedAt.get(0), -1, view.cursor(removed),
          version);
    }
    if (added != null) {
      enter = new WindowDelta(WindowDelta.Op.ENTER, view.visible(added), null, newKey, -1, addedAt.get(0),
          view.cursor(added), version);
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
        oldPos[k] = removedAt.get(i) - countBelow(leaves, removedAt.get(i));
        newPos[k] = addedAt.get(to[k]) - countBelow(enters, addedAt.get(to[k]));
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
      Row before = removedRows.get(from[i]);
      Row after = addedRows.get(to[i]);
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
  private static boolean[] longestIncreasing(int[] seq) {
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
