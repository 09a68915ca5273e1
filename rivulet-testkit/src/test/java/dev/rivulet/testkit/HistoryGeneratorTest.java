package dev.rivulet.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Generated histories are valid, reproducible from their seed, and cover what the operator suites
 * rely on: retractions, updates, duplicates, self-cancelling steps, nulls and colliding keys.
 */
class HistoryGeneratorTest {
  static final Schema S = Schema.parse("id INT NOT NULL, k INT, s STRING");
  static final HistoryGenerator GEN = HistoryGenerator.over(Map.of("a", S, "b", S));

  @Test
  void historiesAreValidAndEveryPrefixOfEveryStepToo() {
    for (long seed : Seeds.runs(300)) {
      History h = GEN.generate(seed);
      assertThat(h.isValid()).as("seed %d", seed).isTrue();
      assertThat(h.repaired()).isEqualTo(h);
      assertThat(h.split(new Random(seed), 5).isValid()).isTrue();
      assertThat(h.merged().isValid()).isTrue();
      for (int s = 0; s <= h.size(); s++) {
        h.contentsAfter(s).values().forEach(m -> assertThat(m.values()).allMatch(w -> w > 0));
      }
      assertThat(h.size()).isBetween(1, 12);
      h.steps().forEach(step -> assertThat(step.changes()).isNotEmpty());
    }
  }

  @Test
  void theSameSeedGivesTheSameHistory() {
    assertThat(GEN.generate(42)).isEqualTo(GEN.generate(42)).isNotEqualTo(GEN.generate(43));
    assertThat(GEN.generate(42).toText()).isEqualTo(GEN.generate(new Random(42)).toText());
  }

  @Test
  void coversRetractionsUpdatesDuplicatesNullsAndCollisions() {
    int deletes = 0;
    int deleteAll = 0;
    int updates = 0;
    int duplicates = 0;
    int nulls = 0;
    int cancellingSteps = 0;
    int collidingKeys = 0;
    for (long seed : Seeds.defaults(300)) {
      History h = GEN.generate(seed);
      Map<Row, Long> present = new HashMap<>();
      for (History.Step step : h.steps()) {
        Map<Row, Long> net = new HashMap<>();
        for (int i = 0; i < step.changes().size(); i++) {
          History.Change c = step.changes().get(i);
          net.merge(c.row(), c.weight(), Long::sum);
          present.merge(c.row(), c.weight(), Long::sum);
          if (c.weight() == -1) {
            deletes++;
          }
          if (c.weight() < 0 && present.get(c.row()) == 0) {
            deleteAll++;
          }
          if (c.weight() > 1 || (c.weight() > 0 && present.get(c.row()) > 1)) {
            duplicates++;
          }
          if (i > 0 && c.weight() == 1 && step.changes().get(i - 1).weight() == -1
              && step.changes().get(i - 1).input().equals(c.input())) {
            updates++;
          }
          if (c.row().isNull(1) || c.row().isNull(2)) {
            nulls++;
          }
        }
        if (net.values().stream().allMatch(w -> w == 0)) {
          cancellingSteps++;
        }
      }
      Set<Object> keys = new HashSet<>();
      for (History.Step step : h.steps()) {
        for (History.Change c : step.changes()) {
          if (c.weight() > 0 && !keys.add(c.row().get(1))) {
            collidingKeys++;
          }
        }
      }
    }
    assertThat(deletes).isGreaterThan(500);
    assertThat(deleteAll).isGreaterThan(100);
    assertThat(updates).isGreaterThan(300);
    assertThat(duplicates).isGreaterThan(300);
    assertThat(nulls).isGreaterThan(300);
    assertThat(cancellingSteps).isGreaterThan(5);
    assertThat(collidingKeys).isGreaterThan(1000);
  }

  @Test
  void notNullColumnsStayNotNull() {
    for (long seed : Seeds.runs(100)) {
      GEN.generate(seed).steps().forEach(s -> s.changes().forEach(c -> S.check(c.row())));
    }
  }

  @Test
  void settingsBoundTheShape() {
    HistoryGenerator g = GEN.withMaxSteps(3).withMaxChangesPerStep(2);
    for (long seed : Seeds.runs(100)) {
      History h = g.generate(seed);
      assertThat(h.size()).isBetween(1, 3);
      // An update is two changes, so a step may exceed its change budget by one.
      h.steps().forEach(s -> assertThat(s.changes().size()).isBetween(1, 3));
    }
  }
}
