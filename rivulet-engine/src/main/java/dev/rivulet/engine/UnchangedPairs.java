package dev.rivulet.engine;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Finds, in a positioned change of an unpartitioned window (see {@link ZSet}: retractions in
 * descending old position, then insertions in ascending new position), the pairs that are no
 * change: a retraction and an insertion of equal rows with opposite weights, at the same index
 * among the rows the change keeps. Dropping such a pair leaves a change that still splices the
 * old window into the new one: the row stays where it was, and every other position is unchanged
 * (a retraction's refers to the old window, an insertion's to the new one). Pairs at one index
 * are dropped only together and only when they keep their order among themselves.
 */
final class UnchangedPairs {
  private static final int SCAN = 8; // up to this many retractions are searched linearly

  private UnchangedPairs() {}

  /** Whether the change holds both a retraction and an insertion. */
  static boolean mayHave(long[] weights, int n) {
    return n >= 2 && weights[0] < 0 && weights[n - 1] > 0;
  }

  /** Which entries to drop, or null when none. */
  static boolean[] find(Row[] rows, long[] weights, int[] positions, int n) {
    int r = 0; // retractions come first
    while (r < n && weights[r] < 0) {
      r++;
    }
    if (r == 0 || r == n) {
      return null;
    }
    // Kept index of a retraction: its position less the occurrences retracted before it, which
    // are the ones after it in the (descending) list; of an insertion: likewise, ascending.
    long[] index = new long[n];
    long below = 0;
    for (int i = r - 1; i >= 0; i--) {
      index[i] = positions[i] - below;
      below -= weights[i];
    }
    below = 0;
    for (int i = r; i < n; i++) {
      index[i] = positions[i] - below;
      below += weights[i];
    }
    int[] partner = new int[n];
    Arrays.fill(partner, -1);
    Map<Row, Integer> byRow = r > SCAN ? retractionsByRow(rows, r) : null;
    int pairs = 0;
    for (int i = r; i < n; i++) {
      int j = byRow == null ? scan(rows, r, rows[i]) : byRow.getOrDefault(rows[i], -1);
      if (j >= 0 && partner[j] < 0 && weights[j] == -weights[i] && index[j] == index[i]) {
        partner[j] = i;
        partner[i] = j;
        pairs++;
      }
    }
    if (pairs == 0) {
      return null;
    }
    return drops(index, partner, positions, n);
  }

  /**
   * Marks the paired entries, but not a group of pairs at one kept index whose rows are in another
   * order among themselves in the new window than in the old one.
   */
  private static boolean[] drops(long[] index, int[] partner, int[] positions, int n) {
    Integer[] pairs = new Integer[n];
    int k = 0;
    for (int i = 0; i < n; i++) {
      if (partner[i] > i) { // each pair once, at its retraction
        pairs[k++] = i;
      }
    }
    Arrays.sort(pairs, 0, k, (a, b) -> index[a] != index[b] ? Long.compare(index[a], index[b])
        : Integer.compare(positions[a], positions[b]));
    boolean[] drop = new boolean[n];
    boolean any = false;
    for (int g = 0, e; g < k; g = e) {
      boolean sameOrder = true;
      e = g + 1;
      while (e < k && index[pairs[e]] == index[pairs[g]]) {
        sameOrder &= positions[partner[pairs[e]]] > positions[partner[pairs[e - 1]]];
        e++;
      }
      for (int x = g; sameOrder && x < e; x++) {
        drop[pairs[x]] = true;
        drop[partner[pairs[x]]] = true;
        any = true;
      }
    }
    return any ? drop : null;
  }

  private static int scan(Row[] rows, int r, Row row) {
    for (int j = 0; j < r; j++) {
      if (rows[j].equals(row)) {
        return j;
      }
    }
    return -1;
  }

  /** The first retraction of each row. */
  private static Map<Row, Integer> retractionsByRow(Row[] rows, int r) {
    Map<Row, Integer> out = new HashMap<>();
    for (int j = 0; j < r; j++) {
      out.putIfAbsent(rows[j], j);
    }
    return out;
  }
}
