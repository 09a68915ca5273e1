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
import java.util.function.Supplier;

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
 *
 * <p>When a root row could be confused with another by value (an ordered root, or rows with
 * relationships), the face counts the scalar rows of the root as the subscriber folds them, so
 * that an Edit or Child is emitted only for a row no other root row shows.
 *
 * <p>Guarded by the database's monitor ({@link #capture} and {@link #changes} run under it, in
 * publication order); {@link #hydrate} reads only the captured rows, which are immutable.
 */
public final class TreeFace {
  private final TreeDiff diff;
  private final boolean ordered;
  private final boolean counted;
  private final Supplier<Row[]> root; // the stored rows of the root now, in order
  private Row[] captured; // until the counts are built from it
  private Map<Row, Integer> counts; // scalar rows of the root, as the subscriber has them

  /**
   * @param root the collection's stored rows as they stand (in order when {@code ordered}), read
   *     under the monitor while a publication is turned into changes
   */
  public TreeFace(TreeDiff diff, boolean ordered, Supplier<Row[]> root) {
    this.diff = diff;
    this.ordered = ordered;
    this.counted = ordered || !diff.flat();
    this.root = root;
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
      }
      captured = null;
    }
    List<CaughtChange> out = new ArrayList<>();
    if (ordered) {
      placed(p, out);
    } else {
      for (StoredChange c : p.stored) {
        change(c.before(), c.after(), -1, -1, out);
      }
    }
    bucketChanges(p, out);
    return out;
  }

  /** The changes of the root rows that did not change themselves but show a bucket that did. */
  private void bucketChanges(Publication p, List<CaughtChange> out) {
    if (!diff.bucketsChanged()) {
      return;
    }
    Set<Row> done = new HashSet<>(); // rows the root list's changes already took to their new tree
    for (StoredChange c : p.stored) {
      if (c.after() != null) {
        done.add(c.after());
      }
    }
    Row[] rows = root.get();
    for (int i = 0; i < rows.length; i++) {
      Row r = rows[i];
      if (!done.contains(r) && diff.showsChangedBucket(r)) {
        diff.row(r, r, ordered ? i : -1, counts.getOrDefault(diff.scalarKey(r), 0) <= 1, out);
      }
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
      return;
    }
    if (before != null) {
      out.add(new CaughtChange.Remove(diff.node(before, true), from));
      count(diff.scalarKey(before), -1);
    }
    if (after != null) {
      out.add(new CaughtChange.Add(diff.node(after), to));
      count(diff.scalarKey(after), 1);
    }
  }

  private void count(Row scalars, int delta) {
    if (counted) {
      counts.merge(scalars, delta, (a, b) -> a + b == 0 ? null : a + b);
    }
  }
}
