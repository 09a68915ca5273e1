package dev.rivulet.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Seed lists: reproducible by default, one seed to replay, a multiplier to scale up. */
class SeedsTest {
  private static Seeds seeds(Map<String, String> env, Map<String, String> props) {
    return new Seeds(env::get, props::get);
  }

  @Test
  void defaultListIsFixedDistinctAndOfTheBaseCount() {
    List<Long> a = seeds(Map.of(), Map.of()).list(50);
    List<Long> b = seeds(Map.of(), Map.of()).list(50);
    assertThat(a).hasSize(50).isEqualTo(b);
    assertThat(new HashSet<>(a)).hasSize(50);
    // Pinned: CI runs exactly these histories until someone changes the base on purpose.
    assertThat(a.get(0)).isEqualTo(Seeds.mix(Seeds.DEFAULT_BASE_SEED));
  }

  @Test
  void runsMultipliesAndOnlyAppends() {
    List<Long> one = seeds(Map.of(), Map.of()).list(10);
    List<Long> many = seeds(Map.of("RIVULET_RUNS", "100"), Map.of()).list(10);
    assertThat(many).hasSize(1000).startsWith(one.toArray(new Long[0]));
  }

  @Test
  void aFixedSeedRunsExactlyThatSeed() {
    assertThat(seeds(Map.of("RIVULET_SEED", "-42", "RIVULET_RUNS", "7"), Map.of()).list(50)).containsExactly(-42L);
    assertThat(seeds(Map.of(), Map.of("rivulet.seed", "0x10")).list(3)).containsExactly(16L);
  }

  @Test
  void baseSeedChangesTheList() {
    List<Long> other = seeds(Map.of("RIVULET_BASE_SEED", "1"), Map.of()).list(5);
    assertThat(other).doesNotContainAnyElementsOf(seeds(Map.of(), Map.of()).list(5));
    assertThat(other.get(0)).isEqualTo(Seeds.mix(1));
  }

  @Test
  void systemPropertyWinsOverEnvironment() {
    assertThat(seeds(Map.of("RIVULET_SEED", "1"), Map.of("rivulet.seed", "2")).list(5)).containsExactly(2L);
    assertThat(seeds(Map.of("RIVULET_RUNS", "3"), Map.of("rivulet.runs", "2")).list(5)).hasSize(10);
  }

  @Test
  void badValuesFailNamingTheVariable() {
    assertThatThrownBy(() -> seeds(Map.of("RIVULET_SEED", "abc"), Map.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("RIVULET_SEED").hasMessageContaining("abc");
    assertThatThrownBy(() -> seeds(Map.of("RIVULET_RUNS", "0"), Map.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("RIVULET_RUNS");
    assertThatThrownBy(() -> seeds(Map.of(), Map.of()).list(0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void replayHintNamesTheVariable() {
    assertThat(Seeds.replayHint(123)).isEqualTo("RIVULET_SEED=123 mvn verify -pl rivulet-testkit -am -Dtest=SeedsTest"
        + " -Dsurefire.failIfNoSpecifiedTests=false");
  }
}
