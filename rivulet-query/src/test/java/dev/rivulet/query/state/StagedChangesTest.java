package dev.rivulet.query.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link StagedChanges} against a map of key rows in first-touch order (what a collection staged
 * before): the same keys in the same order, each with its first row before and its last row now,
 * whether a change names its key or leaves it to the stored rows (a key inserted then deleted ends
 * with neither), over transactions small enough
 * to be found by scanning key values in place and large enough to need the map (both paths proven
 * taken), and a cleared staging that starts afresh.
 */
class StagedChangesTest {
  private static final long BASE_SEED = Long.getLong("rivulet.seed", 0x57A6EDL);
  private static final int RUNS = 20 * Integer.getInteger("rivulet.runs", 1);
  private static final int[] STORED_KEYS = {1, 3}; // a stored row: (value, k1, value, k2)

  @Test
  void agreesWithAMapOfKeyRowsInBothPaths() {
    int scanned = 0;
    int mapped = 0;
    for (int run = 0; run < RUNS; run++) {
      long seed = BASE_SEED + run;
      Random rnd = new Random(seed);
      StagedChanges staged = new StagedChanges(STORED_KEYS);
      for (int tx = 0; tx < 30; tx++) {
        Map<Row, Row[]> model = new LinkedHashMap<>();
        int changes = 1 + rnd.nextInt(rnd.nextBoolean() ? 4 : 40);
        for (int c = 0; c < changes; c++) {
          long k1 = rnd.nextInt(6);
          String k2 = "k" + rnd.nextInt(5);
          Row key = Row.of(k1, k2);
          Row before = rnd.nextInt(4) == 0 ? null : stored(rnd, k1, k2);
          Row after = before == null || rnd.nextBoolean() ? stored(rnd, k1, k2) : null; // never both null
          staged.stage(rnd.nextBoolean() ? key : null, before, after);
          Row[] was = model.get(key);
          if (was == null) {
            model.put(key, new Row[] {before, after});
          } else {
            was[1] = after;
          }
        }
        assertThat(staged.indexed()).as("seed %d tx %d", seed, tx).isEqualTo(model.size() > StagedChanges.SCAN);
        scanned += staged.indexed() ? 0 : 1;
        mapped += staged.indexed() ? 1 : 0;
        List<Row[]> got = new ArrayList<>();
        for (int i = 0; i < staged.size(); i++) {
          got.add(new Row[] {staged.key(i), staged.before(i), staged.after(i)});
        }
        List<Row[]> want = new ArrayList<>();
        model.forEach((k, v) -> want.add(new Row[] {k, v[0], v[1]}));
        assertThat(got).as("seed %d tx %d", seed, tx).hasSameSizeAs(want);
        for (int i = 0; i < want.size(); i++) {
          assertThat(got.get(i)).as("seed %d tx %d entry %d", seed, tx, i).containsExactly(want.get(i));
        }
        staged.clear();
        assertThat(staged.isEmpty()).isTrue();
        assertThat(staged.indexed()).isFalse();
      }
    }
    assertThat(scanned).isPositive();
    assertThat(mapped).isPositive();
  }

  @Test
  void aClearedStagingStartsAfresh() {
    StagedChanges staged = new StagedChanges(STORED_KEYS);
    for (int i = 0; i < 20; i++) {
      staged.stage(null, Row.of("b", (long) i, "x", "k"), Row.of("a", (long) i, "y", "k"));
    }
    staged.clear();
    for (int i = 0; i < 3; i++) {
      staged.stage(Row.of(7L, "k"), null, Row.of("c", 7L, "z", "k"));
    }
    assertThat(staged.size()).isEqualTo(1);
    assertThat(staged.before(0)).isNull();
    assertThat(staged.key(0)).isEqualTo(Row.of(7L, "k"));
    staged.clear();
    assertThat(staged.size()).isZero();
  }

  private static Row stored(Random rnd, long k1, String k2) {
    return Row.of("v" + rnd.nextInt(3), k1, rnd.nextInt(3), k2);
  }
}
