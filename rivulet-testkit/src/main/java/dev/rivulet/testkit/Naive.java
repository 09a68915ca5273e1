package dev.rivulet.testkit;

import dev.rivulet.engine.Aggregate;
import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.JoinType;
import dev.rivulet.engine.Reducer;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.engine.SortKey;
import dev.rivulet.engine.ZSet;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * Naive reference evaluators: each operator recomputed from scratch over full multisets ({@code
 * row -> multiplicity}), the plainest way, with SQL semantics. They are the oracle the incremental
 * operators are checked against, so they favour obviousness over speed.
 *
 * <p>Results are consolidated: zero multiplicities never appear. The linear operators (map,
 * filter, flatMap, negate, concat, consolidate) accept any weights; the others read a relation, so
 * they see only rows of positive multiplicity ({@link #distinct}) or reject negative ones (join,
 * reduce, group-by, top-K) with an {@link IllegalArgumentException}.
 */
public final class Naive {
  private Naive() {}

  /** {@code fn} applied to every row; equal results add up. */
  public static Map<Row, Long> map(Map<Row, Long> in, UnaryOperator<Row> fn) {
    Map<Row, Long> out = new LinkedHashMap<>();
    in.forEach((row, m) -> add(out, fn.apply(row), m));
    return clean(out);
  }

  public static Map<Row, Long> filter(Map<Row, Long> in, Predicate<Row> keep) {
    Map<Row, Long> out = new LinkedHashMap<>();
    in.forEach((row, m) -> {
      if (keep.test(row)) {
        add(out, row, m);
      }
    });
    return clean(out);
  }

  /** Each row replaced by the rows {@code fn} returns for it, each with the row's multiplicity. */
  public static Map<Row, Long> flatMap(Map<Row, Long> in, Function<Row, ? extends Iterable<Row>> fn) {
    Map<Row, Long> out = new LinkedHashMap<>();
    in.forEach((row, m) -> {
      for (Row r : fn.apply(row)) {
        add(out, r, m);
      }
    });
    return clean(out);
  }

  public static Map<Row, Long> negate(Map<Row, Long> in) {
    Map<Row, Long> out = new LinkedHashMap<>();
    in.forEach((row, m) -> add(out, row, -m));
    return clean(out);
  }

  /** The multiset sum. */
  @SafeVarargs
  public static Map<Row, Long> concat(Map<Row, Long>... ins) {
    Map<Row, Long> out = new LinkedHashMap<>();
    for (Map<Row, Long> in : ins) {
      in.forEach((row, m) -> add(out, row, m));
    }
    return clean(out);
  }

  /** The same multiset: consolidation changes representation, never contents. */
  public static Map<Row, Long> consolidate(Map<Row, Long> in) {
    return clean(new LinkedHashMap<>(in));
  }

  /** Every row of positive multiplicity, once. */
  public static Map<Row, Long> distinct(Map<Row, Long> in) {
    Map<Row, Long> out = new LinkedHashMap<>();
    in.forEach((row, m) -> {
      if (m > 0) {
        out.put(row, 1L);
      }
    });
    return out;
  }

  /**
   * SQL equi-join on {@code leftKeys[i] = rightKeys[i]}: a key with a null column matches nothing.
   * A matched pair gives {@code left ++ right} with the product of the multiplicities. LEFT adds
   * each unmatched left row null-extended on the right, RIGHT each unmatched right row
   * null-extended on the left, FULL both; ANTI gives only the unmatched left rows, as they are.
   */
  public static Map<Row, Long> join(Map<Row, Long> left, Schema leftSchema, Map<Row, Long> right, Schema rightSchema,
      JoinType type, List<String> leftKeys, List<String> rightKeys) {
    requireRelation(left, "join left");
    requireRelation(right, "join right");
    int[] lk = leftSchema.indexesOf(leftKeys);
    int[] rk = rightSchema.indexesOf(rightKeys);
    if (lk.length != rk.length || lk.length == 0) {
      throw new IllegalArgumentException("join needs equal, non-zero key counts: " + leftKeys + " / " + rightKeys);
    }
    Row leftNulls = Row.nulls(leftSchema.width());
    Row rightNulls = Row.nulls(rightSchema.width());
    Map<Row, Long> out = new LinkedHashMap<>();
    Map<Row, Boolean> rightMatched = new LinkedHashMap<>();
    right.keySet().forEach(r -> rightMatched.put(r, false));
    for (Map.Entry<Row, Long> l : left.entrySet()) {
      boolean matched = false;
      for (Map.Entry<Row, Long> r : right.entrySet()) {
        if (keysMatch(l.getKey(), lk, r.getKey(), rk)) {
          matched = true;
          rightMatched.put(r.getKey(), true);
          if (type != JoinType.ANTI) {
            add(out, l.getKey().concat(r.getKey()), l.getValue() * r.getValue());
          }
        }
      }
      if (!matched) {
        if (type == JoinType.LEFT || type == JoinType.FULL) {
          add(out, l.getKey().concat(rightNulls), l.getValue());
        } else if (type == JoinType.ANTI) {
          add(out, l.getKey(), l.getValue());
        }
      }
    }
    if (type == JoinType.RIGHT || type == JoinType.FULL) {
      for (Map.Entry<Row, Long> r : right.entrySet()) {
        if (!rightMatched.get(r.getKey())) {
          add(out, leftNulls.concat(r.getKey()), r.getValue());
        }
      }
    }
    return clean(out);
  }

  private static boolean keysMatch(Row l, int[] lk, Row r, int[] rk) {
    for (int i = 0; i < lk.length; i++) {
      Object a = l.get(lk[i]);
      Object b = r.get(rk[i]);
      if (a == null || b == null || !a.equals(b)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Groups by {@code keys} (nulls group together, as in SQL's GROUP BY) and sums {@code
   * reducer}'s output over the groups. Each group is handed to the reducer as a Z-set of its rows
   * with their multiplicities, in {@link RefValues#compareRows} order (the engine's documented row
   * order, {@code Row#compareTo}, recomputed by the reference).
   */
  public static Map<Row, Long> reduce(Map<Row, Long> in, Schema schema, List<String> keys, Reducer reducer) {
    requireRelation(in, "reduce");
    int[] k = schema.indexesOf(keys);
    Map<Row, Map<Row, Long>> groups = groups(in, k);
    Map<Row, Long> out = new LinkedHashMap<>();
    groups.forEach((key, rows) -> {
      ZSet.Builder group = ZSet.builder();
      rows.forEach(group::add);
      for (ZSet.Entry e : reducer.reduce(key, group.build())) {
        if (e.weight() <= 0) {
          throw new IllegalArgumentException("reducer gave a non-positive multiplicity " + e + " for group " + key);
        }
        add(out, e.row(), e.weight());
      }
    });
    return clean(out);
  }

  /**
   * SQL {@code SELECT keys..., aggregates... GROUP BY keys}: one row per group present, or with
   * no keys exactly one row even over an empty input. See {@link NaiveAggregates} for each
   * aggregate's rule.
   */
  public static Map<Row, Long> groupBy(Map<Row, Long> in, Schema schema, List<String> keys, Aggregate... aggregates) {
    requireRelation(in, "group by");
    int[] k = schema.indexesOf(keys);
    Map<Row, Map<Row, Long>> groups = groups(in, k);
    if (k.length == 0 && groups.isEmpty()) {
      groups.put(Row.of(), Map.of());
    }
    Map<Row, Long> out = new LinkedHashMap<>();
    groups.forEach((key, rows) -> {
      List<Object> values = new ArrayList<>(key.toList());
      for (Aggregate a : aggregates) {
        int col = a.column() == null ? -1 : schema.indexOf(a.column());
        ColumnType type = col < 0 ? ColumnType.INT : schema.column(col).type();
        values.add(NaiveAggregates.value(a.kind(), type, rows, col));
      }
      add(out, RefValues.row(values), 1);
    });
    return out;
  }

  /**
   * The top-K windows: per partition of equal {@code partitionBy} values (the key row of the
   * result; the empty row when there are no partition columns), the rows repeated by their
   * multiplicities and sorted by {@link #order}, then cut to {@code [offset, offset + limit)}.
   * Partitions whose window is empty are left out.
   */
  public static Map<Row, List<Row>> topK(Map<Row, Long> in, Schema schema, List<String> partitionBy,
      List<SortKey> order, long offset, long limit) {
    requireRelation(in, "top-k");
    int[] p = schema.indexesOf(partitionBy);
    Comparator<Row> cmp = order(schema, order);
    Map<Row, List<Row>> out = new LinkedHashMap<>();
    groups(in, p).forEach((key, rows) -> {
      List<Row> all = new ArrayList<>();
      rows.forEach((row, m) -> {
        for (long i = 0; i < m; i++) {
          all.add(row);
        }
      });
      all.sort(cmp);
      int from = (int) Math.min(all.size(), offset);
      int to = (int) Math.min(all.size(), from + Math.min(limit, all.size()));
      if (from < to) {
        out.put(key, new ArrayList<>(all.subList(from, to)));
      }
    });
    return out;
  }

  /**
   * The order of a top-K: the sort keys in turn, each with its direction and null placement ({@link
   * SortKey#nullsFirst} puts nulls before every value whatever the direction), then the whole row
   * in the engine's documented {@code Row#compareTo} order (recomputed by {@link
   * RefValues#compareRows}) as the tie-break.
   */
  public static Comparator<Row> order(Schema schema, List<SortKey> order) {
    int[] cols = schema.indexesOf(order.stream().map(SortKey::column).toList());
    return (a, b) -> {
      for (int i = 0; i < cols.length; i++) {
        SortKey key = order.get(i);
        Object x = a.get(cols[i]);
        Object y = b.get(cols[i]);
        int c;
        if (x == null || y == null) {
          c = x == y ? 0 : (x == null) == key.nullsFirst() ? -1 : 1;
        } else {
          c = RefValues.compare(x, y);
          if (key.descending()) {
            c = -c;
          }
        }
        if (c != 0) {
          return c;
        }
      }
      return RefValues.compareRows(a, b);
    };
  }

  /** The multiset of all rows of {@code windows}. */
  public static Map<Row, Long> multiset(Map<Row, List<Row>> windows) {
    Map<Row, Long> out = new LinkedHashMap<>();
    windows.values().forEach(list -> list.forEach(r -> add(out, r, 1)));
    return out;
  }

  /** Groups of rows of positive multiplicity by their values at {@code keys}, in key order. */
  private static Map<Row, Map<Row, Long>> groups(Map<Row, Long> in, int[] keys) {
    Map<Row, Map<Row, Long>> groups = new TreeMap<>(RefValues.ROW_ORDER);
    Map<Row, Long> sorted = new TreeMap<>(RefValues.ROW_ORDER);
    sorted.putAll(in);
    sorted.forEach((row, m) -> {
      if (m > 0) {
        groups.computeIfAbsent(row.project(keys), k -> new LinkedHashMap<>()).put(row, m);
      }
    });
    return groups;
  }

  private static void requireRelation(Map<Row, Long> in, String what) {
    in.forEach((row, m) -> {
      if (m < 0) {
        throw new IllegalArgumentException(what + " reads a relation, but row " + row + " has multiplicity " + m);
      }
    });
  }

  private static void add(Map<Row, Long> out, Row row, long m) {
    out.merge(row, m, Math::addExact);
  }

  private static Map<Row, Long> clean(Map<Row, Long> m) {
    m.values().removeIf(w -> w == 0);
    return m;
  }
}
