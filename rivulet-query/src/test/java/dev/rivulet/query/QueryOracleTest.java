package dev.rivulet.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.rivulet.testkit.Seeds;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The query oracle: random schemas, data, queries and histories of sync batches and optimistic
 * transactions; after the live queries are created and after every transaction, each live query
 * must agree with the naive evaluator, with SQLite and with H2, its change events must fold into
 * its rows, and every listener must see whole transactions only (see {@link OracleRun} for the
 * list of checks, {@link RandomQueries} and {@link RandomScalars} for what is generated and the
 * restrictions that keep the SQL engines' semantics equal to ours).
 *
 * <p>Each seed is one scenario: two to four collections (keys 1..9, or 1..40 in one world of five),
 * three to five queries over them, in two seeds of three also a query over one of those live
 * queries (sometimes a second level over that, sometimes joining the upstream with itself), and a
 * history of 16 to 28 steps; the live queries are created before any data, after the initial load,
 * after the whole history or somewhere in between.
 * {@code RIVULET_SEED} replays one seed; {@code RIVULET_RUNS} multiplies the seed count (the
 * default run is {@value #SCENARIOS} scenarios). On a divergence the scenario is shrunk to a
 * minimal history that still fails the same way, and the failure names the seed, the query (as SQL),
 * the first divergent step, the expected and actual rows, and the shrunk history; every other
 * failing seed is listed with its kind of failure, and one shrunk report is given per kind.
 */
class QueryOracleTest {
  static final int SCENARIOS = 150;

  @Test
  void liveQueriesAgreeWithNaiveEvaluatorAndSqlEngines() {
    int scenarios = 0;
    int steps = 0;
    OracleRun.Stats stats = new OracleRun.Stats();
    QueryFeatures features = new QueryFeatures();
    List<String> failures = new ArrayList<>();
    Map<String, String> reports = new LinkedHashMap<>();
    for (long seed : Seeds.runs(SCENARIOS)) {
      Random r = new Random(seed);
      OracleScenario sc = OracleScenario.random(r, 3 + r.nextInt(3), r.nextInt(3) > 0, 16 + r.nextInt(13));
      scenarios++;
      steps += sc.steps().size();
      sc.queries().forEach(q -> features.add(q.ir()));
      OracleRun.Divergence d = OracleRun.run(sc, options(sc), stats);
      if (d != null) {
        failures.add("seed " + seed + ": " + d.kind() + (d.query() == null ? "" : " (" + d.query() + ")"));
        if (!reports.containsKey(d.kind()) && reports.size() < 3) {
          reports.put(d.kind(), report(seed, sc, d));
        }
      }
    }
    int queries = features.counts.getOrDefault("select list", 0) + features.counts.getOrDefault("select all", 0);
    System.out.printf("query oracle: %d scenarios, %d transactions, %s; %d generated queries rejected by the"
        + " compiler%n  query blocks by feature: %s%n", scenarios, steps, stats, OracleScenario.REJECTED.size(),
        features.counts);
    if (!reports.isEmpty()) {
      fail(failures.size() + " of " + scenarios + " scenarios diverged: "
          + (failures.size() > 10 ? failures.subList(0, 10) + " ..." : failures) + "\n\n"
          + String.join("\n\n", reports.values()));
    }
    if (Seeds.fixedSeed().isEmpty()) {
      assertThat(OracleScenario.REJECTED.size()).as("generated queries the compiler rejected: %s",
          OracleScenario.REJECTED).isLessThan(Math.max(3, queries / 50));
      assertThat(features.missing()).as("features the generator never produced").isEmpty();
      assertThat(stats.nonEmpty).as("results that are not empty").isGreaterThan(stats.results * 2 / 5);
    }
  }

  /** Every SQL engine, except H2 for a world with text beyond U+FFFF (H2 orders UTF-16 units). */
  static OracleRun.Options options(OracleScenario sc) {
    return sc.world().unicode ? new OracleRun.Options(true, false) : OracleRun.Options.ALL;
  }

  /** The shrunk report of a failing scenario of this test. */
  static String report(long seed, OracleScenario sc, OracleRun.Divergence d) {
    return report(QueryOracleTest.class, seed, sc, d);
  }

  /** The shrunk report of a failing scenario of {@code test}. */
  static String report(Class<?> test, long seed, OracleScenario sc, OracleRun.Divergence d) {
    OracleShrinker.Result s = OracleShrinker.shrink(sc, d, 600);
    OracleRun.Divergence sd = s.divergence();
    StringBuilder sb = new StringBuilder();
    sb.append("seed ").append(seed).append(" (replay: RIVULET_SEED=").append(seed)
        .append(" mvn verify -pl rivulet-query -Dtest=").append(test.getSimpleName()).append(")\n");
    sb.append("first divergence: ").append(d.describe()).append("\n\n");
    sb.append("shrunk in ").append(s.attempts()).append(" replays to: ").append(sd.describe()).append('\n');
    sb.append(s.scenario().describe());
    if (sd.query() != null) {
      for (OracleScenario.Spec spec : s.scenario().queries()) {
        if (spec.name().equals(sd.query())) {
          sb.append("  query IR: ").append(spec.ir()).append('\n');
        }
      }
    }
    return sb.toString();
  }
}
