package dev.rivulet.query.compile;

import dev.rivulet.engine.Schema;
import dev.rivulet.query.Expr;
import java.util.ArrayList;
import java.util.List;

/**
 * How the rows of a result, or the element rows of an include's value, are laid out: the visible
 * columns come first ({@code visible}), the row's key at {@code keys}; each include ({@link Nest})
 * holds its value in one visible column.
 *
 * <p>An include's value inside the graph is canonical: a {@link dev.rivulet.engine.RowList} of
 * element rows for {@code ARRAY} (in the child's total order) and {@code ONE} (zero or one
 * element), a {@code String} for {@code CONCAT}, and for {@code COLLECTION} a one-element list
 * holding the bucket's key (the facade adapter keeps its rows). An element row is the child's
 * visible columns followed by its key columns, so a child shape's {@code keys} are {@code
 * visible.width() .. visible.width() + k - 1}.
 *
 * @param ordered whether the rows have an order (an ordered root, or an include's children, which
 *     always do: their order by, then their key)
 */
public record RowShape(Schema visible, int[] keys, boolean ordered, List<Nest> nests) {
  public RowShape {
    nests = List.copyOf(nests);
  }

  /** One include of a result: its column, name, mode and the shape of its element rows. */
  public record Nest(int column, String name, Expr.IncludeMode mode, RowShape child) {
    /** Whether the change-tree face shows it as a relationship (every mode but CONCAT). */
    public boolean relationship() {
      return mode != Expr.IncludeMode.CONCAT;
    }
  }

  /** The includes shown as relationships, in select order: relationship slot i is element i. */
  public List<Nest> relationships() {
    List<Nest> out = new ArrayList<>();
    for (Nest n : nests) {
      if (n.relationship()) {
        out.add(n);
      }
    }
    return out;
  }

  /** The visible columns that are not relationships (scalars and concatenations), in order. */
  public int[] scalarColumns() {
    boolean[] rel = new boolean[visible.width()];
    int n = visible.width();
    for (Nest nest : nests) {
      if (nest.relationship()) {
        rel[nest.column()] = true;
        n--;
      }
    }
    int[] out = new int[n];
    int j = 0;
    for (int i = 0; i < rel.length; i++) {
      if (!rel[i]) {
        out[j++] = i;
      }
    }
    return out;
  }
}
