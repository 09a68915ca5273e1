package dev.rivulet.testkit;

import static dev.rivulet.testkit.LinearOperatorsOracleTest.A;
import static dev.rivulet.testkit.LinearOperatorsOracleTest.graph;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.rivulet.engine.Graph;
import dev.rivulet.engine.GraphBuilder;
import dev.rivulet.engine.Reducer;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.engine.SortKey;
import dev.rivulet.engine.ZSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * The harness can fail: a wrong oracle (standing in for a wrong operator) is reported at its first
 * divergent step, with the seed, a replay hint and a shrunk trace that still fails and is smaller.
 */
class OracleRunnerTest {
  static final Schema K = Schema.parse("k INT NOT NULL, v INT");
  static final Predicate<Row> NOT_THREE = r -> r.isNull(1) || r.getLong(1) != 3;

  /** The identity graph checked against an oracle that wrongly drops rows with v = 3. */
  static OracleRunner wrongFilterOracle() {
    return OracleRunner.builder("wrong-oracle", Map.of("a", K), graph(b -> b.input("a", K)))
        .multiset("out", in -> Naive.filter(in.get("a"), NOT_THREE)).build();
  }

  static History handMade() {
    return History.parse("""
        step 0
          a +1 [1, 1]
          a +1 [2, 2]
        step 1
          a +2 [1, 2]
          a -1 [1, 1]
        step 2
          a +1 [5, 3]
          a +1 [6, 4]
        step 3
          a -1 [5, 3]
        """);
  }

  @Test
  void correctOracleReportsNothing() {
    OracleRunner runner = OracleRunner.builder("identity", Map.of("a", K), graph(b -> b.input("a", K)))
        .multiset("out", in -> in.get("a")).build();
    assertThat(runner.run(handMade())).isEmpty();
    assertThat(runner.runBatchPartition(handMade(), 7)).isEmpty();
    runner.check(Seeds.defaults(20));
    runner.checkBatchPartition(Seeds.defaults(20));
  }

  @Test
  void reportsTheFirstDivergentStep() {
    History h = handMade();
    Divergence d = wrongFilterOracle().run(h).orElseThrow();
    assertThat(d.step()).isEqualTo(2);
    assertThat(d.divergentStep()).isEqualTo(h.step(2));
    assertThat(d.output()).isEqualTo("out");
    assertThat(d.kind()).isEqualTo("multiset");
    assertThat(d.delivery()).isEqualTo("step by step");
    assertThat(d.expected()).isEqualTo("{[1, 2] x2, [2, 2], [6, 4]}");
    assertThat(d.actual()).isEqualTo("{[1, 2] x2, [2, 2], [5, 3], [6, 4]}");
    assertThat(d.diff()).isEqualTo("missing {}; unexpected {[5, 3]}");
    assertThat(d.describe()).contains("at step 2 of 4", "a +1 [5, 3]", "expected:", "actual:", "diff:");
  }

  @Test
  void propertyFailureNamesTheSeedAndPrintsAShrunkTraceThatStillFails() {
    OracleRunner runner = wrongFilterOracle();
    HistoryGenerator gen = HistoryGenerator.over("a", K).withDomainSize(4).withMaxSteps(15);
    List<Long> seeds = Seeds.defaults(50);
    AssertionError e = catchThrowableOfType(AssertionError.class, () -> runner.check(gen, seeds));
    assertThat(e).isNotNull();
    String msg = e.getMessage();
    long seed = failingSeed(msg);
    assertThat(seeds).contains(seed);
    assertThat(msg).contains("RIVULET_SEED=" + seed, "First divergence", "Shrunk in", "scenario wrong-oracle");

    History original = gen.generate(seed);
    Trace trace = Trace.parse(msg.substring(msg.indexOf("# seed " + seed)));
    assertThat(trace.scenario()).isEqualTo("wrong-oracle");
    History shrunk = trace.history();
    assertThat(shrunk.isValid()).isTrue();
    assertThat(runner.run(shrunk)).isPresent();
    assertThat(shrunk.changeCount()).isLessThan(original.changeCount());
    // The minimal failure: one step inserting one row whose v is 3.
    assertThat(shrunk.size()).isEqualTo(1);
    assertThat(shrunk.step(0).changes()).hasSize(1);
    History.Change c = shrunk.step(0).changes().get(0);
    assertThat(c.weight()).isEqualTo(1);
    assertThat(c.row().get(1)).isEqualTo(3L);
    assertThat(c.row().get(0)).isEqualTo(0L);
  }

