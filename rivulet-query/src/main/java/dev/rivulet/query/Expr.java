package dev.rivulet.query;

import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.Values;
import dev.rivulet.query.expr.Arithmetic;
import java.util.List;
import java.util.Objects;

/**
 * A scalar or aggregate expression of the query IR. Immutable records; build them with {@link
 * Exprs}. Semantics are SQL's, with three-valued logic: a predicate is TRUE, FALSE or NULL
 * (unknown), and a where/having clause keeps a row only when its predicate is TRUE.
 */
public sealed interface Expr {
  /** A column of the source with the given alias, e.g. {@code i.status}. */
  record Col(String alias, String column) implements Expr {
    public Col {
      Objects.requireNonNull(alias, "alias");
      Objects.requireNonNull(column, "column");
    }

    @Override
    public String toString() {
      return alias + "." + column;
    }
  }

  /**
   * An output column of the block's select list, by its name (a select alias; {@code position}
   * 0) or by its 1-based position ({@code name} null): {@code ORDER BY total}, {@code ORDER BY 2},
   * {@code HAVING total > 5}. It stands for that column's expression. Allowed where SQL allows it:
   * in order by (a position only as a whole item) and, by name, in having (as SQLite, H2 and MySQL
   * allow; PostgreSQL does not); a block without a select list names its columns as it shows them.
   * Build it with {@code Exprs.output} or {@code Query.asc("total")}.
   */
  record Output(String name, int position) implements Expr {
    public Output {
      if ((name == null) == (position <= 0)) {
        throw new QueryException("an output column is named either by name or by a position from 1, not "
            + (name == null ? "position " + position : "both '" + name + "' and " + position));
      }
    }
  }

  /**
   * A constant of SQL type {@code type}. The value is kept canonical (see {@code Values}), so
   * {@code 2}, {@code 2.0} and {@code 2.00} are one value, but the type is the literal's own:
   * {@code new Lit(2.0)} is a DOUBLE 2, and {@code 5 / 2.0} is 2.5 as in SQL. A NULL of a given
   * type ({@code CAST(NULL AS INT)}) is {@code new Lit(null, INT)}; an untyped NULL is {@code ANY}.
   */
  record Lit(Object value, ColumnType type) implements Expr {
    /**
     * @throws QueryException when {@code value} is of no supported type, or not of {@code type}
     */
    public Lit {
      Objects.requireNonNull(type, "literal type");
      try {
        value = Values.canonical(value);
      } catch (IllegalArgumentException e) {
        throw new QueryException("unsupported literal: " + e.getMessage());
      }
      if (value != null && !type.accepts(value)) {
        throw new QueryException("literal " + Values.render(value) + " (" + ColumnType.of(value) + ") is not a "
            + type + " value");
      }
    }

    /** A constant typed as SQL types a literal of its Java class ({@link ColumnType#ofJava}). */
    public Lit(Object value) {
      this(value, javaType(value));
    }

    private static ColumnType javaType(Object value) {
      try {
        return ColumnType.ofJava(value);
      } catch (IllegalArgumentException e) {
        throw new QueryException("unsupported literal: " + e.getMessage());
      }
    }

    @Override
    public String toString() {
      return dev.rivulet.query.expr.ExprText.of(this);
    }
  }

  /** Comparison operators. */
  enum CompareOp { EQ, NE, GT, GTE, LT, LTE }

  /** {@code left op right}; NULL when either side is NULL. */
  record Compare(CompareOp op, Expr left, Expr right) implements Expr {}

  /** Conjunction (three-valued). */
  record And(List<Expr> args) implements Expr {
    public And {
      args = List.copyOf(args);
    }
  }

  /** Disjunction (three-valued). */
  record Or(List<Expr> args) implements Expr {
    public Or {
      args = List.copyOf(args);
    }
  }

  /** Negation (three-valued: NOT NULL is NULL). */
  record Not(Expr arg) implements Expr {}

  /** {@code arg IS NULL}, or {@code IS NOT NULL} when negated; never NULL itself. */
  record IsNull(Expr arg, boolean negated) implements Expr {}

  /** {@code arg IN (values...)} with SQL semantics (NULL when no match and a NULL is involved). */
  record In(Expr arg, List<Expr> values) implements Expr {
    public In {
      values = List.copyOf(values);
    }
  }

