package dev.rivulet.engine;

import dev.rivulet.engine.state.OrderStatisticTree;
import java.math.BigDecimal;
import java.math.MathContext;

/**
 * The per-group state of one aggregate: values are added with signed weights (a negative weight
 * retracts) and {@link #result} reads the current value. Owned by one {@link AggregateOperator}.
 */
abstract class Accumulator {
  /** Adds {@code weight} copies of non-null canonical value {@code v}. */
  abstract void add(Object v, long weight);

  /** The aggregate over the current values. */
  abstract Object result();

  /** Rows of state held (for the space counters). */
  long retained() {
    return 1;
  }

  static Accumulator create(Aggregate a, ColumnType in) {
    return switch (a.kind()) {
      case COUNT_ROWS, COUNT -> new Count();
      case COUNT_DISTINCT -> new CountDistinct();
      case SUM -> new Sum(in, false);
      case AVG -> new Sum(in, true);
      case MIN -> new Extremum(false);
      case MAX -> new Extremum(true);
    };
  }

  /** Number of non-null values. */
  static final class Count extends Accumulator {
    long n;

    @Override
    void add(Object v, long weight) {
      n += weight;
    }

    @Override
    Object result() {
      return n;
    }
  }

  /** Number of distinct non-null values, from each value's multiplicity. */
  static final class CountDistinct extends Accumulator {
    private final java.util.HashMap<Object, Long> counts = new java.util.HashMap<>();

    @Override
    void add(Object v, long weight) {
      long next = counts.getOrDefault(v, 0L) + weight;
      if (next < 0) {
        throw new InvariantViolation("count distinct: multiplicity of " + Values.render(v) + " would become " + next);
      }
      if (next == 0) {
        counts.remove(v);
      } else {
        counts.put(v, next);
      }
    }

    @Override
    Object result() {
      return (long) counts.size();
    }

    @Override
    long retained() {
      return counts.size();
    }
  }

  /**
   * Exact sum (and average) of numbers: integers in a long until it overflows, everything else in
   * an exact decimal, non-finite doubles counted apart. The result is rounded once, when read, so
   * it does not depend on the order of changes.
   */
  static final class Sum extends Accumulator {
    private final boolean average;
    private final boolean asDouble;
    private final boolean decimalAverage;
    private final boolean dynamic; // an ANY input: a double among its values makes a double sum
    private long n;
    private long longSum;
    private BigDecimal exact = BigDecimal.ZERO;
    private long nan;
    private long posInf;
    private long negInf;
    private long doubles;

    Sum(ColumnType in, boolean average) {
      this.average = average;
      this.asDouble = in == ColumnType.DOUBLE;
      this.decimalAverage = in == ColumnType.DECIMAL;
      this.dynamic = in == ColumnType.ANY;
    }

    @Override
    void add(Object v, long weight) {
      n += weight;
      if (v instanceof Long l) {
        try {
          longSum = Math.addExact(longSum, Math.multiplyExact(l, weight));
        } catch (ArithmeticException overflow) {
          exact = exact.add(BigDecimal.valueOf(l).multiply(BigDecimal.valueOf(weight)));
        }
        return;
      }
      if (v instanceof Double d) {
        doubles += weight;
        if (d.isNaN()) {
          nan += weight;
          return;
        }
        if (d.isInfinite()) {
          if (d > 0) {
            posInf += weight;
          } else {
            negInf += weight;
          }
          return;
        }
      }
      exact = exact.add(Values.toDecimal((Number) v).multiply(BigDecimal.valueOf(weight)));
    }

    @Override
    Object result() {
      if (n == 0) {
        return null;
      }
      if (nan > 0 || (posInf > 0 && negInf > 0)) {
        return Double.NaN;
      }
      if (posInf > 0 || negInf > 0) {
        return posInf > 0 ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
      }
      BigDecimal total = exact.add(BigDecimal.valueOf(longSum));
      if (average) {
        BigDecimal avg = total.divide(BigDecimal.valueOf(n), MathContext.DECIMAL128);
        return Values.canonical(decimalAverage ? avg : (Object) avg.doubleValue());
      }
      // Over INT a Double is an exact integer beyond 64 bits (2^63), not a double: the sum stays exact.
      boolean toDouble = asDouble || (doubles > 0 && dynamic);
      return Values.canonical(toDouble ? (Object) total.doubleValue() : total);
    }
  }

  /** Min or max, from the ordered multiset of the group's values. */
  static final class Extremum extends Accumulator {
    private final boolean max;
    private final OrderStatisticTree<Object> values = new OrderStatisticTree<>(Values::compare);

    Extremum(boolean max) {
      this.max = max;
    }

    @Override
    void add(Object v, long weight) {
      try {
        values.add(v, weight);
      } catch (IllegalStateException e) {
        throw new InvariantViolation("min/max: " + e.getMessage());
      }
    }

    @Override
    Object result() {
      return max ? values.last() : values.first();
    }

    @Override
    long retained() {
      return values.distinct();
    }
  }
}
