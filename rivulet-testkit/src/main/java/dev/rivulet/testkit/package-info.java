/**
 * The testkit: seeded histories, naive oracles and the trace runner that check Rivulet's
 * incremental operators against recomputation from scratch.
 *
 * <p>The pieces, one per file:
 *
 * <ul>
 *   <li>{@link dev.rivulet.testkit.Seeds}: the seeds a property runs over, from {@code
 *       RIVULET_SEED} (replay one seed), {@code RIVULET_RUNS} (scale up) and a fixed default base.
 *   <li>{@link dev.rivulet.testkit.History}: steps (transactions) of changes to named inputs; its
 *       text form for failure messages and committed traces. {@link dev.rivulet.testkit.Trace}:
 *       a history with the name of the scenario it replays against.
 *   <li>{@link dev.rivulet.testkit.HistoryGenerator}: valid random histories with retractions,
 *       updates, duplicates and nulls over small colliding domains.
 *   <li>{@link dev.rivulet.testkit.Shrinker}: a failing history made smaller while it still fails.
 *   <li>{@link dev.rivulet.testkit.Naive}: every operator recomputed from full multisets, with SQL
 *       semantics; the oracle.
 *   <li>{@link dev.rivulet.testkit.OracleRunner}: delivers histories to fresh graphs, folds every
 *       output change (splicing positioned windows), compares with the oracle after every step,
 *       and on failure shrinks and reports a {@link dev.rivulet.testkit.Divergence} with the seed
 *       and the trace.
 * </ul>
 *
 * <p>Typical use, in a JUnit test:
 *
 * <pre>{@code
 * OracleRunner runner = OracleRunner.builder("join-left", Map.of("l", L, "r", R), () -> {
 *       GraphBuilder b = Graph.builder();
 *       b.output("out", b.input("l", L).join(b.input("r", R), JoinType.LEFT, "lk", "rk"));
 *       return b.build();
 *     })
 *     .multiset("out", in -> Naive.join(in.get("l"), L, in.get("r"), R, JoinType.LEFT, List.of("lk"), List.of("rk")))
 *     .build();
 * runner.check(runner.generator().mixed(), Seeds.runs(150));
 * runner.checkBatchPartition(runner.generator().mixed(), Seeds.runs(75));
 * }</pre>
 *
 * <p>Main code depends on the JDK and the engine only; assertions are plain {@link
 * java.lang.AssertionError}s, so any test framework reports them.
 */
package dev.rivulet.testkit;
