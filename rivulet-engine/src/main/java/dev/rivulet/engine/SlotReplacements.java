package dev.rivulet.engine;

import dev.rivulet.engine.state.OrderStatisticTree;
import java.util.Arrays;

/**
 * A top-K run's rows replaced by rows that take their ranks (an update of columns the order does
 * not read first, e.g. parents' include values): as many retractions as insertions, each of weight
 * one, every insertion fitting one retracted row's slot in the tree ({@link
 * OrderStatisticTree#replace}), paired in input order. Every other row keeps its rank, so the
 * window's change is each old row out and its new one in at that position. When some retraction
 * finds no insertion to fit its slot, the pairs made so far are swapped back and nothing changed.
 *
 * <p>Owned by one {@link TopKOperator}: its arrays are reused from run to run, confined to the
 * thread that runs the graph.
 */
final class SlotReplacements {
  private final boolean[] paired;
  private final Row[] olds;
  private final Row[] nows;
  private final long[] ranks;
  private int pairs;
  /** Runs whose pairs were swapped back (for tests). */
  long swappedBack;

  /** For runs of at most {@code max} changes. */
  SlotReplacements(int max) {
    paired = new boolean[max];
    olds = new Row[max / 2];
    nows = new Row[max / 2];
    ranks = new long[max / 2];
  }

  /**
   * Replaces {@code changes}' retracted rows by its inserted ones in {@code tree}, each in its
   * slot; false (the tree as it was) unless every change takes part. Then {@link #emit} gives the
   * window's change and {@link #pairs} how many rows were replaced.
   */
  boolean replace(OrderStatisticTree<Row> tree, Delta changes) {
    pairs = 0;
    int n = changes.size;
    if (n % 2 != 0 || n > paired.length || !balanced(changes)) {
      return false;
    }
    Arrays.fill(paired, 0, n, false);
    for (int i = 0; i < n; i++) {
      if (changes.weights[i] < 0 && !pairWith(tree, changes, i)) {
        for (int k = pairs - 1; k >= 0; k--) {
          tree.replace(nows[k], olds[k]); // its slot again: it fitted there before
        }
        swappedBack += pairs > 0 ? 1 : 0;
        clear();
        return false;
      }
    }
    return true;
  }

  /** Rows replaced by the last successful {@link #replace}. */
  int pairs() {
    return pairs;
  }

  /** Weights of one, as many retractions as insertions, no row both retracted and inserted. */
  private static boolean balanced(Delta changes) {
    int n = changes.size;
    int outs = 0;
    for (int i = 0; i < n; i++) {
      long w = changes.weights[i];
      if (w != 1 && w != -1) {
        return false;
      }
      outs += w < 0 ? 1 : 0;
    }
    if (2 * outs != n) {
      return false;
    }
    for (int i = 0; i < n; i++) {
      for (int j = 0; changes.weights[i] < 0 && j < n; j++) {
        if (changes.weights[j] > 0 && changes.rows[i].equals(changes.rows[j])) {
          return false; // a row out and in again: consolidated away by the general path
        }
      }
    }
    return true;
  }

  /** Replaces retracted row {@code i} by the first unpaired insertion that fits its slot; whether one did. */
  private boolean pairWith(OrderStatisticTree<Row> tree, Delta changes, int i) {
    for (int j = 0; j < changes.size; j++) {
      if (changes.weights[j] > 0 && !paired[j]) {
        long rank = tree.replace(changes.rows[i], changes.rows[j]);
        if (rank >= 0) {
          paired[j] = true;
          olds[pairs] = changes.rows[i];
          nows[pairs] = changes.rows[j];
          ranks[pairs] = rank;
          pairs++;
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Emits the window {@code [offset, end)}'s change of the last {@link #replace}: the old rows at
   * their positions descending, then the new ones at the same positions ascending.
   */
  void emit(long offset, long end, WindowDiff.Sink sink) {
    sortByRank();
    for (int k = pairs - 1; k >= 0; k--) {
      if (ranks[k] >= offset && ranks[k] < end) {
        sink.accept(olds[k], -1, (int) (ranks[k] - offset));
      }
    }
    for (int k = 0; k < pairs; k++) {
      if (ranks[k] >= offset && ranks[k] < end) {
        sink.accept(nows[k], 1, (int) (ranks[k] - offset));
      }
    }
    clear();
  }

  private void sortByRank() {
    for (int k = 1; k < pairs; k++) {
      for (int m = k; m > 0 && ranks[m - 1] > ranks[m]; m--) {
        long r = ranks[m];
        ranks[m] = ranks[m - 1];
        ranks[m - 1] = r;
        Row o = olds[m];
        olds[m] = olds[m - 1];
        olds[m - 1] = o;
        Row w = nows[m];
        nows[m] = nows[m - 1];
        nows[m - 1] = w;
      }
    }
  }

  private void clear() {
    Arrays.fill(olds, 0, pairs, null);
    Arrays.fill(nows, 0, pairs, null);
  }
}
