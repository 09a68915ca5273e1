package dev.rivulet.engine;

/** TEMPORARY instrumentation (issue 11 tail hunt): global operation counters, read per update by the bench. */
public final class Probe {
  private Probe() {}

  public static final String[] NAMES = {
    "refills", "refillScanned", "refillTaken", "compactions", "compactScanned", "deferAdds", "deferGrows",
    "treeSplits", "treeMerges", "treeRootChanges", "leafMaterialize", "walkPath", "edgePath", "diffSize",
    "topkExamined", "events", "treeAdds", "treeSize"
  };
  public static final int REFILLS = 0, REFILL_SCANNED = 1, REFILL_TAKEN = 2, COMPACTIONS = 3, COMPACT_SCANNED = 4,
      DEFER_ADDS = 5, DEFER_GROWS = 6, TREE_SPLITS = 7, TREE_MERGES = 8, TREE_ROOT = 9, LEAF_MAT = 10, WALK = 11,
      EDGE = 12, DIFF = 13, TOPK_EXAMINED = 14, EVENTS = 15, TREE_ADDS = 16, TREE_SIZE = 17;
  public static final long[] C = new long[NAMES.length];
}