  @Test
  void theFirstFailingSeedIsReportedAndEarlierSeedsPassed() {
    OracleRunner runner = wrongFilterOracle();
    HistoryGenerator gen = HistoryGenerator.over("a", K).withDomainSize(4);
    List<Long> seeds = Seeds.defaults(50);
    AssertionError e = catchThrowableOfType(AssertionError.class, () -> runner.check(gen, seeds));
    long seed = failingSeed(e.getMessage());
    for (long earlier : seeds.subList(0, seeds.indexOf(seed))) {
      assertThat(runner.run(gen.generate(earlier))).isEmpty();
    }
    assertThat(runner.run(gen.generate(seed))).isPresent();
  }

  @Test
  void windowOrderIsComparedExactly() {
    Schema t = Schema.parse("x INT");
    List<SortKey> asc = List.of(SortKey.asc("x"));
    List<SortKey> desc = List.of(SortKey.desc("x"));
    OracleRunner wrongOrder = OracleRunner.builder("wrong-order", Map.of("t", t), () -> {
      GraphBuilder b = Graph.builder();
      b.output("out", b.input("t", t).topK(asc, 0, 3));
      return b.build();
    }).windows("out", List.of(), in -> {
      // The right rows, in the wrong order.
      Map<Row, List<Row>> w = Naive.topK(in.get("t"), t, List.of(), asc, 0, 3);
      w.replaceAll((k, rows) -> {
        List<Row> r = new ArrayList<>(rows);
        r.sort(Naive.order(t, desc));
        return r;
      });
      return w;
    }).build();
    History h = History.parse("step\n  t +1 [5]\nstep\n  t +1 [7]\n");
    Divergence d = wrongOrder.run(h).orElseThrow();
    assertThat(d.step()).isEqualTo(1);
    assertThat(d.kind()).isEqualTo("window");
    assertThat(d.diff()).isEqualTo("partition [] first differs at position 0: expected [7], actual [5]");
  }

  /** Group count as the output, except a group of exactly two rows says 99: wrong only at two. */
  static final Reducer WRONG_AT_TWO = (key, group) -> {
    long n = 0;
    for (ZSet.Entry e : group) {
      n += e.weight();
    }
    return ZSet.of(Row.of(key.get(0), n == 2 ? 99 : n));
  };

  static final Reducer COUNT = (key, group) -> {
    long n = 0;
    for (ZSet.Entry e : group) {
      n += e.weight();
    }
    return ZSet.of(Row.of(key.get(0), n));
  };

  @Test
  void splitDeliveryExposesStatesThatStepBoundariesHide() {
    Schema out = Schema.parse("k INT, n INT");
    OracleRunner runner = OracleRunner.builder("wrong-at-two", Map.of("a", K),
        graph(b -> b.input("a", K).reduce(List.of("k"), out, WRONG_AT_TWO)))
        .multiset("out", in -> Naive.reduce(in.get("a"), K, List.of("k"), COUNT)).build();
    // Within the one step the group holds 1, 2, 1, 0, 1 rows; at step boundaries never 2.
    History h = History.parse("""
        step 0
          a +1 [1, 10]
          a +1 [1, 11]
          a -1 [1, 10]
          a -1 [1, 11]
          a +1 [1, 12]
        """);
    assertThat(runner.run(h)).isEmpty();
    assertThat(runner.runBatchPartition(h.merged(), 0)
        .filter(d -> !d.delivery().equals("split"))).isEmpty();
    List<Divergence> found = new ArrayList<>();
    for (long splitSeed = 0; splitSeed < 20; splitSeed++) {
      runner.runBatchPartition(h, splitSeed).ifPresent(found::add);
    }
    assertThat(found).isNotEmpty().allSatisfy(d -> {
      assertThat(d.delivery()).isEqualTo("split");
      assertThat(d.actual()).contains("[1, 99]");
      assertThat(d.history().size()).isGreaterThan(1);
    });
  }

