package dev.rivulet.engine;

import java.util.Objects;

/**
 * One aggregate of a group-by, with SQL semantics: {@code count(*)} counts rows; {@code count}, {@code count distinct},
 * {@code sum}, {@code avg}, {@code min}, {@code max} ignore nulls; over no non-null values {@code
 * count} is 0 and the others are null.
 *
 * <p>Result types: counts are {@code INT}; {@code sum} is typed {@code DECIMAL} over {@code INT} (its values stay
 * 64-bit integers unless they overflow) and otherwise the input type; {@code avg} is {@code DOUBLE}, or
 * {@code DECIMAL} over decimals; {@code min}/{@code max} keep the input type. Sums are exact
 * whatever the input type and rounded once when read, so the order of changes cannot affect them.
 * An average is the exact sum divided by the count to 34 significant digits (half-even, {@code
 * MathContext.DECIMAL128}), then, except over decimals, converted to the nearest double.
 *
 * @param kind which aggregate
 * @param column the input column, or null for {@code count(*)}
 * @param as the output column name
 */
public record Aggregate(Kind kind, String column, String as) {
  /** The aggregate functions. */
  public enum Kind { COUNT_ROWS, COUNT, COUNT_DISTINCT, SUM, AVG, MIN, MAX }

  public Aggregate {
    Objects.requireNonNull(kind, "aggregate kind");
    Objects.requireNonNull(as, "aggregate output name");
    if ((kind == Kind.COUNT_ROWS) != (column == null)) {
      throw new IllegalArgumentException(kind + " " + (column == null ? "needs an input column" : "takes no column"));
    }
  }

  public static Aggregate countRows(String as) {
    return new Aggregate(Kind.COUNT_ROWS, null, as);
  }

  public static Aggregate count(String column, String as) {
    return new Aggregate(Kind.COUNT, column, as);
  }

  /** Number of distinct non-null values. */
  public static Aggregate countDistinct(String column, String as) {
    return new Aggregate(Kind.COUNT_DISTINCT, column, as);
  }

  public static Aggregate sum(String column, String as) {
    return new Aggregate(Kind.SUM, column, as);
  }

  public static Aggregate avg(String column, String as) {
    return new Aggregate(Kind.AVG, column, as);
  }

  public static Aggregate min(String column, String as) {
    return new Aggregate(Kind.MIN, column, as);
  }

  public static Aggregate max(String column, String as) {
    return new Aggregate(Kind.MAX, column, as);
  }

  /** The output column type over an input column of type {@code in}. */
  ColumnType resultType(ColumnType in) {
    return switch (kind) {
      case COUNT_ROWS, COUNT, COUNT_DISTINCT -> ColumnType.INT;
      case SUM -> in == ColumnType.INT ? ColumnType.DECIMAL : in;
      case AVG -> in == ColumnType.DECIMAL ? ColumnType.DECIMAL : ColumnType.DOUBLE;
      case MIN, MAX -> in;
    };
  }
}
