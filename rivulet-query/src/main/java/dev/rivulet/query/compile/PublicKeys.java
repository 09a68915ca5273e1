package dev.rivulet.query.compile;

import dev.rivulet.engine.Column;
import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.RowList;
import dev.rivulet.engine.Schema;
import dev.rivulet.engine.SortKey;
import dev.rivulet.engine.Stream;
import dev.rivulet.engine.ZSet;
import dev.rivulet.query.QueryException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The public-key reduction of a result with a custom key (seed 000, "Weighted relations and
 * public keys"): the query's rows, after its window, are reduced by the public key inside the
 * graph.
 *
 * <p>Law: a row's contribution is its visible value and its order key (the derived key columns
 * are dropped first, so they cannot tell contributors apart). For each public key, the positive
 * contributors collapse to one public row when they are congruent (equal), whatever their
 * multiplicity, so a row supported twice survives one retraction. Incongruent contributors
 * produce one conflict row: the least contributor with the hidden {@code __conflict} column
 * holding every contributor, which the live query reports as a duplicate-key error until the key
 * has one value again. A key whose weight reaches zero has no row; a negative weight is an
 * invariant violation (the engine's reduce fails). An ordered result is ordered again by its sort
 * keys then the public key. Stateless: the state is the reduce operator's.
 */
final class PublicKeys {
  static final String CONFLICT = "__conflict";

  private PublicKeys() {}

  /** {@code c} keyed and reduced by the visible columns {@code publicKey}; {@code c} itself when it is null. */
  static Compiled apply(Compiled c, List<String> publicKey) {
    if (publicKey == null) {
      return c;
    }
    int[] pk;
    try {
      pk = c.visible().indexesOf(publicKey);
    } catch (RuntimeException e) {
      throw new QueryException("key: " + e.getMessage());
    }
    // Keep every column but the hidden derived-key ones (visible columns come first, so pk stays).
    Schema in = c.stream().schema();
    int v = c.visible().width();
    boolean[] drop = new boolean[in.width()];
    for (int k : c.keys()) {
      drop[k] = k >= v;
    }
    int[] keep = new int[in.width()];
    int[] movedTo = new int[in.width()];
    int n = 0;
    List<Column> cols = new ArrayList<>();
    for (int i = 0; i < in.width(); i++) {
      movedTo[i] = drop[i] ? -1 : n;
      if (!drop[i]) {
        keep[n++] = i;
        cols.add(in.column(i));
      }
    }
    int[] kept = Arrays.copyOf(keep, n);
    Stream rows = n == in.width() ? c.stream() : c.stream().map(Schema.of(cols), r -> r.project(kept));
    Stream reduced = reduce(rows, pk);
    if (!c.ordered()) {
      return new Compiled(reduced, c.visible(), pk, new int[0]);
    }
    int sorts = c.order().length - c.keys().length;
    int[] order = new int[sorts + pk.length];
    boolean[] desc = new boolean[order.length];
    boolean[] nullsFirst = new boolean[order.length];
    List<SortKey> keys = new ArrayList<>();
    for (int i = 0; i < order.length; i++) {
      boolean sort = i < sorts;
      order[i] = sort ? movedTo[c.order()[i]] : pk[i - sorts];
      desc[i] = sort && c.descending()[i];
      nullsFirst[i] = sort && c.nullsFirst()[i];
      String name = reduced.schema().column(order[i]).name();
      SortKey k = desc[i] ? SortKey.desc(name) : SortKey.asc(name);
      keys.add(nullsFirst[i] ? k.withNullsFirst() : k.withNullsLast());
    }
    return new Compiled(reduced.topK(keys, 0, Long.MAX_VALUE), c.visible(), pk, true, order, desc, nullsFirst,
        new int[0], c.nests());
  }

  /** {@code in} reduced by the columns {@code keys}; its rows gain the {@link #CONFLICT} column (NULL when fine). */
  private static Stream reduce(Stream in, int[] keys) {
    List<Column> cols = new ArrayList<>(in.schema().columns());
    cols.add(Column.of(CONFLICT, ColumnType.ANY));
    List<String> names = new ArrayList<>();
    for (int k : keys) {
      names.add(in.schema().column(k).name());
    }
    return in.reduce(names, Schema.of(cols), (key, group) -> {
      if (group.size() == 1) {
        return ZSet.of(group.row(0).append((Object) null));
      }
      List<Row> all = new ArrayList<>(group.size());
      for (int i = 0; i < group.size(); i++) {
        all.add(group.row(i));
      }
      all.sort(null);
      return ZSet.of(all.get(0).append(RowList.of(all)));
    });
  }
}
