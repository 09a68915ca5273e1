package dev.rivulet.testkit;

import dev.rivulet.engine.Graph;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Checks a graph against a naive oracle over histories: the reconstruction contract, at every
 * transaction boundary.
 *
 * <p>A runner has a name (the scenario, printed in traces), the graph's inputs with their
 * schemas, a factory of fresh graphs, and for each checked output a naive function from the full
 * input multisets ({@code input name -> row -> multiplicity}; every declared input present) to
 * the expected full output: a multiset, or for a positioned (top-K) output the ordered window
 * list of each partition. {@link #run} delivers a history step by step to a fresh graph, runs it
 * after each step, folds each output's change into the accumulated state (a consolidated
 * multiset; for positioned outputs also a window list per partition, spliced by position), and
 * compares with the oracle after every step; list order must match exactly.
 *
 * <p>{@link #runBatchPartition} delivers one history three ways -- step by step, atomically (all
 * steps in one run) and with each step split into several runs (with some empty runs, which must
 * change nothing, in between) -- checking each against the oracle at every run and then checking
 * that all three end in the same state.
 *
 * <p>{@link #check} and {@link #checkBatchPartition} run these over seeded generated histories
 * and, on the first failing seed, shrink the history and throw an {@link AssertionError} naming
 * the seed, how to replay it and the shrunk trace (a {@link Trace} to commit as a regression).
 * Immutable; a runner may be reused, each run builds its own graph.
 */
public final class OracleRunner {
  /** An oracle over the full input multisets. */
  public interface MultisetOracle extends Function<Map<String, Map<Row, Long>>, Map<Row, Long>> {}

  /** An oracle of ordered windows: partition key row -> window list. */
  public interface WindowOracle extends Function<Map<String, Map<Row, Long>>, Map<Row, List<Row>>> {}

  /** One checked output. */
  record OutputSpec(String name, MultisetOracle multiset, List<String> partitionBy, WindowOracle windows) {
    boolean positioned() {
      return windows != null;
    }
  }

  private static final long SPLIT_SALT = 0x51D1_7B47_C4E5L;
  private final String name;
  private final Map<String, Schema> inputs;
  private final Supplier<Graph> graphFactory;
  private final List<OutputSpec> outputs;
  private final int shrinkAttempts;

  private OracleRunner(Builder b) {
    this.name = b.name;
    this.inputs = Map.copyOf(b.inputs);
    this.graphFactory = b.graphFactory;
    this.outputs = List.copyOf(b.outputs);
    this.shrinkAttempts = b.shrinkAttempts;
  }

  /**
   * Starts a runner named {@code name} (letters, digits, '_', '-', '.') over {@code inputs}, whose
   * graphs come from {@code graphFactory} (called once per delivery; it must build a fresh graph
   * with those inputs and the outputs declared on the builder).
   */
  public static Builder builder(String name, Map<String, Schema> inputs, Supplier<Graph> graphFactory) {
    return new Builder(name, inputs, graphFactory);
  }

  public String name() {
    return name;
  }

  public Map<String, Schema> inputs() {
    return inputs;
  }

  Supplier<Graph> graphFactory() {
    return graphFactory;
  }

  List<OutputSpec> outputs() {
    return outputs;
  }

  /**
   * A generator of histories over this runner's inputs (in name order), with default settings;
   * add {@link HistoryGenerator#mixed()} to vary the shape per seed.
   */
  public HistoryGenerator generator() {
    return HistoryGenerator.over(new java.util.TreeMap<>(inputs));
  }

  /**
   * Delivers {@code history} step by step and returns the first divergence, if any.
   *
   * @throws IllegalArgumentException when the history names an unknown input or a row does not fit
   */
  public Optional<Divergence> run(History history) {
    return Optional.ofNullable(TraceRun.run(this, history, "step by step").divergence());
  }

  /**
   * Delivers {@code history} step by step, atomically and split (the cut points drawn from {@code
   * splitSeed}), and returns the first divergence from the oracle or between the final states.
   */
  public Optional<Divergence> runBatchPartition(History history, long splitSeed) {
    TraceRun.Outcome stepwise = TraceRun.run(this, history, "step by step");
    if (stepwise.divergence() != null) {
      return Optional.of(stepwise.divergence());
    }
    Random random = new Random(splitSeed ^ SPLIT_SALT);
    List<History> others = List.of(history.merged(), withEmptyRuns(history.split(random, 4), random));
    List<String> names = List.of("atomic", "split");
    for (int i = 0; i < others.size(); i++) {
      TraceRun.Outcome o = TraceRun.run(this, others.get(i), names.get(i));
      if (o.divergence() != null) {
        return Optional.of(o.divergence());
      }
      Divergence d = compareFinal(stepwise.outputs(), o.outputs(), others.get(i), names.get(i));
      if (d != null) {
        return Optional.of(d);
      }
    }
    return Optional.empty();
  }

  /** {@code h} with empty steps (runs with no input) inserted at random, sometimes first. */
  private static History withEmptyRuns(History h, Random random) {
    List<History.Step> out = new ArrayList<>();
    if (random.nextBoolean()) {
      out.add(History.Step.of());
    }
    for (History.Step s : h.steps()) {
      out.add(s);
      if (random.nextInt(4) == 0) {
        out.add(History.Step.of());
      }
    }
    return new History(out);
  }

  private static Divergence compareFinal(Map<String, FoldedOutput> reference, Map<String, FoldedOutput> other,
      History delivered, String delivery) {
    for (FoldedOutput ref : reference.values()) {
      FoldedOutput o = other.get(ref.name);
      if (!ref.multiset.equals(o.multiset)) {
        return new Divergence(delivered.size(), ref.name, "final-state", "step by step: " + Render.multiset(ref.multiset),
            delivery + ": " + Render.multiset(o.multiset), Render.multisetDiff(ref.multiset, o.multiset), delivery,
            delivered);
      }
      if (!ref.windows.equals(o.windows)) {
        return new Divergence(delivered.size(), ref.name, "final-state", "step by step: " + Render.windows(ref.windows),
            delivery + ": " + Render.windows(o.windows), Render.windowsDiff(ref.windows, o.windows), delivery,
            delivered);
      }
    }
    return null;
  }

  /** {@link #check(HistoryGenerator, List)} with {@code generator().mixed()}. */
  public void check(List<Long> seeds) {
    check(generator().mixed(), seeds);
  }

  /**
   * Runs {@link #run} over the history of each seed.
   *
   * @throws AssertionError for the first failing seed, with the divergence, the seed, how to
   *     replay it and the shrunk trace
   */
  public void check(HistoryGenerator generator, List<Long> seeds) {
    property(generator, seeds, "oracle", (h, seed) -> run(h));
  }

  /** {@link #checkBatchPartition(HistoryGenerator, List)} with {@code generator().mixed()}. */
  public void checkBatchPartition(List<Long> seeds) {
    checkBatchPartition(generator().mixed(), seeds);
  }

  /**
   * Runs {@link #runBatchPartition} over the history of each seed (split points from the seed).
   *
   * @throws AssertionError as {@link #check(HistoryGenerator, List)} does
   */
  public void checkBatchPartition(HistoryGenerator generator, List<Long> seeds) {
    property(generator, seeds, "batch partition", (h, seed) -> runBatchPartition(h, seed));
  }

  /**
   * Replays a committed trace: step by step, then atomically and split.
   *
   * @throws AssertionError with the divergence (and a shrunk trace when smaller) if it diverges
   */
  public void replay(History history) {
    Optional<Divergence> d = runBatchPartition(history, 0);
    if (d.isPresent()) {
      Predicate<History> fails = h -> stillFails(() -> runBatchPartition(h, 0));
      throw new AssertionError(report("replayed trace", null, 0, 0, d.get(), history, fails));
    }
  }

  private interface Check {
    Optional<Divergence> apply(History h, long seed);
  }

  private void property(HistoryGenerator generator, List<Long> seeds, String what, Check check) {
    for (int i = 0; i < seeds.size(); i++) {
      long seed = seeds.get(i);
      History h = generator.generate(seed);
      Optional<Divergence> d = check.apply(h, seed);
      if (d.isPresent()) {
        Predicate<History> fails = c -> stillFails(() -> check.apply(c, seed));
        throw new AssertionError(report(what, seed, i, seeds.size(), d.get(), h, fails));
      }
    }
  }

  /**
   * Whether a shrinking candidate still diverges. A candidate the runner rejects, or on which the
   * oracle itself throws, does not count: that is not the failure being shrunk. (The graph's own
   * exceptions are divergences already.)
   */
  private static boolean stillFails(Supplier<Optional<Divergence>> attempt) {
    try {
      return attempt.get().isPresent();
    } catch (RuntimeException notThisFailure) {
      return false;
    }
  }

  private String report(String what, Long seed, int index, int count, Divergence first, History original,
      Predicate<History> fails) {
    Shrinker.Result shrunk = Shrinker.shrink(original, fails, shrinkAttempts);
    History small = shrunk.history();
    StringBuilder sb = new StringBuilder();
    sb.append("Scenario '").append(name).append("' failed its ").append(what).append(" check");
    if (seed != null) {
      sb.append(" for seed ").append(seed).append(" (run ").append(index + 1).append(" of ").append(count).append(")");
    }
    sb.append(".\n");
    if (seed != null) {
      sb.append("Replay: ").append(Seeds.replayHint(seed)).append('\n');
    }
    sb.append("\nFirst divergence, original history of ").append(count(original.size(), "step")).append(" and ")
        .append(count(original.changeCount(), "change")).append(":\n").append(first.describe());
    Divergence smallDivergence = small.equals(original)
        ? first
        : firstDivergence(small, seed == null ? 0 : seed).orElse(first);
    History trace = small;
    int attempts = shrunk.attempts();
    if (!smallDivergence.delivery().equals("step by step")) {
      // Only the atomic or split delivery fails. A trace is replayed step by step, so commit the
      // history as that delivery saw it (one run per step), shrunk again as such.
      Shrinker.Result again = Shrinker.shrink(smallDivergence.history(), h -> stillFails(() -> run(h)), shrinkAttempts);
      trace = again.history();
      attempts += again.attempts();
      smallDivergence = run(trace).orElse(smallDivergence);
    }
    if (!trace.equals(original)) {
      sb.append("\nShrunk in ").append(count(attempts, "attempt")).append(" to ")
          .append(count(trace.size(), "step")).append(" and ").append(count(trace.changeCount(), "change"))
          .append(":\n").append(smallDivergence.describe());
    }
    String comment = (seed != null ? "seed " + seed + ", " : "") + what + " check"
        + (first.delivery().equals("step by step") ? "" : ", " + first.delivery() + " delivery")
        + (trace.equals(original) ? "" : ", shrunk");
    sb.append("\nTrace (commit as src/test/resources/traces/<name>.trace to replay it as a regression):\n")
        .append(new Trace(name, trace).toText(comment));
    return sb.toString();
  }

  private static String count(int n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }

  private Optional<Divergence> firstDivergence(History h, long seed) {
    Optional<Divergence> d = run(h);
    return d.isPresent() ? d : runBatchPartition(h, seed);
  }

  /** Declares the outputs a runner checks. */
  public static final class Builder {
    private final String name;
    private final Map<String, Schema> inputs;
    private final Supplier<Graph> graphFactory;
    private final List<OutputSpec> outputs = new ArrayList<>();
    private int shrinkAttempts = 2000;

    private Builder(String name, Map<String, Schema> inputs, Supplier<Graph> graphFactory) {
      if (!HistoryText.isName(name)) {
        throw new IllegalArgumentException("scenario name '" + name + "' must be letters, digits, '_', '-' or '.' (and not 'step')");
      }
      this.name = name;
      this.inputs = new LinkedHashMap<>(inputs);
      this.graphFactory = Objects.requireNonNull(graphFactory, "graph factory");
      if (inputs.isEmpty()) {
        throw new IllegalArgumentException("a runner needs at least one input");
      }
    }

    /** Checks output {@code output} as a multiset against {@code oracle}. */
    public Builder multiset(String output, MultisetOracle oracle) {
      outputs.add(new OutputSpec(output, Objects.requireNonNull(oracle), List.of(), null));
      return this;
    }

    /**
     * Checks positioned output {@code output} against {@code oracle}'s window lists, partitioned
     * by the output columns {@code partitionBy} (empty for one window; its key is the empty row).
     */
    public Builder windows(String output, List<String> partitionBy, WindowOracle oracle) {
      outputs.add(new OutputSpec(output, null, List.copyOf(partitionBy), Objects.requireNonNull(oracle)));
      return this;
    }

    /** Upper bound on the predicate calls shrinking may make (default 2000). */
    public Builder shrinkAttempts(int n) {
      this.shrinkAttempts = n;
      return this;
    }

    public OracleRunner build() {
      if (outputs.isEmpty()) {
        throw new IllegalArgumentException("runner '" + name + "' checks no output");
      }
      return new OracleRunner(this);
    }
  }
}
