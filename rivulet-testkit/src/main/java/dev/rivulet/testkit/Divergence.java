package dev.rivulet.testkit;

/**
 * The first point where a graph's folded output disagrees with its oracle, or where a run broke a
 * contract: what {@link OracleRunner} reports.
 *
 * @param step the index of the first divergent step of {@code history} (the number of steps
 *     delivered so far minus one); for a final-state mismatch between deliveries, the history's
 *     size
 * @param output the output name
 * @param kind {@code "multiset"} (the folded multiset differs from the oracle), {@code "window"}
 *     (a window list differs in content or order), {@code "delta"} (a run's change broke the
 *     output contract: not consolidated, missing or misordered positions, a splice that does not
 *     fit), {@code "exception"} (the run threw), or {@code "final-state"} (two deliveries of one
 *     history ended in different states)
 * @param expected the expected state, rendered
 * @param actual the actual state (or the exception), rendered
 * @param diff what differs: rows missing and unexpected with their multiplicities, or the first
 *     differing list position
 * @param delivery how the history was delivered: {@code "step by step"}, {@code "atomic"} (all
 *     steps in one run) or {@code "split"} (each step cut into several runs)
 * @param history the history as delivered, whose step {@code step} diverged
 */
public record Divergence(int step, String output, String kind, String expected, String actual, String diff,
    String delivery, History history) {

  /** The divergent step, or null for a final-state mismatch. */
  public History.Step divergentStep() {
    return step < history.size() ? history.step(step) : null;
  }

  /** A multi-line report: where, which step, expected, actual, diff. */
  public String describe() {
    StringBuilder sb = new StringBuilder();
    sb.append("output '").append(output).append("' diverged (").append(kind).append(") ");
    if (step < history.size()) {
      sb.append("at step ").append(step).append(" of ").append(history.size());
    } else {
      sb.append("after all ").append(history.size()).append(" steps");
    }
    sb.append(", delivered ").append(delivery).append('\n');
    History.Step s = divergentStep();
    if (s != null) {
      sb.append(HistoryText.renderStep(s, step));
    }
    if (!expected.isEmpty()) {
      sb.append("expected: ").append(expected).append('\n');
    }
    sb.append("actual:   ").append(actual).append('\n');
    if (!diff.isEmpty()) {
      sb.append("diff:     ").append(diff).append('\n');
    }
    return sb.toString();
  }

  @Override
  public String toString() {
    return describe();
  }
}
