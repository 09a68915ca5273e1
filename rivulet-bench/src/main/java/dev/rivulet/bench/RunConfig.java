package dev.rivulet.bench;

/**
 * Settings of one runner invocation.
 *
 * @param updates timed updates per mix
 * @param warmup untimed updates per mix before the timed ones
 * @param seed seed of the data and of every update sequence
 * @param hydrateRuns hydrations per workload and size, or 0 for the default (10 below 500,000 rows,
 *     else 5; see {@link Hydration}); the last graph is kept for the updates
 */
record RunConfig(int updates, int warmup, long seed, int hydrateRuns) {
  static final long DEFAULT_SEED = 20_240_601L;

  /** Hydrations to run at {@code rows} rows. */
  int hydrateRuns(int rows) {
    return hydrateRuns > 0 ? hydrateRuns : rows < 500_000 ? 10 : 5;
  }
}
