package dev.rivulet.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.query.face.WindowSteps;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link WindowSteps#diff} of two windows holding the same rows keeps a longest increasing run of
 * old positions in place: it moves exactly n minus that length rows, and its steps rebuild the new
 * window. The length is computed here by the quadratic textbook recurrence.
 */
class WindowDiffMinimalityTest {
  private static final WindowSteps.View VIEW = WindowStepsTest.VIEW; // rows keyed by column 0

  private static int longestIncreasing(int[] seq) {
    int best = 0;
    int[] len = new int[seq.length];
    for (int j = 0; j < seq.length; j++) {
      len[j] = 1;
      for (int i = 0; i < j; i++) {
        if (seq[i] < seq[j]) {
          len[j] = Math.max(len[j], len[i] + 1);
        }
      }
      best = Math.max(best, len[j]);
    }
    return best;
  }

  @Test
  void aPermutationMovesExactlyTheRowsOutsideALongestIncreasingRun() {
    Random rnd = new Random(3);
    for (int run = 0; run < 300; run++) {
      int n = 1 + rnd.nextInt(12);
      List<Row> before = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        before.add(Row.of(i, "v" + i));
      }
      List<Row> after = new ArrayList<>(before);
      if (rnd.nextBoolean()) {
        Collections.shuffle(after, rnd);
      } else { // a few swaps: long increasing runs
        for (int k = rnd.nextInt(3); k >= 0; k--) {
          Collections.swap(after, rnd.nextInt(n), rnd.nextInt(n));
        }
      }
      int[] oldPositions = after.stream().mapToInt(r -> ((Long) r.get(0)).intValue()).toArray();
      List<WindowDelta> steps = WindowSteps.diff(before, after, VIEW, 1);
      assertThat(steps).as("run %d: %s -> %s", run, before, after)
          .allMatch(d -> d.op() == WindowDelta.Op.MOVE)
          .hasSize(n - longestIncreasing(oldPositions));
      List<Row> replay = new ArrayList<>(before);
      for (WindowDelta d : steps) {
        replay.remove(d.oldIndex());
        replay.add(d.newIndex(), d.row());
      }
      assertThat(replay).as("run %d", run).isEqualTo(after);
    }
  }
}
