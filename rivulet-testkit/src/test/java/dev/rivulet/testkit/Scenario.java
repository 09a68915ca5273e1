package dev.rivulet.testkit;

/**
 * One oracle scenario of the operator suites: a runner (graph + naive oracle, named) and the
 * generator of its histories. Named so that committed traces can say which scenario they replay.
 */
record Scenario(OracleRunner runner, HistoryGenerator generator, int baseRuns) {
  Scenario(OracleRunner runner) {
    this(runner, runner.generator().mixed(), 300);
  }

  Scenario withGenerator(HistoryGenerator g) {
    return new Scenario(runner, g, baseRuns);
  }

  Scenario withBaseRuns(int n) {
    return new Scenario(runner, generator, n);
  }

  String name() {
    return runner.name();
  }

  /** The oracle property: folded output equals the naive recomputation after every step. */
  void checkOracle() {
    runner.check(generator, Seeds.runs(baseRuns));
  }

  /** The batch-partition property: step-by-step, atomic and split deliveries agree. */
  void checkBatchPartition() {
    runner.checkBatchPartition(generator, Seeds.runs(Math.max(1, baseRuns / 2)));
  }

  @Override
  public String toString() {
    return name();
  }
}
