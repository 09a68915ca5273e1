package dev.rivulet.replica;

import static org.assertj.core.api.Assertions.fail;

import dev.rivulet.testkit.Seeds;
import java.sql.SQLException;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contract suite's random live queries (see {@link RandomLiveQueries}: filters, joins, grouped
 * aggregates, ordered limited windows, includes) against the database itself under random SQL
 * histories (see {@link SqlHistory}), for each backend, with every table loaded eagerly and with
 * comments and projects lazy ({@link ReplicaOptions#lazy}): after every step, each query's rows and
 * its change-batch subscriber's folded rows equal the database's answer. A failing history is
 * shrunk and reported with its seed.
 */
class LiveQueryContractTest {
  static Stream<Arguments> backends() {
    return Stream.of(ReplicaDialect.values()).flatMap(d -> Stream.of(Arguments.of(d, false), Arguments.of(d, true)));
  }

  @ParameterizedTest(name = "{0} lazy={1}")
  @MethodSource("backends")
  void randomLiveQueriesEqualTheDatabaseAfterEveryStep(ReplicaDialect d, boolean lazy) throws SQLException {
    ContractRun run = new ContractRun(d, lazy ? ReplicaOptions.lazy("comments", "projects") : ReplicaOptions.eager());
    for (long seed : Seeds.runs(5)) {
      Random r = new Random(seed);
      List<LiveCase> cases = RandomLiveQueries.generate(r, 6);
      List<SqlHistory.Step> steps = SqlHistory.generate(d, r, 40);
      ContractRun.Failure f = run.run(steps, cases);
      if (f != null) {
        ContractRun.Shrunk s = run.shrink(steps, cases, f, 400);
        fail(d + " lazy=" + lazy + " seed " + seed + " (" + Seeds.replayHint(seed) + "): " + f + "\n" + s.describe());
      }
    }
  }
}
