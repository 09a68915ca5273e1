package dev.rivulet.query;

/**
 * The warm-up's answer to a user's first live query: the classes a first query reaches only after
 * its compile (the result's state, then the bulk paths of a join's and a top-K's hydration),
 * loaded by name, neither linked nor initialised, on the warm-up's thread while the query compiles
 * on the application's. A fresh JVM spends a couple of hundred microseconds on each class it reads
 * from a jar; loaded here, in parallel, the query finds them defined when it gets to them. Listed in
 * the order a query needs them. A name here that no longer exists is skipped (and fails {@code
 * WarmupTest}); a class a query does not use costs the other core a fraction of a millisecond.
 *
 * <p>Stateless: the list is an immutable constant.
 */
final class LatePaths {
  static final String[] NAMES = {
    "dev.rivulet.engine.MapOperator",
    "dev.rivulet.engine.ZSet",
    "dev.rivulet.engine.Output",
    "dev.rivulet.query.QueryFailure",
    "dev.rivulet.query.ResultOrder",
    "dev.rivulet.query.compile.RowShape",
    "dev.rivulet.engine.Input",
    "dev.rivulet.engine.state.PackedBags",
    "dev.rivulet.engine.state.PackedBags$Survey",
    "dev.rivulet.engine.state.LongBatch",
    "dev.rivulet.engine.FirstRows",
    "dev.rivulet.engine.DeferredRows",
    "dev.rivulet.engine.SortedBatch",
    "dev.rivulet.engine.PrefixSort",
    "dev.rivulet.engine.PrefixSort$Plan",
    "java.util.DualPivotQuicksort",
    "dev.rivulet.engine.SortedBatch$Consolidation",
    "dev.rivulet.engine.DeferredBuckets",
    "dev.rivulet.engine.TopKOperator$WindowEmission",
    "dev.rivulet.engine.UnchangedPairs",
  };

  private LatePaths() {}

  /** Loads the listed classes, skipping any that cannot be; returns how many it loaded. Never throws. */
  static int load() {
    ClassLoader loader = LatePaths.class.getClassLoader();
    int loaded = 0;
    for (String name : NAMES) {
      try {
        Class.forName(name, false, loader);
        loaded++;
      } catch (ClassNotFoundException | LinkageError e) {
        // left to the query that needs it, which reports what is wrong
      }
    }
    return loaded;
  }
}