  /**
   * {@code arg LIKE pattern} ({@code %} any run, {@code _} one character), or ILIKE; with {@code
   * escape} (one character, or null for none), {@code LIKE pattern ESCAPE escape}: the escape
   * character followed by any character stands for that character, so {@code '100\%'} with
   * escape {@code \} matches the text {@code 100%}.
   */
  record Like(Expr arg, Expr pattern, boolean caseInsensitive, String escape) implements Expr {
    /** @throws QueryException when {@code escape} is not exactly one character */
    public Like {
      if (escape != null && escape.codePointCount(0, escape.length()) != 1) {
        throw new QueryException((caseInsensitive ? "ILIKE" : "LIKE") + " ESCAPE must be one character, not "
            + Values.render(escape));
      }
    }

    /** Without an escape character. */
    public Like(Expr arg, Expr pattern, boolean caseInsensitive) {
      this(arg, pattern, caseInsensitive, null);
    }
  }

  /** The first non-NULL argument. */
  record Coalesce(List<Expr> args) implements Expr {
    public Coalesce {
      args = List.copyOf(args);
    }
  }

  /** One {@code WHEN condition THEN value} arm. */
  record When(Expr condition, Expr value) {}

  /** {@code CASE WHEN ... THEN ... ELSE otherwise END}; a missing ELSE is NULL. */
  record Case(List<When> whens, Expr otherwise) implements Expr {
    public Case {
      whens = List.copyOf(whens);
    }
  }

  /** Arithmetic operators. */
  enum ArithOp { ADD, SUB, MUL, DIV }

  /** {@code left op right}; NULL when either side is NULL; see {@link Exprs#div} for zero. */
  record Arith(ArithOp op, Expr left, Expr right) implements Expr {}

  /** String functions. */
  enum StringFn { UPPER, LOWER, LENGTH, CONCAT, SUBSTRING, TRIM }

  /** A string function call; NULL when any argument is NULL. */
  record Call(StringFn fn, List<Expr> args) implements Expr {
    public Call {
      args = List.copyOf(args);
    }
  }

  /**
   * {@code CAST(arg AS type)}: numbers between INT, DOUBLE and DECIMAL (to INT rounding halves away
   * from zero), INT to STRING, a NULL to any type; see {@code dev.rivulet.query.expr.Casts}.
   */
  record Cast(Expr arg, ColumnType type) implements Expr {
    public Cast {
      Objects.requireNonNull(arg, "cast argument");
      Objects.requireNonNull(type, "cast type");
    }
  }

  /** Aggregate functions. */
  enum AggFn { COUNT, SUM, AVG, MIN, MAX }

  /**
   * An aggregate over the rows of a group: {@code count(*)} has a null argument; {@code distinct}
   * counts distinct non-NULL values (only with COUNT).
   */
  record Agg(AggFn fn, Expr arg, boolean distinct) implements Expr {}

  /** How an include materializes its child rows in the parent's column. */
  enum IncludeMode {
    /** A live {@link LiveCollection} per correlated bucket, shared by the parents routed to it. */
    COLLECTION,
    /** The child rows in the child's order, as an immutable {@code List<Row>} ({@code []} when none). */
    ARRAY,
    /** The first child row in the child's order, or null when there is none. */
    ONE,
    /** The child's one column, its non-null values as text joined by a separator in the child's order ({@code ""} when none). */
    CONCAT
  }

  /**
   * A nested child query as a select item (build it with {@code Query.includeArray} and friends).
   * The child's where correlates it with the enclosing block by equalities {@code child.col =
   * parentExpr} (alone or inside a top-level conjunction); its where, joins, grouping, order by,
   * limit and offset apply per parent. Allowed only as a whole select item. A grouped child is
   * grouped per parent too, so a parent without child rows has no group: a correlated {@code
   * count(*)} of an empty bucket is absent (the mode's empty value), not a row holding 0.
   *
   * @param separator for {@link IncludeMode#CONCAT}; null otherwise
   */
  record Include(QueryIR query, IncludeMode mode, String separator) implements Expr {
    public Include {
      Objects.requireNonNull(query, "include query");
      Objects.requireNonNull(mode, "include mode");
      if ((mode == IncludeMode.CONCAT) != (separator != null)) {
        throw new QueryException("include: a separator goes with CONCAT only");
      }
    }
  }
}
