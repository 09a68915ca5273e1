package dev.rivulet.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.query.face.WindowSteps;
import dev.rivulet.testkit.Seeds;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link WindowSteps} on its own: random window changes, given as positioned deltas and as two
 * whole windows, turn into steps that rebuild the new window when applied by index to the old one,
 * with the documented index convention. Rows are (key, value); the key is column 0.
 */
class WindowStepsTest {
  static final WindowSteps.View VIEW = new WindowSteps.View() {
    @Override
    public Row visible(Row stored) {
      return stored;
    }

    @Override
    public Row key(Row stored) {
      return stored.project(new int[] {0});
    }

    @Override
    public Cursor cursor(Row stored) {
      return Cursor.of(stored.get(0));
    }
  };

  @Test
  void positionedChangesReplayOntoTheOldWindow() {
    for (long seed : Seeds.runs(400)) {
      Random r = new Random(seed);
      List<Row> before = randomWindow(r);
      // Each old row stays, leaves, or changes value and moves; new keys enter. Rows that stay
      // keep their relative order (what a positioned delta says of the rows it does not name).
      WindowSteps steps = new WindowSteps(VIEW, 7);
      List<Row> after = new ArrayList<>();
      List<Row> inserted = new ArrayList<>();
      java.util.Set<Row> gone = new java.util.HashSet<>();
      for (int i = before.size() - 1; i >= 0; i--) {
        int fate = r.nextInt(5);
        if (fate <= 1) {
          steps.removed(before.get(i), i);
          gone.add(before.get(i));
          if (fate == 1) {
            inserted.add(Row.of(before.get(i).get(0), r.nextInt(1000)));
          }
        }
      }
      for (Row row : before) {
        if (!gone.contains(row)) {
          after.add(row);
        }
      }
      for (int i = r.nextInt(4); i > 0; i--) {
        inserted.add(Row.of(1000L + i, r.nextInt(1000)));
      }
      List<Row> stable = new ArrayList<>(after);
      for (Row x : inserted) {
        after.add(r.nextInt(after.size() + 1), x);
      }
      for (int j = 0; j < after.size(); j++) {
        if (!stable.contains(after.get(j))) {
          steps.added(after.get(j), j);
        }
      }
      List<WindowDelta> out = steps.steps();
      assertThat(apply(before, out)).as("seed %d: %s -> %s via %s", seed, before, after, out).isEqualTo(after);
      assertThat(out).allMatch(d -> d.version() == 7 && d.key() != null && d.cursor() != null);
      assertThat(out.stream().filter(d -> d.op() == WindowDelta.Op.ENTER || d.op() == WindowDelta.Op.LEAVE).count())
          .as("a key both removed and added moves or updates instead of leaving and entering")
          .isLessThanOrEqualTo(before.size() + inserted.size());
    }
  }

  @Test
  void diffOfAnyTwoWindowsKeepsTheLongestCommonOrder() {
    for (long seed : Seeds.runs(400)) {
      Random r = new Random(seed);
      List<Row> before = randomWindow(r);
      List<Row> after = new ArrayList<>();
      for (Row row : before) {
        int k = r.nextInt(6);
        if (k == 0) {
          continue; // leaves
        }
        after.add(k == 1 ? Row.of(row.get(0), r.nextInt(1000)) : row);
      }
      for (int i = r.nextInt(4); i > 0; i--) {
        Row x = Row.of(1000L + r.nextInt(1000), r.nextInt(1000));
        if (!keyIn(after, x)) {
          after.add(r.nextInt(after.size() + 1), x);
        }
      }
      if (r.nextBoolean() && after.size() > 1) {
        Collections.swap(after, r.nextInt(after.size()), r.nextInt(after.size()));
      }
      List<WindowDelta> out = WindowSteps.diff(before, after, VIEW, 3);
      assertThat(apply(before, out)).as("seed %d: %s -> %s via %s", seed, before, after, out).isEqualTo(after);
      long moves = out.stream().filter(d -> d.op() == WindowDelta.Op.MOVE).count();
      assertThat(moves).as("one swap needs at most two moves").isLessThanOrEqualTo(2 + countChanged(before, after));
    }
  }

