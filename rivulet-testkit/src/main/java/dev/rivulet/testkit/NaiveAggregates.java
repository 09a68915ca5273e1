package dev.rivulet.testkit;

import dev.rivulet.engine.Aggregate;
import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.Row;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Map;

/**
 * The aggregates of {@link Naive#groupBy}, recomputed from a group's rows, with the semantics
 * documented on {@link Aggregate}:
 *
 * <ul>
 *   <li>{@code count(*)}: the number of rows (with multiplicity); {@code count(col)}: of non-null
 *       values. Both are 0 over nothing.
 *   <li>{@code sum}, {@code avg}, {@code min}, {@code max} ignore nulls and are null over no
 *       non-null value.
 *   <li>{@code sum} is the exact sum of the values' exact decimal values, rounded once at the end:
 *       to a double over a {@code DOUBLE} column (and over an {@code ANY} column holding a double),
 *       otherwise kept exact (a 64-bit integer when it fits, as every value is canonical).
 *   <li>{@code avg} is the exact sum divided by the count of non-null values, rounded to 34
 *       significant digits ({@link MathContext#DECIMAL128}, half-even); kept as that decimal over a
 *       {@code DECIMAL} column, otherwise converted to the nearest double. This mirrors the
 *       engine's documented choice; note it rounds twice (34 digits, then binary).
 *   <li>Non-finite doubles, IEEE style: any NaN, or both infinities, gives NaN; otherwise an
 *       infinity gives that infinity.
 *   <li>{@code min}/{@code max}: the least/greatest non-null value in {@link RefValues#compare} order.
 * </ul>
 */
final class NaiveAggregates {
  private NaiveAggregates() {}

  /** The aggregate {@code kind} over column {@code col} (of type {@code type}) of {@code rows}. */
  static Object value(Aggregate.Kind kind, ColumnType type, Map<Row, Long> rows, int col) {
    switch (kind) {
      case COUNT_ROWS: {
        long n = 0;
        for (long m : rows.values()) {
          n += m;
        }
        return n;
      }
      case COUNT: {
        long n = 0;
        for (Map.Entry<Row, Long> e : rows.entrySet()) {
          if (e.getKey().get(col) != null) {
            n += e.getValue();
          }
        }
        return n;
      }
      case COUNT_DISTINCT: {
        java.util.Set<Object> seen = new java.util.TreeSet<>(RefValues::compare);
        for (Row r : rows.keySet()) {
          if (r.get(col) != null) {
            seen.add(r.get(col));
          }
        }
        return (long) seen.size();
      }
      case MIN:
      case MAX: {
        Object best = null;
        for (Row r : rows.keySet()) {
          Object v = r.get(col);
          if (v != null && (best == null || (kind == Aggregate.Kind.MIN ? RefValues.compare(v, best) < 0
              : RefValues.compare(v, best) > 0))) {
            best = v;
          }
        }
        return best;
      }
      default:
        return sumOrAverage(kind == Aggregate.Kind.AVG, type, rows, col);
    }
  }

  private static Object sumOrAverage(boolean average, ColumnType type, Map<Row, Long> rows, int col) {
    long n = 0;
    BigDecimal sum = BigDecimal.ZERO;
    boolean nan = false;
    boolean posInf = false;
    boolean negInf = false;
    boolean anyDouble = false;
    for (Map.Entry<Row, Long> e : rows.entrySet()) {
      Object v = e.getKey().get(col);
      if (v == null) {
        continue;
      }
      long m = e.getValue();
      n += m;
      if (v instanceof Double d) {
        anyDouble = true;
        if (d.isNaN()) {
          nan = true;
          continue;
        }
        if (d.isInfinite()) {
          posInf |= d > 0;
          negInf |= d < 0;
          continue;
        }
      }
      sum = sum.add(RefValues.exact(v).multiply(BigDecimal.valueOf(m)));
    }
    if (n == 0) {
      return null;
    }
    if (nan || (posInf && negInf)) {
      return Double.NaN;
    }
    if (posInf || negInf) {
      return posInf ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
    }
    if (average) {
      BigDecimal avg = sum.divide(BigDecimal.valueOf(n), MathContext.DECIMAL128);
      return RefValues.canonical(type == ColumnType.DECIMAL ? avg : (Object) avg.doubleValue());
    }
    boolean toDouble = type == ColumnType.DOUBLE || (type == ColumnType.ANY && anyDouble);
    return RefValues.canonical(toDouble ? (Object) sum.doubleValue() : sum);
  }
}
