package dev.rivulet.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Column;
import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.RowList;
import dev.rivulet.engine.Schema;
import dev.rivulet.query.compile.RowShape;
import dev.rivulet.query.face.TreeDiff;
import dev.rivulet.testkit.Seeds;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Random nested shapes (up to three levels of array, one and concat includes) and random old and
 * new stored rows (children kept, edited, dropped, added, re-ordered; scalar values from tiny
 * domains, so siblings often show the same row): folding the diff onto the old tree, as a
 * consumer would ({@link TreeFold}), gives the new tree. The trees are built here from the rows,
 * not by the code under test.
 */
class TreeDiffPropertyTest {
  @Test
  void foldingTheDiffOntoTheOldTreeGivesTheNewTree() {
    int changes = 0;
    int childChanges = 0;
    for (long seed : Seeds.runs(600)) {
      Random r = new Random(seed);
      RowShape shape = shape(r, 0);
      TreeDiff diff = new TreeDiff(shape);
      List<Row> before = list(r, shape, 1 + r.nextInt(4));
      List<Row> after = mutateList(r, shape, before);
      List<CaughtChange> out = new ArrayList<>();
      diff.list(before, after, out);
      TreeFold fold = foldOf(shape, before);
      for (CaughtChange c : out) {
        String bad = fold.apply(c);
        assertThat(bad).as("seed %d: %s\nbefore %s\nafter %s\nchanges %s", seed, shape, before, after, out).isNull();
        childChanges += c instanceof CaughtChange.Child ? 1 : 0;
      }
      assertThat(fold.nodes()).as("seed %d: %s\nbefore %s\nafter %s\nchanges %s", seed, shape, before, after, out)
          .isEqualTo(nodes(shape, after));
      if (before.equals(after)) {
        assertThat(out).as("seed %d: no change, no changes", seed).isEmpty();
      }
      changes += out.size();
      // one row that stays in place, diffed alone
      Row b = before.get(0);
      Row a = mutate(r, shape, b);
      List<CaughtChange> one = new ArrayList<>();
      diff.row(b, a, 0, true, one);
      TreeFold single = foldOf(shape, List.of(b));
      for (CaughtChange c : one) {
        assertThat(single.apply(c)).as("seed %d: row %s -> %s: %s", seed, b, a, one).isNull();
      }
      assertThat(single.nodes()).as("seed %d: row %s -> %s: %s", seed, b, a, one).isEqualTo(nodes(shape, List.of(a)));
    }
    assertThat(changes).isGreaterThan(600);
    assertThat(childChanges).isGreaterThan(100);
  }

  private static TreeFold foldOf(RowShape shape, List<Row> rows) {
    TreeFold fold = new TreeFold(true);
    List<CaughtNode> nodes = nodes(shape, rows);
    for (int i = 0; i < nodes.size(); i++) {
      assertThat(fold.apply(new CaughtChange.Add(nodes.get(i), i))).isNull();
    }
    return fold;
  }

  /** A level: visible (a INT, b DOUBLE, then its includes), then its key. */
  private static RowShape shape(Random r, int depth) {
    List<Column> cols = new ArrayList<>(List.of(Column.of("a", ColumnType.INT), Column.of("b", ColumnType.DOUBLE)));
    List<RowShape.Nest> nests = new ArrayList<>();
    int n = depth >= 2 ? 0 : r.nextInt(depth == 0 ? 4 : 3);
    for (int i = 0; i < n; i++) {
      Expr.IncludeMode mode = List.of(Expr.IncludeMode.ARRAY, Expr.IncludeMode.ARRAY, Expr.IncludeMode.ONE,
          Expr.IncludeMode.CONCAT).get(r.nextInt(4));
      nests.add(new RowShape.Nest(cols.size(), "n" + i, mode, shape(r, depth + 1)));
      cols.add(Column.of("n" + i, mode == Expr.IncludeMode.CONCAT ? ColumnType.STRING : ColumnType.ANY));
    }
    return new RowShape(Schema.of(cols), new int[] {cols.size()}, true, nests);
  }

