package dev.rivulet.query;

import dev.rivulet.query.ref.RefType;
import dev.rivulet.testkit.RefValues;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Aggregates recomputed from a group's whole list of argument values, the plainest way, with the
 * semantics {@code dev.rivulet.engine.Aggregate} documents: {@code count(*)} counts rows; the
 * others ignore NULLs; over no non-NULL value {@code count} is 0 and the rest are NULL; sums are
 * exact and rounded once (to a double when the argument is DOUBLE, or is ANY and holds a double;
 * an INT's double is an exact integer beyond 64 bits); an average is the exact sum divided by the count to 34 digits, half-even, then a
 * double unless the argument is DECIMAL; min and max use the total order of the reference value
 * model ({@link RefValues}), with which every value here is computed.
 */
final class NaiveAggregates {
  private NaiveAggregates() {}

  /**
   * @param values the argument's value on each row of the group (ignored for {@code count(*)},
   *     where only its size counts)
   * @param argType the static type of the argument
   */
  static Object compute(Expr.Agg a, RefType argType, List<Object> values) {
    if (a.arg() == null) {
      return (long) values.size();
    }
    int nonNull = 0;
    Set<Object> distinct = new TreeSet<>(RefValues::compare);
    BigDecimal sum = BigDecimal.ZERO;
    boolean sawDouble = false;
    Object min = null;
    Object max = null;
    for (Object v : values) {
      if (v == null) {
        continue;
      }
      nonNull++;
      distinct.add(v);
      if (a.fn() == Expr.AggFn.SUM || a.fn() == Expr.AggFn.AVG) {
        sawDouble |= v instanceof Double;
        sum = sum.add(RefValues.exact(v));
      }
      if (min == null || RefValues.compare(v, min) < 0) {
        min = v;
      }
      if (max == null || RefValues.compare(v, max) > 0) {
        max = v;
      }
    }
    switch (a.fn()) {
      case COUNT:
        return (long) (a.distinct() ? distinct.size() : nonNull);
      case MIN:
        return min;
      case MAX:
        return max;
      case SUM:
        if (nonNull == 0) {
          return null;
        }
        boolean toDouble = argType == RefType.DOUBLE || (sawDouble && argType == RefType.ANY);
        return RefValues.canonical(toDouble ? (Object) sum.doubleValue() : sum);
      default: // AVG
        if (nonNull == 0) {
          return null;
        }
        BigDecimal avg = sum.divide(BigDecimal.valueOf(nonNull), MathContext.DECIMAL128);
        return RefValues.canonical(argType == RefType.DECIMAL ? (Object) avg : (Object) avg.doubleValue());
    }
  }
}