  @Test
  void aFailureOnlyASplitDeliveryShowsIsReportedAsATraceThatReplaysStepByStep() {
    Schema out = Schema.parse("k INT, n INT");
    OracleRunner runner = OracleRunner.builder("wrong-at-two", Map.of("a", K),
        graph(b -> b.input("a", K).reduce(List.of("k"), out, WRONG_AT_TWO)))
        .multiset("out", in -> Naive.reduce(in.get("a"), K, List.of("k"), COUNT)).build();
    // Steps that pass through a group of two only inside a step, never at its end.
    HistoryGenerator gen = HistoryGenerator.over("a", K).withDomainSize(2).withMaxChangesPerStep(8);
    List<Long> seeds = Seeds.defaults(200).stream().filter(s -> runner.run(gen.generate(s)).isEmpty()).toList();
    AssertionError e = catchThrowableOfType(AssertionError.class, () -> runner.checkBatchPartition(gen, seeds));
    assertThat(e).isNotNull();
    String msg = e.getMessage();
    assertThat(msg).contains("batch partition check", "split delivery");
    Trace trace = Trace.parse(msg.substring(msg.indexOf("# seed")));
    assertThat(runner.run(trace.history())).as("the trace fails when replayed step by step").isPresent();
    assertThatThrownBy(() -> runner.replay(trace.history())).isInstanceOf(AssertionError.class);
    // Minimal: a run that leaves a group of two rows.
    assertThat(trace.history().changeCount()).isLessThanOrEqualTo(2);
  }

  @Test
  void anOperatorThatThrowsIsADivergenceAtThatStep() {
    Schema out = Schema.parse("k INT, n INT");
    Reducer throwsAtThree = (key, group) -> {
      ZSet z = COUNT.reduce(key, group);
      if (z.row(0).getLong(1) == 3) {
        throw new IllegalStateException("boom at three");
      }
      return z;
    };
    OracleRunner runner = OracleRunner.builder("throws", Map.of("a", K),
        graph(b -> b.input("a", K).reduce(List.of("k"), out, throwsAtThree)))
        .multiset("out", in -> Naive.reduce(in.get("a"), K, List.of("k"), COUNT)).build();
    History h = History.parse("step\n  a +2 [1, 1]\nstep\n  a +1 [2, 1]\nstep\n  a +1 [1, 5]\n");
    Divergence d = runner.run(h).orElseThrow();
    assertThat(d.step()).isEqualTo(2);
    assertThat(d.kind()).isEqualTo("exception");
    assertThat(d.actual()).contains("boom at three");
  }

  @Test
  void replayOfAFailingTraceThrowsWithTheDivergence() {
    assertThatThrownBy(() -> wrongFilterOracle().replay(handMade()))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("at step 2 of 4")
        .hasMessageContaining("scenario wrong-oracle");
    wrongFilterOracle().replay(History.parse("step\n  a +1 [1, 1]\n"));
  }

  @Test
  void aHistoryThatDoesNotFitTheInputsIsRejectedNotReported() {
    OracleRunner runner = wrongFilterOracle();
    assertThatThrownBy(() -> runner.run(History.parse("step\n  b +1 [1, 1]\n")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown input 'b'");
    assertThatThrownBy(() -> runner.run(History.parse("step\n  a +1 [NULL, 1]\n")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("NOT NULL");
  }

  @Test
  void divergenceIsEmptyOptionalNotNull() {
    Optional<Divergence> none = wrongFilterOracle().run(History.of());
    assertThat(none).isEmpty();
  }

  private static long failingSeed(String msg) {
    int at = msg.indexOf("for seed ") + "for seed ".length();
    return Long.parseLong(msg.substring(at, msg.indexOf(' ', at)));
  }
}
