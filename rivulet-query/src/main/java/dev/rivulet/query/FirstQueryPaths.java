package dev.rivulet.query;

import java.util.function.BooleanSupplier;

/**
 * The classes a user's first live query reaches, by name, for the warm-up to load ahead of it (by
 * name only: neither linked nor initialised, no code run). A fresh JVM spends a couple of hundred
 * microseconds on each class it reads from a jar; loaded on the warm-up's thread while the
 * application loads its rows, the query finds them defined when it gets to them. {@link #BUILD}:
 * what a query's building and compiling reach (its description, the compiler, the operators);
 * {@link #LATE}: what it reaches only after its compile (the result's state, then the bulk paths of
 * a join's and a top-K's hydration). Both in the order a query needs them, for the two common
 * shapes (a filtered, ordered, limited read; a left join filtered on its joined side, ordered and
 * limited); a warm-up that a user's query stopped first loads them from the last back ({@link
 * #loadBackwards}).
 * A name here that no longer exists is skipped (and fails {@code WarmupTest}); every name is used
 * by those shapes' first queries ({@code FirstQueryClassesTest}).
 *
 * <p>Stateless: the lists are immutable constants.
 */
final class FirstQueryPaths {
  static final String[] BUILD = {
    "dev.rivulet.query.Query",
    "dev.rivulet.query.QueryIR",
    "dev.rivulet.query.QueryIR$Relation",
    "dev.rivulet.query.QueryIR$Aliased",
    "dev.rivulet.query.QueryIR$Table",
    "dev.rivulet.query.QueryIR$Select",
    "dev.rivulet.query.Exprs",
    "dev.rivulet.query.Expr$Col",
    "dev.rivulet.query.Expr$Lit",
    "dev.rivulet.query.Expr$Compare",
    "dev.rivulet.query.Expr$CompareOp",
    "dev.rivulet.query.QueryIR$OrderItem",
    "dev.rivulet.query.LiveQuery",
    "dev.rivulet.engine.GraphBuilder",
    "dev.rivulet.engine.Operator",
    "dev.rivulet.engine.OutputSink",
    "dev.rivulet.engine.InputOperator",
    "dev.rivulet.query.LiveQuery$SourceKinds",
    "dev.rivulet.engine.RowSource",
    "dev.rivulet.query.compile.QueryPlans",
    "dev.rivulet.query.compile.QueryPlans$Inputs",
    "dev.rivulet.query.compile.QueryCompiler",
    "dev.rivulet.query.expr.Scope",
    "dev.rivulet.query.compile.IndexedReads",
    "dev.rivulet.query.compile.QueryCompiler$Rel",
    "dev.rivulet.engine.Delta",
    "dev.rivulet.engine.state.Bag",
    "dev.rivulet.engine.Stream",
    "dev.rivulet.query.expr.Expressions",
    "dev.rivulet.query.compile.Layout",
    "dev.rivulet.query.compile.Layout$Part",
    "dev.rivulet.query.expr.TypeChecker",
    "dev.rivulet.query.expr.Scope$Slot",
    "dev.rivulet.query.expr.ExprCompiler",
    "dev.rivulet.query.expr.Evaluator",
    "dev.rivulet.query.expr.ColumnEquals",
    "dev.rivulet.engine.FilterOperator",
    "dev.rivulet.query.compile.JoinColumns",
    "dev.rivulet.query.compile.Projection",
    "dev.rivulet.query.compile.OutputRefs",
    "dev.rivulet.query.compile.Projection$RowScope",
    "dev.rivulet.query.compile.Projection$OrderColumns",
    "dev.rivulet.engine.SortKey",
    "dev.rivulet.query.compile.Compiled",
    "dev.rivulet.engine.RowOrder",
    "dev.rivulet.engine.state.OrderStatisticTree$Prefix",
    "dev.rivulet.engine.TopKOperator",
    "dev.rivulet.engine.InvariantViolation",
    "dev.rivulet.engine.state.OrderStatisticTree$RangeVisitor",
    "dev.rivulet.engine.WindowDiff$Candidate",
    "dev.rivulet.engine.state.OrderStatisticTree",
    "dev.rivulet.engine.state.OrderStatisticTree$Node",
    "dev.rivulet.engine.state.OrderStatisticTree$Inner",
    "dev.rivulet.engine.state.OrderStatisticTree$Leaf",
    "dev.rivulet.engine.WindowDiff",
    "dev.rivulet.query.compile.QueryPlans$Plan",
    "dev.rivulet.query.state.RetractedRows",
    "dev.rivulet.query.face.WindowSteps$View",
    // the left join's
    "dev.rivulet.query.QueryIR$JoinKind",
    "dev.rivulet.query.QueryIR$On",
    "dev.rivulet.query.QueryIR$Join",
    "dev.rivulet.query.Expr$IsNull",
    "java.math.BigDecimal", // a literal's kind
    "java.math.BigInteger",
    "dev.rivulet.query.Expr$Or",
    "dev.rivulet.query.QueryIR$SelectItem",
    "dev.rivulet.query.Expr$And",
    "dev.rivulet.query.Expr$Not",
    "dev.rivulet.engine.JoinType",
    "dev.rivulet.query.compile.QueryCompiler$JoinSpec",
    "dev.rivulet.query.expr.ColumnTests",
    "dev.rivulet.query.compile.LeftJoinWindow",
    "dev.rivulet.query.compile.Projection$SelectList",
    "dev.rivulet.query.expr.Evaluator$ColumnRef",
    "dev.rivulet.query.expr.Evaluator$Picking",
    "dev.rivulet.engine.JoinOperator",
    "dev.rivulet.engine.JoinRows",
    "dev.rivulet.engine.state.KeyIndex",
    "dev.rivulet.engine.state.LongKeyedBags",
    "dev.rivulet.engine.state.LongSlots",
    "dev.rivulet.engine.state.KeyedBags",
    "dev.rivulet.engine.state.KeyWeights",
    "dev.rivulet.engine.LeftRowsHydration",
    "dev.rivulet.engine.LeftJoinStep",
    "java.util.LinkedHashMap$LinkedEntrySet", // a join's layout, copied and read
    "java.util.LinkedHashMap$LinkedEntryIterator",
    "java.util.LinkedHashMap$LinkedValues",
    "java.util.LinkedHashMap$LinkedValueIterator",
  };

