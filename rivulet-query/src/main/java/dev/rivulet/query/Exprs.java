package dev.rivulet.query;

import dev.rivulet.engine.ColumnType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The expression DSL: {@code import static dev.rivulet.query.Exprs.*} and write {@code
 * and(eq(col("i.status"), lit("open")), gt(col("i.priority"), lit(50)))}.
 *
 * <p>Division: integer divided by integer truncates toward zero, as in SQLite, PostgreSQL and H2;
 * otherwise the result is a double (or an exact decimal when an operand is one). Division by zero
 * is NULL (SQLite's rule), so that one bad row cannot stop a live pipeline.
 */
public final class Exprs {
  private Exprs() {}

  /**
   * A column reference {@code "alias.column"}: a column of the relation with that alias in from or
   * join. To name a column of the select list instead (in order by or having), use {@link
   * #output(String)}.
   */
  public static Expr.Col col(String qualified) {
    int dot = qualified.indexOf('.');
    if (dot <= 0 || dot == qualified.length() - 1) {
      throw new QueryException("column reference '" + qualified + "' needs the alias of its relation, as"
          + " alias.column (e.g. i.status, where i is the alias given in from or join); a column of the select"
          + " list is named with output(\"" + qualified + "\") (or output(position)) in order by and having");
    }
    return new Expr.Col(qualified.substring(0, dot), qualified.substring(dot + 1));
  }

  /**
   * The output column {@code name} of the select list (a select alias), as in {@code ORDER BY
   * total} or {@code HAVING total > 5}; allowed in order by and having. See {@link Expr.Output}.
   */
  public static Expr output(String name) {
    return new Expr.Output(java.util.Objects.requireNonNull(name, "output column name"), 0);
  }

  /** The output column at 1-based {@code position}, as in {@code ORDER BY 2}: a whole order-by item only. */
  public static Expr output(int position) {
    return new Expr.Output(null, position);
  }

  public static Expr.Col col(String alias, String column) {
    return new Expr.Col(alias, column);
  }

  /**
   * A constant, typed as SQL types a literal of its Java class: {@code lit(2)} is INT, {@code
   * lit(2.0)} DOUBLE (so {@code div(lit(5), lit(2.0))} is 2.5), {@code lit(new BigDecimal("2.0"))}
   * DECIMAL, {@code lit(LocalDate.of(..))} DATE, {@code lit(null)} an untyped NULL. The value is
   * kept canonical ({@code lit(2.0)} equals 2 in comparisons).
   */
  public static Expr.Lit lit(Object value) {
    return new Expr.Lit(value);
  }

  /**
   * A typed literal: {@code value} as a constant of {@code type}, e.g. {@code lit(2, DOUBLE)}, or
   * {@code lit(null, INT)} for {@code CAST(NULL AS INT)}.
   *
   * @throws QueryException when {@code value} does not belong to {@code type}
   */
  public static Expr.Lit lit(Object value, ColumnType type) {
    return new Expr.Lit(value, type);
  }

  /** SQL's {@code DATE 'yyyy-mm-dd'}. */
  public static Expr.Lit date(String isoDate) {
    return TimeLiterals.date(isoDate);
  }

  /**
   * SQL's {@code TIMESTAMP '...'}: an ISO-8601 instant ({@code 2024-05-01T10:15:30Z}, or with an
   * offset), or a local date-time ({@code 2024-05-01T10:15:30} or {@code 2024-05-01 10:15:30}),
   * read as UTC as {@code Values} reads a {@code LocalDateTime}.
   */
  public static Expr.Lit timestamp(String text) {
    return TimeLiterals.timestamp(text);
  }

  public static Expr eq(Expr l, Expr r) {
    return new Expr.Compare(Expr.CompareOp.EQ, l, r);
  }

  public static Expr ne(Expr l, Expr r) {
    return new Expr.Compare(Expr.CompareOp.NE, l, r);
  }

  public static Expr gt(Expr l, Expr r) {
    return new Expr.Compare(Expr.CompareOp.GT, l, r);
  }

  public static Expr gte(Expr l, Expr r) {
    return new Expr.Compare(Expr.CompareOp.GTE, l, r);
  }

  public static Expr lt(Expr l, Expr r) {
    return new Expr.Compare(Expr.CompareOp.LT, l, r);
  }

  public static Expr lte(Expr l, Expr r) {
    return new Expr.Compare(Expr.CompareOp.LTE, l, r);
  }

  public static Expr and(Expr... args) {
    return new Expr.And(Arrays.asList(args));
  }

  public static Expr or(Expr... args) {
    return new Expr.Or(Arrays.asList(args));
  }

  public static Expr not(Expr arg) {
    return new Expr.Not(arg);
  }

  public static Expr isNull(Expr arg) {
    return new Expr.IsNull(arg, false);
  }

  public static Expr isNotNull(Expr arg) {
    return new Expr.IsNull(arg, true);
  }

  public static Expr in(Expr arg, Expr... values) {
    return new Expr.In(arg, Arrays.asList(values));
  }

  /** {@code arg IN (values...)} over constants. */
  public static Expr inValues(Expr arg, Object... values) {
    List<Expr> lits = new ArrayList<>();
    for (Object v : values) {
      lits.add(lit(v));
    }
    return new Expr.In(arg, lits);
  }

  public static Expr like(Expr arg, Expr pattern) {
    return new Expr.Like(arg, pattern, false);
  }

  public static Expr ilike(Expr arg, Expr pattern) {
    return new Expr.Like(arg, pattern, true);
  }

  /**
   * {@code arg LIKE pattern ESCAPE escape}: in the pattern, {@code escape} followed by any
   * character stands for that character, e.g. {@code like(col("i.title"), lit("100\\%"), '\\')}
   * matches the text {@code 100%}. A pattern must not end with the escape character.
   */
  public static Expr like(Expr arg, Expr pattern, char escape) {
    return new Expr.Like(arg, pattern, false, String.valueOf(escape));
  }

  /** {@code arg ILIKE pattern ESCAPE escape}; see {@link #like(Expr, Expr, char)}. */
  public static Expr ilike(Expr arg, Expr pattern, char escape) {
    return new Expr.Like(arg, pattern, true, String.valueOf(escape));
  }

  public static Expr coalesce(Expr... args) {
    return new Expr.Coalesce(Arrays.asList(args));
  }

  /** Starts {@code CASE WHEN condition THEN value ...}. */
  public static CaseBuilder when(Expr condition, Expr value) {
    return new CaseBuilder().when(condition, value);
  }

  public static Expr add(Expr l, Expr r) {
    return new Expr.Arith(Expr.ArithOp.ADD, l, r);
  }

  public static Expr sub(Expr l, Expr r) {
    return new Expr.Arith(Expr.ArithOp.SUB, l, r);
  }

  public static Expr mul(Expr l, Expr r) {
    return new Expr.Arith(Expr.ArithOp.MUL, l, r);
  }

  /** Division; see the class comment for integers and zero. */
  public static Expr div(Expr l, Expr r) {
    return new Expr.Arith(Expr.ArithOp.DIV, l, r);
  }

  /**
   * {@code CAST(e AS type)}: between INT, DOUBLE and DECIMAL (to INT: rounded, halves away from
   * zero; NaN and infinities are NULL), INT to STRING, and a NULL to any type, e.g. {@code
   * div(cast(col("i.done"), DOUBLE), col("i.total"))} for a fraction of two integers.
   */
  public static Expr cast(Expr e, ColumnType type) {
    return new Expr.Cast(e, type);
  }

  public static Expr upper(Expr s) {
    return new Expr.Call(Expr.StringFn.UPPER, List.of(s));
  }

  public static Expr lower(Expr s) {
    return new Expr.Call(Expr.StringFn.LOWER, List.of(s));
  }

  /** Length in Unicode code points. */
  public static Expr length(Expr s) {
    return new Expr.Call(Expr.StringFn.LENGTH, List.of(s));
  }

  public static Expr concat(Expr... parts) {
    return new Expr.Call(Expr.StringFn.CONCAT, Arrays.asList(parts));
  }

  /** {@code SUBSTR(s, start, length)}, start counted from 1 in code points. */
  public static Expr substring(Expr s, Expr start, Expr length) {
    return new Expr.Call(Expr.StringFn.SUBSTRING, List.of(s, start, length));
  }

  /** Removes leading and trailing spaces. */
  public static Expr trim(Expr s) {
    return new Expr.Call(Expr.StringFn.TRIM, List.of(s));
  }

  /** {@code count(*)}. */
  public static Expr count() {
    return new Expr.Agg(Expr.AggFn.COUNT, null, false);
  }

  public static Expr count(Expr arg) {
    return new Expr.Agg(Expr.AggFn.COUNT, arg, false);
  }

  public static Expr countDistinct(Expr arg) {
    return new Expr.Agg(Expr.AggFn.COUNT, arg, true);
  }

  public static Expr sum(Expr arg) {
    return new Expr.Agg(Expr.AggFn.SUM, arg, false);
  }

  public static Expr avg(Expr arg) {
    return new Expr.Agg(Expr.AggFn.AVG, arg, false);
  }

  public static Expr min(Expr arg) {
    return new Expr.Agg(Expr.AggFn.MIN, arg, false);
  }

  public static Expr max(Expr arg) {
    return new Expr.Agg(Expr.AggFn.MAX, arg, false);
  }

  /** Builds a {@link Expr.Case}. */
  public static final class CaseBuilder {
    private final List<Expr.When> whens = new ArrayList<>();

    public CaseBuilder when(Expr condition, Expr value) {
      whens.add(new Expr.When(condition, value));
      return this;
    }

    public Expr otherwise(Expr value) {
      return new Expr.Case(whens, value);
    }

    /** Without ELSE: NULL when no arm matches. */
    public Expr end() {
      return new Expr.Case(whens, null);
    }
  }
}
