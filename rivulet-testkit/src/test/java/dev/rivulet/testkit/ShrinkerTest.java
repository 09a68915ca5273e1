package dev.rivulet.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** Shrinking finds small failing histories, keeps them valid and respects its attempt bound. */
class ShrinkerTest {
  static final Schema S = Schema.parse("k INT NOT NULL, v INT, s STRING");
  static final HistoryGenerator GEN = HistoryGenerator.over("a", S).withDomainSize(6).withMaxSteps(12);

  /** Fails when some step ends with a row whose v is at least 3 present twice or more. */
  static final Predicate<History> TWO_BIG = h -> {
    for (int s = 1; s <= h.size(); s++) {
      for (Map.Entry<Row, Long> e : h.contentsAfter(s).getOrDefault("a", Map.of()).entrySet()) {
        if (!e.getKey().isNull(1) && e.getKey().getLong(1) >= 3 && e.getValue() >= 2) {
          return true;
        }
      }
    }
    return false;
  };

  @Test
  void shrinksToAMinimalValidFailure() {
    int shrunkSome = 0;
    for (long seed : Seeds.defaults(40)) {
      History h = GEN.generate(seed);
      if (!TWO_BIG.test(h)) {
        continue;
      }
      AtomicInteger invalid = new AtomicInteger();
      Shrinker.Result r = Shrinker.shrink(h, c -> {
        if (!c.isValid()) {
          invalid.incrementAndGet();
        }
        return TWO_BIG.test(c);
      }, 5000);
      History small = r.history();
      assertThat(invalid).as("candidates are valid").hasValue(0);
      assertThat(TWO_BIG.test(small)).isTrue();
      assertThat(small.isValid()).isTrue();
      // Minimal: two insertions of one row (one change of weight two, or two of weight one, in one
      // step or two), whose values are as small as still fails.
      assertThat(small.changeCount()).as("seed %d:\n%s", seed, small).isBetween(1, 2);
      long mass = small.steps().stream().flatMap(st -> st.changes().stream()).mapToLong(History.Change::weight).sum();
      assertThat(mass).isEqualTo(2);
      Row row = small.step(0).changes().get(0).row();
      assertThat(row.get(1)).as("v shrunk to the smallest failing value").isEqualTo(3L);
      assertThat(row.get(0)).isEqualTo(0L);
      assertThat(row.get(2)).isIn(null, "");
      assertThat(small.changeCount()).isLessThanOrEqualTo(h.changeCount());
      shrunkSome++;
    }
    assertThat(shrunkSome).isGreaterThan(5);
  }

  @Test
  void keepsDeletesPairedWithTheirInserts() {
    // Fails when a row is inserted and later deleted again: shrinking must keep both halves.
    Predicate<History> insertThenDelete = h -> {
      for (int s = 0; s < h.size(); s++) {
        for (History.Change c : h.step(s).changes()) {
          if (c.weight() < 0) {
            return true;
          }
        }
      }
      return false;
    };
    History h = History.parse("""
        step
          a +1 [1, 5, 'ab']
          a +1 [2, 6, 'b']
        step
          a +1 [3, 7, 'c']
        step
          a -1 [2, 6, 'b']
        """);
    History small = Shrinker.shrink(h, insertThenDelete, 1000).history();
    assertThat(small).isEqualTo(History.parse("step\n  a +1 [0, 0, '']\nstep\n  a -1 [0, 0, '']\n"));
  }

  @Test
  void splitsStepsWhenThatStillFails() {
    // Fails when there are at least two changes: the smallest steps are single changes.
    Predicate<History> twoChanges = h -> h.changeCount() >= 2;
    History h = History.parse("step\n  a +1 [1, 1, 'a']\n  a +1 [2, 2, 'b']\n  a +1 [3, 3, 'c']\n");
    History small = Shrinker.shrink(h, twoChanges, 1000).history();
    assertThat(small.changeCount()).isEqualTo(2);
    assertThat(small.size()).isEqualTo(2);
  }

  @Test
  void respectsTheAttemptBound() {
    History h = GEN.withMaxSteps(12).withMaxChangesPerStep(6).generate(7);
    AtomicInteger calls = new AtomicInteger();
    Shrinker.Result r = Shrinker.shrink(h, c -> {
      calls.incrementAndGet();
      return c.changeCount() > 1 && c.step(0).changes().size() > 0;
    }, 25);
    assertThat(calls.get()).isLessThanOrEqualTo(25).isEqualTo(r.attempts());
  }

  @Test
  void returnsTheInputWhenNothingSmallerFails() {
    History h = History.parse("step\n  a +1 [1, 1, 'a']\n");
    Shrinker.Result r = Shrinker.shrink(h, c -> c.equals(h), 100);
    assertThat(r.history()).isEqualTo(h);
    assertThat(r.accepted()).isZero();
  }

  @Test
  void rejectsAnInvalidHistory() {
    assertThatThrownBy(() -> Shrinker.shrink(History.parse("step\n  a -1 [1, 1, 'a']\n"), h -> true, 10))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void measureOrdersByMassThenEntriesThenStepSizes() {
    History big = History.parse("step\n  a +2 [1, 1, 'a']\n");
    History two = History.parse("step\n  a +1 [1, 1, 'a']\n  a +1 [1, 1, 'a']\n");
    History split = History.parse("step\n  a +1 [1, 1, 'a']\nstep\n  a +1 [1, 1, 'a']\n");
    assertThat(Shrinker.measure(big)[0]).isEqualTo(Shrinker.measure(two)[0]);
    assertThat(Shrinker.measure(big)[1]).isLessThan(Shrinker.measure(two)[1]);
    assertThat(Shrinker.measure(split)[2]).isLessThan(Shrinker.measure(two)[2]);
  }
}
