package dev.rivulet.engine;

import java.util.Arrays;
import java.util.HashMap;

/**
 * Window lists: over the output of a partitioned {@link TopKOperator}, one row per partition whose
 * window holds rows, the partition's values followed by its window as a {@link RowList} of each
 * row's {@code element} columns, in window order (the reduction an array include makes of its
 * child's ordered rows, {@link Stream#windowLists}).
 *
 * <p>Incrementally, the top-K's positioned changes of a partition (retractions at old positions
 * descending, then insertions at new positions ascending, see {@link ZSet}) are spliced into the
 * partition's window as last emitted: a row that stays keeps its element row (the same instance),
 * a new one is projected once, and the partition's last row is retracted and the new one inserted
 * (nothing when no element changed). No group is sorted or held as a bag: the work is the window's
 * length per changed partition. A retraction that does not match the row at its position is an
 * {@link InvariantViolation}.
 *
 * <p>Retains each non-empty partition's window rows, element rows and last output row. Confined
 * to the thread that runs the graph.
 */
final class WindowListOperator extends Operator {
  private final int[] partition;
  private final int[] element;
  private final HashMap<Row, Window> windows = new HashMap<>();
  private final KeyProbe probe = new KeyProbe();
  private long retainedRows;

  /** One partition's window as last emitted. */
  private static final class Window {
    final Row key; // the partition's values
    Row[] rows = new Row[4]; // the window's rows, in order
    Row[] elements = new Row[4]; // their element rows
    int n;
    Row out; // the row last emitted, or null

    Window(Row key) {
      this.key = key;
    }
  }

  /** A new {@code WindowListOperator} as an {@link Operator} (see {@link Stream}: no operator class is loaded until a graph uses it). */
  static Operator of(Operator in, int[] partition, int[] element, Schema out) {
    return new WindowListOperator(in, partition, element, out);
  }

  WindowListOperator(Operator in, int[] partition, int[] element, Schema out) {
    super("window-list", out, in);
    this.partition = partition;
    this.element = element;
  }

  @Override
  void step() {
    Delta in = inputs[0];
    examined += in.size;
    if (in.size > 0 && in.positions == null) {
      throw new InvariantViolation(name + ": its input carries no positions");
    }
    int i = 0;
    while (i < in.size) {
      Window w = windowOf(in.rows[i]);
      int before = w.n;
      RowList kept = w.out == null ? null : (RowList) w.out.canonicalAt(partition.length);
      // this partition's run of consecutive entries (a top-K emits each partition's changes together)
      for (; i < in.size && KeyProbe.matches(w.key, in.rows[i], partition); i++) {
        splice(w, in.rows[i], in.weights[i], in.positions[i]);
      }
      retainedRows += w.n - before;
      emitChange(w, kept);
    }
    probe.clear();
  }

  /** The window of {@code row}'s partition, made empty when it has none. */
  private Window windowOf(Row row) {
    Window w = windows.get(probe.of(row, partition));
    if (w == null) {
      w = new Window(probe.project());
      windows.put(w.key, w);
    }
    return w;
  }

  /** Applies one positioned entry to the window: |weight| removals or insertions at {@code at}. */
  private void splice(Window w, Row row, long weight, int at) {
    if (at < 0) {
      throw new InvariantViolation(name + ": entry " + row + " x" + weight + " has no position");
    }
    for (long k = 0; k < Math.abs(weight); k++) {
      if (weight < 0) {
        if (at >= w.n || (w.rows[at] != row && !w.rows[at].equals(row))) {
          throw new InvariantViolation(name + ": retraction of " + row + " at " + at + " does not match "
              + (at < w.n ? w.rows[at] : "the end of a window of " + w.n));
        }
        System.arraycopy(w.rows, at + 1, w.rows, at, w.n - at - 1);
        System.arraycopy(w.elements, at + 1, w.elements, at, w.n - at - 1);
        w.n--;
        w.rows[w.n] = null;
        w.elements[w.n] = null;
      } else {
        int p = (int) (at + k);
        if (p > w.n) {
          throw new InvariantViolation(name + ": insertion of " + row + " at " + p + " is past the end of a window of "
              + w.n);
        }
        if (w.n == w.rows.length) {
          w.rows = Arrays.copyOf(w.rows, w.n * 2);
          w.elements = Arrays.copyOf(w.elements, w.n * 2);
        }
        System.arraycopy(w.rows, p, w.rows, p + 1, w.n - p);
        System.arraycopy(w.elements, p, w.elements, p + 1, w.n - p);
        w.rows[p] = row;
        w.elements[p] = k > 0 ? w.elements[p - 1] : row.project(element);
        w.n++;
      }
    }
  }

  /** Emits the window's new row in place of its last one, unless its elements are those of {@code kept}. */
  private void emitChange(Window w, RowList kept) {
    if (kept != null && kept.size() == w.n && sameElements(kept, w.elements)) {
      return;
    }
    if (w.out != null) {
      emit(w.out, -1);
    }
    if (w.n == 0) {
      windows.remove(w.key);
      w.out = null;
      return;
    }
    examined += w.n;
    Object[] values = new Object[partition.length + 1];
    for (int k = 0; k < partition.length; k++) {
      values[k] = w.key.canonicalAt(k);
    }
    values[partition.length] = RowList.wrap(Arrays.copyOf(w.elements, w.n));
    w.out = Row.wrap(values);
    emit(w.out, 1);
  }

  private static boolean sameElements(RowList kept, Row[] now) {
    for (int k = 0; k < kept.size(); k++) {
      if (kept.get(k) != now[k]) {
        return false;
      }
    }
    return true;
  }

  @Override
  long retained() {
    return retainedRows + windows.size();
  }
}
