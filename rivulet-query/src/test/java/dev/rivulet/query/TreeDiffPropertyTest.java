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
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Random nested shapes (up to three levels of array, one and concat includes, and collection
 * includes whose buckets' rows live outside the stored row) and random old and new stored rows
 * (children kept, edited, dropped, added, re-ordered, re-parented to another bucket; scalar values
 * from tiny domains, so siblings often show the same row) with random old and new bucket rows:
 * folding the diff onto the old tree, as a consumer would ({@link TreeFold}), gives the new tree,
 * also for a row whose stored value stays while a bucket it shows changes. The trees are built
 * here from the rows and the buckets, not by the code under test.
 */
class TreeDiffPropertyTest {
  @Test
  void foldingTheDiffOntoTheOldTreeGivesTheNewTree() {
    int[] counts = run(600, false);
    assertThat(counts[0]).isGreaterThan(600);
    assertThat(counts[1]).isGreaterThan(100);
  }

  @Test
  void withCollectionRelationshipsTheBucketsChangesArriveAsChildChangesOfTheRowsThatShowThem() {
    int[] counts = run(600, true);
    assertThat(counts[0]).isGreaterThan(600);
    assertThat(counts[1]).isGreaterThan(100);
    assertThat(counts[2]).as("rows that stay, changed only inside a bucket").isGreaterThan(50);
  }

  /** {changes, Child changes, rows changed only through their buckets}. */
  private static int[] run(int seeds, boolean collections) {
    int changes = 0;
    int childChanges = 0;
    int throughBuckets = 0;
    for (long seed : Seeds.runs(seeds)) {
      Gen g = new Gen(new Random(seed), collections);
      RowShape shape = g.shape(0);
      g.fillBuckets(shape);
      g.anyChanged = !g.old.equals(g.now);
      TreeDiff diff = new TreeDiff(shape, g);
      List<Row> before = g.list(shape, 1 + g.r.nextInt(4));
      List<Row> after = g.mutateList(shape, before);
      List<CaughtChange> out = new ArrayList<>();
      java.util.function.Supplier<String> at = () -> "seed " + seed + ": " + shape + "\nbefore " + before + "\nafter "
          + after + "\nbuckets " + g.old + " -> " + g.now + "\nchanges " + out;
      diff.list(before, after, out);
      TreeFold fold = g.foldOf(shape, before);
      for (CaughtChange c : out) {
        assertThat(fold.apply(c)).as(at).isNull();
        childChanges += c instanceof CaughtChange.Child ? 1 : 0;
      }
      assertThat(fold.nodes()).as(at).isEqualTo(g.nodes(shape, after, g.now));
      if (before.equals(after) && g.nodes(shape, before, g.old).equals(g.nodes(shape, after, g.now))) {
        assertThat(out).as(() -> "no change, no changes: " + at.get()).isEmpty();
      }
      changes += out.size();
      // one row that stays in place, diffed alone: changed, or (its stored value the same) only in its buckets
      Row b = before.get(0);
      Row a = g.r.nextInt(3) == 0 ? b : g.mutate(shape, b);
      List<CaughtChange> one = new ArrayList<>();
      diff.row(b, a, 0, true, one);
      TreeFold single = g.foldOf(shape, List.of(b));
      java.util.function.Supplier<String> rowAt = () -> at.get() + "\nrow " + b + " -> " + a + ": " + one;
      for (CaughtChange c : one) {
        assertThat(single.apply(c)).as(rowAt).isNull();
      }
      assertThat(single.nodes()).as(rowAt).isEqualTo(g.nodes(shape, List.of(a), g.now));
      assertThat(diff.showsChangedBucket(b) || !b.equals(a) || one.isEmpty()).as(rowAt).isTrue();
      throughBuckets += a == b && !one.isEmpty() ? 1 : 0;
    }
    return new int[] {changes, childChanges, throughBuckets};
  }

  /**
   * Random shapes and rows, and the buckets of their collection includes: per include (by
   * identity) and bucket id 0..2, its element rows before (old) and now.
   */
  private static final class Gen implements TreeDiff.Buckets {
    final Random r;
    final boolean collections;
    final Map<RowShape.Nest, Map<Long, List<Row>>> old = new IdentityHashMap<>();
    final Map<RowShape.Nest, Map<Long, List<Row>>> now = new IdentityHashMap<>();
    boolean anyChanged; // set once the buckets are filled

    Gen(Random r, boolean collections) {
      this.r = r;
      this.collections = collections;
    }

    @Override
    public List<Row> rows(RowShape.Nest nest, Object value) {
      return now.get(nest).get(bucket(value));
    }

    @Override
    public List<Row> before(RowShape.Nest nest, Object value) {
      return old.get(nest).get(bucket(value));
    }

    @Override
    public boolean changed(RowShape.Nest nest, Object value) {
      return !before(nest, value).equals(rows(nest, value));
    }

    @Override
    public boolean anyChanged() {
      return anyChanged;
    }

    private static long bucket(Object value) {
      return (Long) ((RowList) value).get(0).get(0);
    }

    /** Every collection include's buckets, at any depth: rows before, and now (the same, or changed). */
    void fillBuckets(RowShape shape) {
      for (RowShape.Nest nest : shape.nests()) {
        fillBuckets(nest.child());
        if (nest.mode() == Expr.IncludeMode.COLLECTION) {
          Map<Long, List<Row>> o = new HashMap<>();
          Map<Long, List<Row>> n = new HashMap<>();
          for (long b = 0; b < 3; b++) {
            List<Row> rows = list(nest.child(), r.nextInt(4));
            o.put(b, rows);
            n.put(b, r.nextInt(3) == 0 ? rows : mutateList(nest.child(), rows));
          }
          old.put(nest, o);
          now.put(nest, n);
        }
      }
    }

    TreeFold foldOf(RowShape shape, List<Row> rows) {
      TreeFold fold = new TreeFold(true);
      List<CaughtNode> nodes = nodes(shape, rows, old);
      for (int i = 0; i < nodes.size(); i++) {
        assertThat(fold.apply(new CaughtChange.Add(nodes.get(i), i))).isNull();
      }
      return fold;
    }

    /** A level: visible (a INT, b DOUBLE, then its includes), then its key. */
    RowShape shape(int depth) {
      List<Column> cols = new ArrayList<>(List.of(Column.of("a", ColumnType.INT), Column.of("b", ColumnType.DOUBLE)));
      List<RowShape.Nest> nests = new ArrayList<>();
      int n = depth >= 2 ? 0 : r.nextInt(depth == 0 ? 4 : 3);
      List<Expr.IncludeMode> modes = collections
          ? List.of(Expr.IncludeMode.ARRAY, Expr.IncludeMode.COLLECTION, Expr.IncludeMode.ONE, Expr.IncludeMode.CONCAT,
              Expr.IncludeMode.COLLECTION)
          : List.of(Expr.IncludeMode.ARRAY, Expr.IncludeMode.ARRAY, Expr.IncludeMode.ONE, Expr.IncludeMode.CONCAT);
      for (int i = 0; i < n; i++) {
        Expr.IncludeMode mode = modes.get(r.nextInt(modes.size()));
        nests.add(new RowShape.Nest(cols.size(), "n" + i, mode, shape(depth + 1)));
        cols.add(Column.of("n" + i, mode == Expr.IncludeMode.CONCAT ? ColumnType.STRING : ColumnType.ANY));
      }
      return new RowShape(Schema.of(cols), new int[] {cols.size()}, true, nests);
    }

    Row row(RowShape shape, long key) {
      List<Object> values = new ArrayList<>();
      values.add((long) r.nextInt(2));
      values.add((long) r.nextInt(2)); // a DOUBLE's canonical 0 or 1
      for (RowShape.Nest nest : shape.nests()) {
        values.add(switch (nest.mode()) {
          case CONCAT -> List.of("", "x", "x,y").get(r.nextInt(3));
          case ONE -> RowList.of(list(nest.child(), r.nextInt(2)));
          case COLLECTION -> RowList.of(List.of(Row.of((long) r.nextInt(3))));
          default -> RowList.of(list(nest.child(), r.nextInt(4)));
        });
      }
      values.add(key);
      return Row.of(values).canonical();
    }

    List<Row> list(RowShape shape, int size) {
      List<Long> keys = new ArrayList<>(List.of(1L, 2L, 3L, 4L, 5L, 6L));
      Collections.shuffle(keys, r);
      List<Row> out = new ArrayList<>();
      for (int i = 0; i < size; i++) {
        out.add(row(shape, keys.get(i)));
      }
      return out;
    }

    /** A row with the same key: scalars and includes changed or not, a collection re-parented or not. */
    Row mutate(RowShape shape, Row row) {
      Object[] values = row.toList().toArray();
      if (r.nextInt(3) == 0) {
        values[r.nextInt(2)] = (long) r.nextInt(2);
      }
      for (RowShape.Nest nest : shape.nests()) {
        int c = nest.column();
        if (nest.mode() == Expr.IncludeMode.CONCAT) {
          values[c] = r.nextInt(3) == 0 ? List.of("", "x", "x,y").get(r.nextInt(3)) : values[c];
        } else if (nest.mode() == Expr.IncludeMode.COLLECTION) {
          values[c] = r.nextInt(4) == 0 ? RowList.of(List.of(Row.of((long) r.nextInt(3)))) : values[c];
        } else if (nest.mode() == Expr.IncludeMode.ONE) {
          RowList old = (RowList) values[c];
          int k = r.nextInt(4);
          values[c] = k == 0 ? RowList.of(list(nest.child(), r.nextInt(2)))
              : k == 1 && !old.isEmpty() ? RowList.of(mutate(nest.child(), old.get(0))) : old;
        } else if (r.nextBoolean()) {
          values[c] = RowList.of(mutateList(nest.child(), (RowList) values[c]));
        }
      }
      return Row.of(values).canonical();
    }

    /** Children dropped, edited, re-ordered and added (new keys). */
    List<Row> mutateList(RowShape shape, List<Row> rows) {
      List<Row> out = new ArrayList<>();
      Set<Object> keys = new HashSet<>();
      for (Row row : rows) {
        keys.add(row.get(shape.keys()[0]));
        if (r.nextInt(5) != 0) {
          out.add(r.nextInt(5) < 2 ? mutate(shape, row) : row);
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
          out.add(r.nextInt(out.size() + 1), row(shape, k));
        }
      }
      return out;
    }

    /**
     * The tree of stored rows, built from the shape: scalar columns typed, relationships in order,
     * a collection's children from {@code buckets}.
     */
    List<CaughtNode> nodes(RowShape shape, List<Row> rows, Map<RowShape.Nest, Map<Long, List<Row>>> buckets) {
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
          } else if (nest.mode() == Expr.IncludeMode.COLLECTION) {
            rels.put(rels.size(), nodes(nest.child(), buckets.get(nest).get(bucket(row.get(c))), buckets));
          } else {
            rels.put(rels.size(), nodes(nest.child(), (RowList) row.get(c), buckets));
          }
        }
        out.add(new CaughtNode(Schema.of(scalarCols).present(Row.of(scalars)), rels));
      }
      return out;
    }
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