  static final String[] LATE = {
    "dev.rivulet.engine.MapOperator",
    "java.lang.IndexOutOfBoundsException", // the bytecode verifier's, for a throw
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

  private FirstQueryPaths() {}

  /**
   * Loads {@link #LATE}, then {@link #BUILD}, each from its last name to its first (a name already
   * loaded costs a lookup): beside a user's first query, which loads what it needs from the first
   * on, the two threads meet instead of contending for the same classes. Returns how many it
   * loaded or found loaded. Never throws.
   */
  static int loadBackwards() {
    ClassLoader loader = FirstQueryPaths.class.getClassLoader();
    int loaded = 0;
    for (String[] names : new String[][] {LATE, BUILD}) {
      for (int i = names.length - 1; i >= 0; i--) {
        loaded += load(names[i], loader);
      }
    }
    return loaded;
  }

  /**
   * Loads the named classes in order, skipping any that cannot be, until {@code stop} (null: never)
   * says to stop, asked before each; returns how many it loaded. Never throws.
   */
  static int load(String[] names, BooleanSupplier stop) {
    ClassLoader loader = FirstQueryPaths.class.getClassLoader();
    int loaded = 0;
    for (String name : names) {
      if (stop != null && stop.getAsBoolean()) {
        break;
      }
      loaded += load(name, loader);
    }
    return loaded;
  }

  /** 1 when {@code name} loads (or is loaded), else 0. */
  private static int load(String name, ClassLoader loader) {
    try {
      Class.forName(name, false, loader);
      return 1;
    } catch (ClassNotFoundException | LinkageError e) {
      return 0; // left to the query that needs it, which reports what is wrong
    }
  }
}
