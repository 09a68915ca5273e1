package dev.rivulet.query.expr;

import dev.rivulet.engine.ColumnType;
import dev.rivulet.query.Expr;
import dev.rivulet.query.QueryException;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Infers the static {@link ColumnType} of an expression and rejects ill-typed ones.
 *
 * <p>The contract: {@link #typeOf} returns the type every non-NULL value of the expression
 * belongs to, or throws a {@link QueryException} whose message starts with the clause and names
 * the offending sub-expression and its type, e.g. {@code "where: cannot compare i.title (STRING)
 * with 5 (INT)"}. The rules:
 *
 * <ul>
 *   <li>A literal has its own type ({@link Expr.Lit#type}), as SQL types it: {@code lit(2)} is
 *       {@code INT}, {@code lit(2.0)} {@code DOUBLE} although its canonical value is 2; the untyped
 *       NULL literal is {@code ANY}, which every check accepts (ANY is "not known here").
 *   <li>Comparisons, IN, COALESCE and CASE branches need {@link ColumnType#comparableWith
 *       comparable} types; a comparison, IN, LIKE, IS NULL, AND, OR and NOT are {@code BOOL}.
 *   <li>AND, OR, NOT and CASE conditions need {@code BOOL}; LIKE and the string functions need
 *       {@code STRING}; substring's start and length need {@code INT}.
 *   <li>COALESCE and CASE have the widest branch type, numbers widening {@code INT < DOUBLE <
 *       DECIMAL}; branches that are NULL literals do not count, so all-NULL is {@code ANY}.
 *   <li>Arithmetic needs numbers: {@code INT op INT} is {@code INT} (division truncates), any
 *       {@code DECIMAL} makes it {@code DECIMAL}, otherwise any {@code DOUBLE} makes it {@code
 *       DOUBLE}; with a NULL literal it is the other side's type. An {@code INT} result that
 *       overflows 64 bits is carried as an exact decimal value (see {@link Arithmetic}).
 *   <li>upper, lower, trim, concat and substring are {@code STRING}; length is {@code INT}.
 *   <li>{@code CAST(x AS t)} is {@code t}, for the casts {@link Casts} allows.
 *   <li>Aggregates are not scalar: {@link #typeOf} rejects them ("aggregate sum not allowed in
 *       where"); {@link #aggregateType} types one aggregate call instead.
 * </ul>
 *
 * <p>An instance memoizes the types of the nodes it has seen (by identity), so that {@link
 * ExprCompiler} can ask for the type of every node without quadratic work.
 */
public final class TypeChecker {
  private final Scope scope;
  private final String clause;
  private final Map<Expr, ColumnType> memo = new IdentityHashMap<>();

  public TypeChecker(Scope scope, String clause) {
    this.scope = scope;
    this.clause = clause;
  }

  /** The type of scalar expression {@code e}; fails naming {@code clause} when ill-typed. */
  public static ColumnType typeOf(Expr e, Scope scope, String clause) {
    return new TypeChecker(scope, clause).type(e);
  }

  /**
   * The result type of one aggregate call, mirroring {@code dev.rivulet.engine.Aggregate}: counts
   * are {@code INT}; sum over {@code INT} is {@code DECIMAL} (its values stay 64-bit integers
   * unless they overflow), otherwise the input type; avg is {@code DOUBLE}, or {@code DECIMAL} over
   * {@code DECIMAL}; min and max keep the input type. sum and avg need a number; DISTINCT is only
   * allowed in count; the argument must be scalar.
   */
  public static ColumnType aggregateType(Expr.Agg a, Scope scope, String clause) {
    String fn = a.fn().name().toLowerCase(Locale.ROOT);
    if (a.distinct() && a.fn() != Expr.AggFn.COUNT) {
      throw new QueryException(clause + ": DISTINCT is only allowed in count, not in " + ExprText.of(a));
    }
    if (a.arg() == null) {
      if (a.fn() != Expr.AggFn.COUNT || a.distinct()) {
        throw new QueryException(clause + ": " + fn + " needs an argument");
      }
      return ColumnType.INT;
    }
    ColumnType in = typeOf(a.arg(), scope, clause);
    return switch (a.fn()) {
      case COUNT -> ColumnType.INT;
      case SUM, AVG -> {
        if (!numericOrAny(in)) {
          throw new QueryException(clause + ": " + fn + " needs a number, but " + ExprText.of(a.arg()) + " is " + in);
        }
        if (a.fn() == Expr.AggFn.SUM) {
          yield in == ColumnType.INT ? ColumnType.DECIMAL : in;
        }
        yield in == ColumnType.DECIMAL ? ColumnType.DECIMAL : ColumnType.DOUBLE;
      }
      case MIN, MAX -> in;
    };
  }

  /** The type of {@code e}, computed once per node. */
  public ColumnType type(Expr e) {
    if (e == null) {
      throw new QueryException(clause + ": missing expression");
    }
    ColumnType t = memo.get(e);
    if (t == null) {
      t = compute(e);
      memo.put(e, t);
    }
    return t;
  }

  public String clause() {
    return clause;
  }

  Scope scope() {
    return scope;
  }

  private ColumnType compute(Expr e) {
    if (e instanceof Expr.Col c) {
      return scope.resolve(c, clause).type();
    }
    if (e instanceof Expr.Lit l) {
      return literalType(l);
    }
    if (e instanceof Expr.Compare c) {
      ColumnType l = type(c.left());
      ColumnType r = type(c.right());
      if (!l.comparableWith(r)) {
        throw cannotCompare(c.left(), l, c.right(), r);
      }
      return ColumnType.BOOL;
    }
    if (e instanceof Expr.And a) {
      return bools(a.args(), "AND");
    }
    if (e instanceof Expr.Or o) {
      return bools(o.args(), "OR");
    }
    if (e instanceof Expr.Not n) {
      return bools(List.of(n.arg()), "NOT");
    }
    if (e instanceof Expr.IsNull n) {
      type(n.arg());
      return ColumnType.BOOL;
    }
    if (e instanceof Expr.In in) {
      ColumnType common = type(in.arg());
      Expr witness = in.arg();
      for (Expr v : in.values()) {
        ColumnType t = type(v);
        ColumnType u = unify(common, t);
        if (u == null) {
          throw cannotCompare(witness, common, v, t);
        }
        if (common == ColumnType.ANY && t != ColumnType.ANY) {
          witness = v;
        }
        common = u;
      }
      return ColumnType.BOOL;
    }
    if (e instanceof Expr.Like l) {
      String op = l.caseInsensitive() ? "ILIKE" : "LIKE";
      needString(l.arg(), op);
      needString(l.pattern(), op);
      return ColumnType.BOOL;
    }
    if (e instanceof Expr.Coalesce c) {
      if (c.args().isEmpty()) {
        throw new QueryException(clause + ": coalesce needs at least one argument");
      }
      return branches(c.args(), "coalesce");
    }
    if (e instanceof Expr.Case c) {
      List<Expr> values = new java.util.ArrayList<>();
      for (Expr.When w : c.whens()) {
        ColumnType t = type(w.condition());
        if (t != ColumnType.BOOL && t != ColumnType.ANY) {
          throw new QueryException(clause + ": CASE condition " + ExprText.of(w.condition()) + " is " + t + ", not BOOL");
        }
        values.add(w.value());
      }
      if (c.otherwise() != null) {
        values.add(c.otherwise());
      }
      return values.isEmpty() ? ColumnType.ANY : branches(values, "CASE");
    }
    if (e instanceof Expr.Arith a) {
      ColumnType l = type(a.left());
      ColumnType r = type(a.right());
      for (int i = 0; i < 2; i++) {
        ColumnType t = i == 0 ? l : r;
        if (!numericOrAny(t)) {
          throw new QueryException(clause + ": arithmetic needs numbers, but " + ExprText.of(i == 0 ? a.left() : a.right())
              + " is " + t + " in " + ExprText.of(a));
        }
      }
      return arithmeticType(l, r);
    }
    if (e instanceof Expr.Call c) {
      return call(c);
    }
    if (e instanceof Expr.Cast c) {
      ColumnType from = type(c.arg());
      if (!Casts.allowed(from, c.type())) {
        throw new QueryException(clause + ": cannot cast " + ExprText.of(c.arg()) + " (" + from + ") to " + c.type()
            + "; " + Casts.SUPPORTED);
      }
      return c.type();
    }
    if (e instanceof Expr.Agg a) {
      throw new QueryException("aggregate " + a.fn().name().toLowerCase(Locale.ROOT) + " not allowed in " + clause);
    }
    if (e instanceof Expr.Output o) {
      throw new QueryException(clause + ": " + ExprText.of(o) + " names a column of the select list, which can be"
          + " named only in order by and having; here write its expression (or a column as alias.column)");
    }
    // tested last, as the aggregate and the output are: a query without one does not load its class
    if (e instanceof Expr.Include) {
      throw new QueryException(clause + ": an include is allowed only as a whole select item (Query.includeArray"
          + " and friends), not inside an expression");
    }
    throw new QueryException(clause + ": unsupported expression " + e);
  }

  private static ColumnType literalType(Expr.Lit l) {
    return l.type();
  }

  private ColumnType call(Expr.Call c) {
    String fn = c.fn().name().toLowerCase(Locale.ROOT);
    List<Expr> args = c.args();
    switch (c.fn()) {
      case UPPER, LOWER, TRIM, LENGTH -> {
        arity(fn, args, 1, 1);
        needString(args.get(0), fn);
        return c.fn() == Expr.StringFn.LENGTH ? ColumnType.INT : ColumnType.STRING;
      }
      case CONCAT -> {
        if (args.isEmpty()) {
          throw new QueryException(clause + ": concat needs at least one argument");
        }
        for (Expr a : args) {
          needString(a, fn);
        }
        return ColumnType.STRING;
      }
      case SUBSTRING -> {
        arity(fn, args, 2, 3);
        needString(args.get(0), fn);
        for (int i = 1; i < args.size(); i++) {
          ColumnType t = type(args.get(i));
          if (t != ColumnType.INT && t != ColumnType.ANY) {
            throw new QueryException(clause + ": substring " + (i == 1 ? "start " : "length ") + ExprText.of(args.get(i))
                + " is " + t + ", not INT");
          }
        }
        return ColumnType.STRING;
      }
      default -> throw new QueryException(clause + ": unsupported function " + fn);
    }
  }

  private void arity(String fn, List<Expr> args, int min, int max) {
    if (args.size() < min || args.size() > max) {
      String want = min == max ? Integer.toString(min) : min + " or " + max;
      throw new QueryException(clause + ": " + fn + " takes " + want + " argument" + (max == 1 ? "" : "s")
          + ", got " + args.size());
    }
  }

  private void needString(Expr e, String op) {
    ColumnType t = type(e);
    if (t != ColumnType.STRING && t != ColumnType.ANY) {
      throw new QueryException(clause + ": " + op + " needs STRING, but " + ExprText.of(e) + " is " + t);
    }
  }

  private ColumnType bools(List<Expr> args, String op) {
    for (Expr a : args) {
      ColumnType t = type(a);
      if (t != ColumnType.BOOL && t != ColumnType.ANY) {
        throw new QueryException(clause + ": " + op + " needs BOOL operands, but " + ExprText.of(a) + " is " + t);
      }
    }
    return ColumnType.BOOL;
  }

  private ColumnType branches(List<Expr> values, String what) {
    ColumnType common = ColumnType.ANY;
    Expr witness = null;
    for (Expr v : values) {
      ColumnType t = type(v);
      ColumnType u = unify(common, t);
      if (u == null) {
        throw new QueryException(clause + ": " + what + " branches must be comparable, but " + ExprText.of(witness)
            + " is " + common + " and " + ExprText.of(v) + " is " + t);
      }
      if (witness == null && t != ColumnType.ANY) {
        witness = v;
      }
      common = u;
    }
    return common;
  }

  private QueryException cannotCompare(Expr l, ColumnType lt, Expr r, ColumnType rt) {
    return new QueryException(clause + ": cannot compare " + ExprText.of(l) + " (" + lt + ") with " + ExprText.of(r)
        + " (" + rt + ")");
  }

  static boolean numericOrAny(ColumnType t) {
    return t.isNumeric() || t == ColumnType.ANY;
  }

  /** The type of {@code l op r} for numeric (or ANY) operand types. */
  static ColumnType arithmeticType(ColumnType l, ColumnType r) {
    if (l == ColumnType.ANY) {
      return r;
    }
    if (r == ColumnType.ANY) {
      return l;
    }
    return wider(l, r);
  }

  /** The wider of two numeric types: {@code INT < DOUBLE < DECIMAL}. */
  static ColumnType wider(ColumnType a, ColumnType b) {
    if (a == ColumnType.DECIMAL || b == ColumnType.DECIMAL) {
      return ColumnType.DECIMAL;
    }
    if (a == ColumnType.DOUBLE || b == ColumnType.DOUBLE) {
      return ColumnType.DOUBLE;
    }
    return ColumnType.INT;
  }

  /** The common type of two branch types, or null when they cannot meet. */
  public static ColumnType unify(ColumnType a, ColumnType b) {
    if (a == ColumnType.ANY) {
      return b;
    }
    if (b == ColumnType.ANY || a == b) {
      return a;
    }
    if (a.isNumeric() && b.isNumeric()) {
      return wider(a, b);
    }
    return null;
  }
}
