package dev.rivulet.testkit;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The two checks every operator scenario gets. A subclass supplies {@code static
 * List<Scenario> scenarios()}; JUnit looks it up in the concrete test class.
 */
abstract class OracleSuite {
  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarios")
  void matchesNaiveAfterEveryStep(Scenario s) {
    s.checkOracle();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarios")
  void atomicAndSplitDeliveriesAgree(Scenario s) {
    s.checkBatchPartition();
  }
}
