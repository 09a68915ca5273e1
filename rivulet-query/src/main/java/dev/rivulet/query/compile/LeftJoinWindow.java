package dev.rivulet.query.compile;

import dev.rivulet.engine.JoinType;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.SortKey;
import dev.rivulet.engine.Stream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * A block's one left join of two collections, built only once the projection knows whether its
 * window can be taken on the left rows. It can when the right side has at most one row per join
 * key (its key columns are among the join's right columns), the left relation has a key (a
 * collection's: unique), and the window orders by left columns only: the left join then keeps
 * each left row at most once, its joined rows rank as their left rows do, and
 *
 * <pre>
 * window(L left join R) = window'(L left join R, left parts) left join R
 * </pre>
 *
 * where the inner window holds the left input's own rows by reference ({@link
 * Stream#leftJoinLeftRows}: no joined row is built or retained), and only the window's rows are
 * paired again with R, whose later changes reach them through that second join. A second top-K
 * over those (at most limit) rows gives the joined window its positions. Otherwise {@link
 * #joined} builds the plain join. Exactly one of the two is built.
 */
final class LeftJoinWindow {
  private final Stream left;
  private final Stream right;
  private final List<String> leftKeys;
  private final List<String> rightKeys;
  private final Predicate<Row> onRight; // the right-side condition tested in the join, or null
  private final int[] leftRowKeys; // the left relation's key columns
  private Stream joined;

  LeftJoinWindow(Stream left, Stream right, List<String> leftKeys, List<String> rightKeys, Predicate<Row> onRight,
      int[] leftRowKeys) {
    this.left = left;
    this.right = right;
    this.leftKeys = leftKeys;
    this.rightKeys = rightKeys;
    this.onRight = onRight;
    this.leftRowKeys = leftRowKeys;
  }

  /**
   * Whether a right relation with key columns {@code rightRowKeys} (indexes into {@code right}'s
   * schema) has at most one row per value of {@code rightKeys}, so that the plan may be deferred.
   */
  static boolean uniqueRight(Stream right, int[] rightRowKeys, List<String> rightKeys) {
    if (rightRowKeys.length == 0) {
      return false;
    }
    for (int k : rightRowKeys) {
      if (!rightKeys.contains(right.schema().column(k).name())) {
        return false;
      }
    }
    return true;
  }

  /** The joined rows (left columns, then right columns), built on first use. */
  Stream joined() {
    if (joined == null) {
      joined = pair(left);
    }
    return joined;
  }

  /** Whether {@link #joined} was built. */
  boolean isBuilt() {
    return joined != null;
  }

  /**
   * Whether a window whose total order is {@code before} (the {@code sorts} sort columns, then the
   * joined row's key columns, as indexes into the joined row) can be taken on the left rows: every
   * sort column is a left column and the left relation has a key.
   */
  boolean windowsLeft(int[] before, int sorts) {
    if (joined != null || leftRowKeys.length == 0) {
      return false;
    }
    int width = left.schema().width();
    for (int i = 0; i < sorts; i++) {
      if (before[i] >= width) {
        return false;
      }
    }
    return true;
  }

  /**
   * The joined window {@code [offset, offset + limit)} in the total order {@code before} (see
   * {@link #windowsLeft}), positioned: the left rows' window, paired with R, ordered again.
   */
  Stream window(int[] before, int sorts, boolean[] descending, boolean[] nullsFirst, long offset, long limit) {
    int width = left.schema().width();
    List<Integer> leftOrder = new ArrayList<>();
    for (int i = 0; i < before.length; i++) {
      if (i < sorts || before[i] < width) { // the right key columns add nothing: one right row per left row
        leftOrder.add(i);
      }
    }
    int[] columns = new int[leftOrder.size()];
    boolean[] desc = new boolean[columns.length];
    boolean[] nf = new boolean[columns.length];
    for (int i = 0; i < columns.length; i++) {
      int at = leftOrder.get(i);
      columns[i] = before[at];
      desc[i] = descending[at];
      nf[i] = nullsFirst[at];
    }
    Stream rows = left.leftJoinLeftRows(right, leftKeys, rightKeys, onRight);
    Stream leftWindow = rows.topK(List.of(), Projection.sortKeys(left.schema(), columns, desc, nf), offset, limit);
    Stream paired = pair(leftWindow);
    return paired.topK(List.of(), Projection.sortKeys(paired.schema(), before, descending, nullsFirst), 0, limit);
  }

  private Stream pair(Stream rows) {
    return onRight == null ? rows.join(right, JoinType.LEFT, leftKeys, rightKeys)
        : rows.leftJoinWhere(right, leftKeys, rightKeys, onRight);
  }
}
