package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A keyed output ({@link GraphBuilder#keyedOutput}) gives an insert-only run's change as emitted
 * (the fast path: two equal rows stay two entries) and consolidates any run with a retraction;
 * either way its change is the same Z-set as a plain output's of the same stream. Seeds: {@code
 * -Drivulet.seed} replays one, {@code -Drivulet.runs} multiplies the runs.
 */
class KeyedOutputTest {
  private static final long BASE_SEED = Long.getLong("rivulet.seed", 0x0E7F07L);
  private static final int RUNS = 20 * Integer.getInteger("rivulet.runs", 1);
  private static final Schema S = Schema.parse("id INT NOT NULL, name STRING");
  private static final Schema NAME = Schema.parse("name STRING");

  /** Both outputs read the names of the input's rows, so rows of distinct ids may project equal. */
  private static Graph graph() {
    GraphBuilder b = Graph.builder();
    Stream names = b.input("in", S).map(NAME, r -> Row.of(r.get(1)));
    b.output("plain", names);
    b.keyedOutput("keyed", names);
    return b.build();
  }

  @Test
  void anInsertOnlyRunIsGivenAsEmitted() {
    Graph g = graph();
    g.input("in").send(ZSet.of(Row.of(1, "a"), Row.of(2, "a"), Row.of(3, "b")));
    g.run();
    assertThat(g.output("keyed").delta().size()).as("not consolidated: 'a' twice").isEqualTo(3);
    assertThat(g.output("plain").delta().size()).isEqualTo(2);
    assertThat(g.output("keyed").delta().consolidate().toMap()).isEqualTo(g.output("plain").delta().toMap());
  }

  @Test
  void aRunWithARetractionIsConsolidated() {
    Graph g = graph();
    g.input("in").send(ZSet.of(Row.of(1, "a"), Row.of(2, "b")));
    g.run();
    g.input("in").send(Row.of(1, "a"), -1).send(Row.of(3, "b"), 1).send(Row.of(4, "b"), 1);
    g.run();
    assertThat(g.output("keyed").delta().toMap()).containsOnly(Map.entry(Row.of("a"), -1L), Map.entry(Row.of("b"), 2L));
    assertThat(g.output("keyed").delta().size()).isEqualTo(2);
  }

  @Test
  void aKeyedOutputNameIsUniqueAmongOutputs() {
    GraphBuilder b = Graph.builder();
    Stream in = b.input("in", S);
    b.output("out", in);
    assertThatThrownBy(() -> b.keyedOutput("out", in)).isInstanceOf(WiringException.class).hasMessageContaining("'out'");
  }

  @Test
  void randomRunsGiveThePlainOutputsZSet() {
    for (int run = 0; run < RUNS; run++) {
      long seed = BASE_SEED + run;
      Random rnd = new Random(seed);
      Graph g = graph();
      Map<Row, Long> live = new HashMap<>();
      for (int step = 0; step < 8; step++) {
        boolean insertOnly = rnd.nextBoolean();
        int sent = 0;
        for (int i = 0; i < 1 + rnd.nextInt(300); i++) {
          Row r = Row.of(rnd.nextInt(60), "n" + rnd.nextInt(15));
          boolean retract = !insertOnly && live.getOrDefault(r, 0L) > 0 && rnd.nextBoolean();
          g.input("in").send(r, retract ? -1 : 1);
          live.merge(r, retract ? -1L : 1L, Long::sum);
          sent++;
        }
        g.run();
        ZSet keyed = g.output("keyed").delta();
        assertThat(keyed.consolidate().toMap()).as("seed %d step %d", seed, step)
            .isEqualTo(g.output("plain").delta().toMap());
        if (insertOnly) {
          assertThat(keyed.size()).as("seed %d step %d: given as emitted", seed, step).isEqualTo(sent);
        }
      }
    }
  }
}
