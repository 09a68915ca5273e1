package dev.rivulet.query.face;

import dev.rivulet.engine.Row;
import dev.rivulet.query.CaughtChange;
import dev.rivulet.query.WindowDelta;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One change-tree subscriber's face: the result captured at subscription as {@link
 * CaughtChange.Add}s, then each {@link Publication}'s stored changes as the changes of the root
 * list ({@link TreeDiff} below it). The root of an ordered query is placed by the publication's
 * positioned steps (a removed row at its old index, an added one at its new index, a row that
 * moves as a Remove then an Add); an unordered root has index -1 throughout.
 *
 * <p>A root row whose stored value did not change still changes when a collection bucket it shows
 * (at any depth) did: after the root list's changes, each such row of the root as it now stands
 * gets its Child changes (or, shown by another root row too, a Remove and an Add at its index),
 * in the root's order, so every parent showing a bucket hears of its change in the same batch.
 * Those rows are found by a {@link BucketIndex} (bucket -> root rows showing it, at any depth)
 * and placed by {@link RootRanks} (the root's rows with their indexes; for an unordered root, the
 * order they entered it), both kept current by each publication, so the fan-out of a bucket's
 * change reads the rows showing the bucket only ({@link #rowsExamined}).
 *
 * <p>When a root row could be confused with another by value (an ordered root, or rows with
 * relationships), the face counts the scalar rows of the root as the subscriber folds them, so
 * that an Edit or Child is emitted only for a row no other root row shows.
 *
 * <p>Guarded by the database's monitor ({@link #capture} and {@link #changes} run under it, in
 * publication order), which also guards its index and ranks (built from the captured rows at the
 * first publication); {@link #hydrate} reads only the captured rows, which are immutable.
 */
public final class TreeFace {
  private final TreeDiff diff;
  private final boolean ordered;
  private final boolean counted;
  private Row[] captured; // until the counts are built from it
  private Map<Row, Integer> counts; // scalar rows of the root, as the subscriber has them
  // While the rows show collection buckets: the root rows by bucket, and their ranks in the root.
  private final BucketIndex index;
  private final RootRanks ranks;
  private long examined; // root rows read to fan a bucket's change out

  public TreeFace(TreeDiff diff, boolean ordered) {
    this.diff = diff;
    this.ordered = ordered;
    this.counted = ordered || !diff.flat();
    this.index = diff.showsBuckets() ? new BucketIndex(diff) : null;
    this.ranks = diff.showsBuckets() ? new RootRanks() : null;
  }

  /**
   * How many root rows the face has read to find those showing a changed bucket, over its life:
   * the rows showing the changed buckets, never the others.
   */
  public long rowsExamined() {
    return examined;
  }

  /** Keeps the stored rows the subscriber starts from (caller holds the monitor). */
  public void capture(Row[] stored) {
    captured = stored;
  }

  /** The captured rows as additions, in order (index = position when ordered, else -1). */
  public List<CaughtChange> hydrate(Row[] stored) {
    List<CaughtChange> out = new ArrayList<>(stored.length);
    for (int i = 0; i < stored.length; i++) {
      out.add(new CaughtChange.Add(diff.node(stored[i]), ordered ? i : -1));
    }
    return out;
  }

  /** The root list's changes of one publication, in order; empty when the tree did not change. */
  public List<CaughtChange> changes(Publication p) {
    if (p.stored == null || ordered && p.positions == null && !p.stored.isEmpty()) {
      throw new IllegalStateException("change-tree face: transaction " + p.txId + " was published without the"
          + (p.stored == null ? " stored rows" : " positions") + " it needs");
    }
    if (counted && counts == null) {
      counts = new HashMap<>();
      for (Row r : captured) {
        counts.merge(diff.scalarKey(r), 1, Integer::sum);
        if (index != null) {
          ranks.add(r);
          index.addRoot(r);
        }
      }
      captured = null;
    }
    List<BucketIndex.Entry> changed = changedBuckets();
    Set<Row> showing = changed.isEmpty() ? Set.of() : index.rootsShowing(changed);
    List<CaughtChange> out = new ArrayList<>();
    if (ordered) {
      placed(p, out);
    } else {
      for (StoredChange c : p.stored) {
        change(c.before(), c.after(), -1, -1, out);
      }
    }
    if (!showing.isEmpty()) {
      bucketChanges(p, showing, out);
    }
    for (BucketIndex.Entry e : changed) {
      index.refresh(e);
    }
    return out;
  }

  /** The indexed buckets whose rows the transaction being published changed. */
  private List<BucketIndex.Entry> changedBuckets() {
    if (index == null || !diff.bucketsChanged()) {
      return List.of();
    }
    List<BucketIndex.Entry> out = new ArrayList<>();
    diff.buckets().touched((nest, bucket) -> {
      BucketIndex.Entry e = index.find(nest, bucket);
      if (e != null && diff.buckets().changed(nest, e.value)) {
        out.add(e);
      }
    });
    return out;
  }

  /**
   * The changes of the root rows that did not change themselves but show a bucket that did
   * ({@code showing}: the root rows, as the subscriber had them, that show a changed bucket), in
   * the root's order (unordered: the order the rows entered it).
   */
  private void bucketChanges(Publication p, Set<Row> showing, List<CaughtChange> out) {
    Set<Row> replaced = new HashSet<>(); // the root list's changes already took them to their new tree
    for (StoredChange c : p.stored) {
      if (c.before() != null) {
        replaced.add(c.before());
      }
    }
    List<Row> rows = new ArrayList<>(showing.size());
    for (Row r : showing) {
      examined++;
      if (!replaced.contains(r)) {
        rows.add(r);
      }
    }
    int[] rank = new int[rows.size()];
    Integer[] byRank = new Integer[rows.size()];
    for (int i = 0; i < rank.length; i++) {
      rank[i] = ranks.indexOf(rows.get(i));
      byRank[i] = i;
    }
    java.util.Arrays.sort(byRank, (a, b) -> Integer.compare(rank[a], rank[b]));
    for (int i : byRank) {
      Row r = rows.get(i);
      diff.row(r, r, ordered ? rank[i] : -1, counts.getOrDefault(diff.scalarKey(r), 0) <= 1, out);
    }
  }

  private void placed(Publication p, List<CaughtChange> out) {
    if (p.positions == null) {
      return;
    }
    Map<Row, StoredChange> byKey = new HashMap<>();
    for (StoredChange c : p.stored) {
      byKey.put(c.key(), c);
    }
    for (WindowDelta d : p.positions) {
      StoredChange c = byKey.get(d.key());
      if (d.op() == WindowDelta.Op.RESET || c == null) {
        throw new IllegalStateException("change-tree face: transaction " + p.txId + " has step " + d
            + (c == null ? " for a key that did not change" : ", a reset"));
      }
      switch (d.op()) {
        case LEAVE -> change(c.before(), null, d.oldIndex(), -1, out);
        case ENTER -> change(null, c.after(), -1, d.newIndex(), out);
        case MOVE -> {
          change(c.before(), null, d.oldIndex(), -1, out);
          change(null, c.after(), -1, d.newIndex(), out);
        }
        default -> change(c.before(), c.after(), d.oldIndex(), d.newIndex(), out);
      }
    }
  }

  /** One root row's change: removed from {@code from}, added at {@code to}, or changed in place. */
  private void change(Row before, Row after, int from, int to, List<CaughtChange> out) {
    if (before != null && after != null) {
      Row sb = diff.scalarKey(before);
      diff.row(before, after, from, !counted || counts.getOrDefault(sb, 0) <= 1, out);
      count(sb, -1);
      count(diff.scalarKey(after), 1);
      if (index != null) {
        ranks.replace(before, after);
        index.removeRoot(before);
        index.addRoot(after);
      }
      return;
    }
    if (before != null) {
      out.add(new CaughtChange.Remove(diff.node(before, true), from));
      count(diff.scalarKey(before), -1);
      if (index != null) {
        ranks.remove(before);
        index.removeRoot(before);
      }
    }
    if (after != null) {
      out.add(new CaughtChange.Add(diff.node(after), to));
      count(diff.scalarKey(after), 1);
      if (index != null) {
        if (to >= 0) {
          ranks.insert(to, after);
        } else {
          ranks.add(after);
        }
        index.addRoot(after);
      }
    }
  }

  private void count(Row scalars, int delta) {
    if (counted) {
      counts.merge(scalars, delta, (a, b) -> a + b == 0 ? null : a + b);
    }
  }
}
