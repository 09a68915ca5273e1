package dev.rivulet.query.compile;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.engine.SortKey;
import dev.rivulet.engine.Stream;
import dev.rivulet.engine.Values;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A compiled query: the engine stream of its result and how its rows are laid out. The first
 * {@code visible.width()} columns of each row are the visible result; {@code keys} are the
 * indexes of the columns whose tuple is the row's key (they may overlap the visible ones, and
 * hidden columns may follow). An ordered result is positioned (see {@code ZSet}).
 *
 * @param stream the result's stream in the graph
 * @param visible the visible columns
 * @param keys indexes of the key columns within each row
 * @param ordered whether the stream is a positioned window
 * @param order for an ordered result, the indexes of the columns of its total order (the sort
 *     keys, then the key columns): a row's cursor; else empty
 * @param descending per {@code order} column, whether it sorts descending
 * @param nullsFirst per {@code order} column, whether NULL sorts first
 * @param partition for an include's child, the hidden columns holding the correlation values
 *     (the bucket its rows belong to; order, limit and grouping apply per bucket); else empty
 * @param nests the includes whose values the visible columns hold
 */
public record Compiled(Stream stream, Schema visible, int[] keys, boolean ordered, int[] order,
    boolean[] descending, boolean[] nullsFirst, int[] partition, List<RowShape.Nest> nests) {
  public Compiled {
    nests = List.copyOf(nests);
  }

  Compiled(Stream stream, Schema visible, int[] keys, int[] partition) {
    this(stream, visible, keys, false, new int[0], new boolean[0], new boolean[0], partition, List.of());
  }

  /** This result with another stream (same layout) and these includes. */
  Compiled with(Stream next, Schema visibleNow, List<RowShape.Nest> nestsNow) {
    return new Compiled(next, visibleNow, keys, ordered, order, descending, nullsFirst, partition, nestsNow);
  }

  /** The columns of a row's element form (see {@link RowShape}): the visible ones, then the key. */
  int[] elementColumns() {
    int v = visible.width();
    int[] out = new int[v + keys.length];
    for (int i = 0; i < v; i++) {
      out[i] = i;
    }
    System.arraycopy(keys, 0, out, v, keys.length);
    return out;
  }

  /** The layout of the rows, with their includes. */
  public RowShape shape() {
    return new RowShape(visible, keys, ordered, nests);
  }

  /**
   * The total order of the rows: the order by, then the key (the key alone when there is no
   * order by). NULLs are placed as the order says.
   */
  Comparator<Row> comparator() {
    int[] cols = order.length > 0 ? order : keys;
    boolean[] desc = order.length > 0 ? descending : new boolean[keys.length];
    boolean[] nf = order.length > 0 ? nullsFirst : new boolean[keys.length];
    return (a, b) -> {
      for (int i = 0; i < cols.length; i++) {
        Object x = a.get(cols[i]);
        Object y = b.get(cols[i]);
        int c;
        if (x == null || y == null) {
          c = x == y ? 0 : (x == null) == nf[i] ? -1 : 1;
        } else {
          c = Values.compare(x, y);
          c = desc[i] ? -c : c;
        }
        if (c != 0) {
          return c;
        }
      }
      return 0;
    };
  }

  /** The engine sort keys of the total order (for ordering the composed rows again). */
  List<SortKey> sortKeys() {
    List<SortKey> out = new ArrayList<>();
    for (int i = 0; i < order.length; i++) {
      String name = stream.schema().column(order[i]).name();
      SortKey k = descending[i] ? SortKey.desc(name) : SortKey.asc(name);
      out.add(nullsFirst[i] ? k.withNullsFirst() : k.withNullsLast());
    }
    return out;
  }
}