  @Test
  void theOneRowPathIsTakenAndAgreesWithTheGeneralRules() {
    for (long seed : Seeds.runs(300)) {
      Random r = new Random(seed);
      List<Row> before = randomWindow(r);
      WindowSteps steps = new WindowSteps(VIEW, 5);
      List<Row> after = new ArrayList<>(before);
      int kind = before.isEmpty() ? 1 : r.nextInt(4); // 0 leave, 1 enter, 2 move or update, 3 leave + enter
      if (kind != 1) {
        int at = r.nextInt(before.size());
        steps.removed(before.get(at), at);
        after.remove(at);
      }
      if (kind >= 1) {
        Row row = kind == 2 ? Row.of(before.get(0).get(0), r.nextInt(1000)) : Row.of(5000L, r.nextInt(1000));
        if (kind == 2) {
          // the moving key must be the removed one
          int at = before.indexOf(before.get(0));
          after = new ArrayList<>(before);
          steps = new WindowSteps(VIEW, 5);
          steps.removed(before.get(at), at);
          after.remove(at);
        }
        int to = r.nextInt(after.size() + 1);
        after.add(to, row);
        steps.added(row, to);
      }
      List<WindowDelta> fast = steps.steps();
      assertThat(fast).as("seed %d: the one-row path answers with an immutable list", seed)
          .isUnmodifiable();
      assertThat(fast).as("seed %d", seed).isEqualTo(steps.general());
      assertThat(apply(before, fast)).as("seed %d", seed).isEqualTo(after);
    }
  }

  @Test
  void movingOneRowToTheEndIsOneMove() {
    List<Row> before = List.of(Row.of(1, 0), Row.of(2, 0), Row.of(3, 0), Row.of(4, 0));
    List<Row> after = List.of(Row.of(2, 0), Row.of(3, 0), Row.of(4, 0), Row.of(1, 9));
    WindowSteps s = new WindowSteps(VIEW, 1);
    s.removed(before.get(0), 0);
    s.added(after.get(3), 3);
    List<WindowDelta> out = s.steps();
    assertThat(out).hasSize(1);
    assertThat(out.get(0).op()).isEqualTo(WindowDelta.Op.MOVE);
    assertThat(out.get(0).oldIndex()).isZero();
    assertThat(out.get(0).newIndex()).isEqualTo(3);
    assertThat(out.get(0).old()).isEqualTo(Row.of(1, 0));
  }

  @Test
  void aChangeInPlaceIsAnUpdate() {
    List<Row> before = List.of(Row.of(1, 0), Row.of(2, 0));
    WindowSteps s = new WindowSteps(VIEW, 1);
    s.removed(before.get(1), 1);
    s.added(Row.of(2, 5), 1);
    List<WindowDelta> out = s.steps();
    assertThat(out).extracting(WindowDelta::op).containsExactly(WindowDelta.Op.UPDATE);
    assertThat(apply(before, out)).containsExactly(Row.of(1, 0), Row.of(2, 5));
  }

  private static int countChanged(List<Row> before, List<Row> after) {
    int n = 0;
    for (Row a : after) {
      n += before.contains(a) ? 0 : 1;
    }
    return n;
  }

  private static boolean keyIn(List<Row> rows, Row x) {
    for (Row row : rows) {
      if (row.get(0).equals(x.get(0))) {
        return true;
      }
    }
    return false;
  }

  private static List<Row> randomWindow(Random r) {
    List<Row> out = new ArrayList<>();
    for (int i = r.nextInt(12); i > 0; i--) {
      out.add(Row.of((long) out.size(), r.nextInt(1000)));
    }
    Collections.shuffle(out, r);
    return out;
  }

  /** Applies steps by the documented convention. */
  static List<Row> apply(List<Row> window, List<WindowDelta> steps) {
    List<Row> w = new ArrayList<>(window);
    for (WindowDelta d : steps) {
      switch (d.op()) {
        case RESET -> w.clear();
        case ENTER -> w.add(d.newIndex(), d.row());
        case LEAVE -> {
          assertThat(w.get(d.oldIndex())).isEqualTo(d.row());
          w.remove(d.oldIndex());
        }
        case MOVE -> {
          assertThat(w.get(d.oldIndex())).isEqualTo(d.old());
          w.remove(d.oldIndex());
          w.add(d.newIndex(), d.row());
        }
        case UPDATE -> {
          assertThat(d.newIndex()).isEqualTo(d.oldIndex());
          assertThat(w.get(d.oldIndex())).isEqualTo(d.old());
          w.set(d.oldIndex(), d.row());
        }
      }
    }
    return w;
  }
}
