package dev.rivulet.bench.query;

/**
 * Settings of one {@link QueryWorkloads} invocation.
 *
 * @param warmup untimed updates per mix before the timed ones (part of the peers' sequence:
 *     {@code run-peers.sh}'s default is 10000)
 * @param updates timed updates per mix ({@code run-peers.sh}'s default is 50000)
 * @param hydrateRuns fresh builds per workload and size; the first is reported as {@code
 *     hydrate_first_ms}, the medians of the others as {@code hydrate_warm_ms} and {@code
 *     load_until_ready_warm_ms}; the last is kept
 * @param prewarm updates run, for the JIT only, on the first (discarded) build, drawn from the
 *     same streams under another seed on a copy of the data; they never touch the measured build
 * @param seed seed of the data and of every update stream ({@link
 *     dev.rivulet.bench.peers.PeerData#DEFAULT_SEED} by default)
 * @param compare whether W1 also runs the compiled-vs-hand-wired comparison
 * @param mixes the mixes to run (empty: all); a skipped mix's updates are not made, so the data a
 *     later mix starts from differs from a full run's
 */
record Config(int warmup, int updates, int hydrateRuns, int prewarm, long seed, boolean compare,
    java.util.Set<String> mixes) {
  Config(int warmup, int updates, int hydrateRuns, int prewarm, long seed, boolean compare) {
    this(warmup, updates, hydrateRuns, prewarm, seed, compare, java.util.Set.of());
  }

  /** Whether {@code mix} runs. */
  boolean runs(String mix) {
    return mixes.isEmpty() || mixes.contains(mix);
  }

  /** Offset of the prewarm streams' seed, so they differ from every measured stream. */
  static final long PREWARM_SEED_OFFSET = 7_919_000_000L;
}
