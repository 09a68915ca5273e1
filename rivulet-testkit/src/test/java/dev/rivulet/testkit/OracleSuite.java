package dev.rivulet.testkit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The two checks every operator scenario gets. A subclass supplies {@code static
 * List<Scenario> scenarios()}; JUnit looks it up in the concrete test class.
 */
abstract class OracleSuite {
  @BeforeAll
  static void resetRareTally() {
    RareKinds.TRACES.reset();
  }

  /** How many checked states held each rare kind of value (see {@link RareKinds}). */
  @AfterAll
  static void printRareTally() {
    System.out.println("operator oracle: " + RareKinds.TRACES);
  }

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
