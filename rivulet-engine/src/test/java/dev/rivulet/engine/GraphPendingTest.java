package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A run looks only at the operators a change reaches (their pending bits, set as entries arrive
 * in their input buffers), not at every operator of the graph, and gives the same outputs as a
 * run that looks at all of them: over random runs on a graph of more than 64 operators (several
 * words of bits) with two independent chains and a join of both, fed one input, the other, both
 * or neither. Seeds: {@code -Drivulet.seed} replays one.
 */
class GraphPendingTest {
  private static final long SEED = Long.getLong("rivulet.seed", 0x9E7DL);
  private static final Schema S = Schema.parse("k INT NOT NULL, v INT NOT NULL");
  private static final int CHAIN = 40;

  private static Graph graph() {
    GraphBuilder b = Graph.builder();
    Stream a = chain(b.input("a", S));
    Stream c = chain(b.input("b", S));
    b.output("A", a);
    b.output("B", c);
    b.output("J", a.join(c, JoinType.INNER, List.of("k"), List.of("k")));
    return b.build();
  }

  /** CHAIN operators, maps and filters, each keeping the row's values. */
  private static Stream chain(Stream s) {
    for (int i = 0; i < CHAIN; i++) {
      s = i % 2 == 0 ? s.map(S, row -> row) : s.filter(row -> true);
    }
    return s;
  }

  @Test
  void aRunStepsOnlyTheOperatorsItsChangesReachAndAgreesWithVisitingAll() {
    Graph fast = graph();
    Graph all = graph();
    all.visitAll = true;
    assertThat(fast.operators()).hasSizeGreaterThan(64); // two words of bits
    Random rnd = new Random(SEED);
    long onlyA = 0;
    for (int run = 0; run < 200; run++) {
      int which = rnd.nextInt(4); // 0: a, 1: b, 2: both, 3: none
      for (String in : which == 0 ? List.of("a") : which == 1 ? List.of("b") : which == 2 ? List.of("a", "b")
          : List.<String>of()) {
        Row r = Row.of(rnd.nextInt(10), run);
        fast.input(in).send(r, 1);
        all.input(in).send(r, 1);
      }
      long before = fast.visited;
      fast.run();
      all.run();
      long visited = fast.visited - before;
      if (which == 0) {
        onlyA++;
        assertThat(visited).as("run %d: the input, its chain, the join, outputs", run).isLessThanOrEqualTo(CHAIN + 4);
      } else if (which == 3) {
        assertThat(visited).as("run %d: nothing sent", run).isZero();
      }
      for (String out : List.of("A", "B", "J")) {
        assertThat(fast.output(out).delta()).as("run %d output %s", run, out).isEqualTo(all.output(out).delta());
      }
    }
    assertThat(onlyA).isPositive();
    assertThat(all.visited).isEqualTo(200L * all.operators().size());
  }
}