  private static Row row(Random r, RowShape shape, long key) {
    List<Object> values = new ArrayList<>();
    values.add((long) r.nextInt(2));
    values.add((long) r.nextInt(2)); // a DOUBLE's canonical 0 or 1
    for (RowShape.Nest nest : shape.nests()) {
      values.add(switch (nest.mode()) {
        case CONCAT -> List.of("", "x", "x,y").get(r.nextInt(3));
        case ONE -> RowList.of(list(r, nest.child(), r.nextInt(2)));
        default -> RowList.of(list(r, nest.child(), r.nextInt(4)));
      });
    }
    values.add(key);
    return Row.of(values).canonical();
  }

  private static List<Row> list(Random r, RowShape shape, int size) {
    List<Long> keys = new ArrayList<>(List.of(1L, 2L, 3L, 4L, 5L, 6L));
    Collections.shuffle(keys, r);
    List<Row> out = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      out.add(row(r, shape, keys.get(i)));
    }
    return out;
  }

  /** A row with the same key: scalars and includes changed or not. */
  private static Row mutate(Random r, RowShape shape, Row row) {
    Object[] values = row.toList().toArray();
    if (r.nextInt(3) == 0) {
      values[r.nextInt(2)] = (long) r.nextInt(2);
    }
    for (RowShape.Nest nest : shape.nests()) {
      int c = nest.column();
      if (nest.mode() == Expr.IncludeMode.CONCAT) {
        values[c] = r.nextInt(3) == 0 ? List.of("", "x", "x,y").get(r.nextInt(3)) : values[c];
      } else if (nest.mode() == Expr.IncludeMode.ONE) {
        RowList old = (RowList) values[c];
        int k = r.nextInt(4);
        values[c] = k == 0 ? RowList.of(list(r, nest.child(), r.nextInt(2)))
            : k == 1 && !old.isEmpty() ? RowList.of(mutate(r, nest.child(), old.get(0))) : old;
      } else if (r.nextBoolean()) {
        values[c] = RowList.of(mutateList(r, nest.child(), (RowList) values[c]));
      }
    }
    return Row.of(values).canonical();
  }

  /** Children dropped, edited, re-ordered and added (new keys). */
  private static List<Row> mutateList(Random r, RowShape shape, List<Row> rows) {
    List<Row> out = new ArrayList<>();
    Set<Object> keys = new HashSet<>();
    for (Row row : rows) {
      keys.add(row.get(shape.keys()[0]));
      if (r.nextInt(5) != 0) {
        out.add(r.nextInt(5) < 2 ? mutate(r, shape, row) : row);
      }
    }
    if (out.size() > 1 && r.nextInt(3) == 0) {
      Collections.swap(out, r.nextInt(out.size()), r.nextInt(out.size()));
    }
    if (out.size() > 2 && r.nextInt(5) == 0) {
      Collections.shuffle(out, r);
    }
    for (long k = 1; k <= 6; k++) {
      if (!keys.contains(k) && r.nextInt(4) == 0) {
        out.add(r.nextInt(out.size() + 1), row(r, shape, k));
      }
    }
    return out;
  }

  /** The tree of stored rows, built from the shape: scalar columns typed, relationships in order. */
  private static List<CaughtNode> nodes(RowShape shape, List<Row> rows) {
    List<CaughtNode> out = new ArrayList<>();
    for (Row row : rows) {
      List<Object> scalars = new ArrayList<>();
      List<Column> scalarCols = new ArrayList<>();
      TreeMap<Integer, List<CaughtNode>> rels = new TreeMap<>();
      for (int c = 0; c < shape.visible().width(); c++) {
        RowShape.Nest nest = nestAt(shape, c);
        if (nest == null || nest.mode() == Expr.IncludeMode.CONCAT) {
          scalars.add(row.get(c));
          scalarCols.add(shape.visible().column(c));
        } else {
          rels.put(rels.size(), nodes(nest.child(), (RowList) row.get(c)));
        }
      }
      out.add(new CaughtNode(Schema.of(scalarCols).present(Row.of(scalars)), rels));
    }
    return out;
  }

  private static RowShape.Nest nestAt(RowShape shape, int column) {
    for (RowShape.Nest n : shape.nests()) {
      if (n.column() == column) {
        return n;
      }
    }
    return null;
  }
}
