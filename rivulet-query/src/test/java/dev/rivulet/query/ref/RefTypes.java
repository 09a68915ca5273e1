package dev.rivulet.query.ref;

import dev.rivulet.query.Expr;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The reference typing table, written from SQL's rules and the README, for the oracles and the SQL
 * rendering of the tests (it shares nothing with the query layer's type checker):
 *
 * <table>
 *   <caption>static types</caption>
 *   <tr><th>expression</th><th>type</th></tr>
 *   <tr><td>column</td><td>its declared type</td></tr>
 *   <tr><td>literal</td><td>its declared type ({@code Expr.Lit#type}, read by name), which is
 *       the type of the Java value written: integers INT, {@code double}/{@code float} DOUBLE (also
 *       {@code 2.0}: SQL types a literal by how it is written, not by its value), {@code
 *       BigDecimal} DECIMAL, text STRING, booleans BOOL; an untyped NULL is ANY</td></tr>
 *   <tr><td>{@code CAST(x AS t)}</td><td>{@code t}; allowed from {@code t} itself, from ANY, between
 *       INT, DOUBLE and DECIMAL, and from INT to STRING</td></tr>
 *   <tr><td>comparison, AND, OR, NOT, IS NULL, IN, LIKE</td><td>BOOL</td></tr>
 *   <tr><td>{@code + - * /}</td><td>the wider operand type, INT &lt; DOUBLE &lt; DECIMAL; an ANY
 *       operand takes the other's type</td></tr>
 *   <tr><td>COALESCE, CASE</td><td>the widest branch type (NULL branches do not count; all NULL:
 *       ANY)</td></tr>
 *   <tr><td>length</td><td>INT</td></tr>
 *   <tr><td>upper, lower, trim, concat, substring</td><td>STRING</td></tr>
 *   <tr><td>count</td><td>INT</td></tr>
 *   <tr><td>sum</td><td>DECIMAL over INT (an exact sum), else the argument's</td></tr>
 *   <tr><td>avg</td><td>DECIMAL over DECIMAL, else DOUBLE</td></tr>
 *   <tr><td>min, max</td><td>the argument's</td></tr>
 * </table>
 *
 * <p>Ill-typed expressions (comparing text with a number, arithmetic on text, a non-boolean
 * condition) are rejected with an {@link IllegalArgumentException}; the generators only make
 * well-typed ones, so this is a guard, not a specification of error messages.
 */
public final class RefTypes {
  private final RefScope scope;
  private final Map<Expr, RefType> memo = new IdentityHashMap<>();

  public RefTypes(RefScope scope) {
    this.scope = scope;
  }

  /** The type of scalar expression {@code e} over {@code scope}. */
  public static RefType typeOf(Expr e, RefScope scope) {
    return new RefTypes(scope).type(e);
  }

  /** The type of {@code e}, computed once per node (by identity). */
  public RefType type(Expr e) {
    RefType t = memo.get(e);
    if (t == null) {
      t = compute(e);
      memo.put(e, t);
    }
    return t;
  }

  /** The type of a literal value as written (see the table). */
  public static RefType literal(Object v) {
    if (v == null) {
      return RefType.ANY;
    }
    if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte || v instanceof BigInteger) {
      return RefType.INT;
    }
    if (v instanceof Double || v instanceof Float) {
      return RefType.DOUBLE;
    }
    if (v instanceof BigDecimal) {
      return RefType.DECIMAL;
    }
    if (v instanceof String || v instanceof Character) {
      return RefType.STRING;
    }
    if (v instanceof Boolean) {
      return RefType.BOOL;
    }
    if (v instanceof LocalDate) {
      return RefType.DATE;
    }
    if (v instanceof Instant) {
      return RefType.TIMESTAMP;
    }
    if (v instanceof byte[] || v instanceof dev.rivulet.engine.Bytes) {
      return RefType.BYTES;
    }
    throw new IllegalArgumentException("reference: no literal of " + v.getClass().getName());
  }

  /** The result type of aggregate {@code a} over {@code scope}. */
  public static RefType aggregate(Expr.Agg a, RefScope scope) {
    if (a.arg() == null) {
      return RefType.INT;
    }
    RefType in = typeOf(a.arg(), scope);
    switch (a.fn()) {
      case COUNT:
        return RefType.INT;
      case SUM:
        needNumber(in, a);
        return in == RefType.INT ? RefType.DECIMAL : in;
      case AVG:
        needNumber(in, a);
        return in == RefType.DECIMAL ? RefType.DECIMAL : RefType.DOUBLE;
      default:
        return in;
    }
  }

  private static void needNumber(RefType t, Expr e) {
    if (!t.numeric() && t != RefType.ANY) {
      throw new IllegalArgumentException("reference: " + e + " needs a number, not " + t);
    }
  }

  /** The wider of two numeric types (INT &lt; DOUBLE &lt; DECIMAL); ANY gives way to the other. */
  public static RefType wider(RefType a, RefType b) {
    if (a == RefType.ANY) {
      return b;
    }
    if (b == RefType.ANY) {
      return a;
    }
    if (a == RefType.DECIMAL || b == RefType.DECIMAL) {
      return RefType.DECIMAL;
    }
    return a == RefType.DOUBLE || b == RefType.DOUBLE ? RefType.DOUBLE : RefType.INT;
  }

  /** The common type of two branch or union column types, or null when they cannot meet. */
  public static RefType common(RefType a, RefType b) {
    if (a == RefType.ANY || b == RefType.ANY || (a.numeric() && b.numeric())) {
      return wider(a, b);
    }
    return a == b ? a : null;
  }

  private RefType compute(Expr e) {
    if (e instanceof Expr.Col c) {
      return scope.slot(c).type();
    }
    if (e instanceof Expr.Lit l) {
      return RefType.of(l.type());
    }
    if (e instanceof Expr.Cast c) {
      RefType from = type(c.arg());
      RefType to = RefType.of(c.type());
      boolean ok = to != RefType.ANY && (from == to || from == RefType.ANY || (from.numeric() && to.numeric())
          || (from == RefType.INT && to == RefType.STRING));
      if (!ok) {
        throw new IllegalArgumentException("reference: cannot cast " + from + " to " + to + " in " + e);
      }
      return to;
    }
    if (e instanceof Expr.Compare c) {
      meet(type(c.left()), type(c.right()), e);
      return RefType.BOOL;
    }
    if (e instanceof Expr.And a) {
      return conditions(a.args(), e);
    }
    if (e instanceof Expr.Or o) {
      return conditions(o.args(), e);
    }
    if (e instanceof Expr.Not n) {
      return conditions(List.of(n.arg()), e);
    }
    if (e instanceof Expr.IsNull n) {
      type(n.arg());
      return RefType.BOOL;
    }
    if (e instanceof Expr.In in) {
      RefType t = type(in.arg());
      for (Expr v : in.values()) {
        t = meet(t, type(v), e);
      }
      return RefType.BOOL;
    }
    if (e instanceof Expr.Like l) {
      text(l.arg(), e);
      text(l.pattern(), e);
      return RefType.BOOL;
    }
    if (e instanceof Expr.Coalesce c) {
      return branches(c.args(), e);
    }
    if (e instanceof Expr.Case c) {
      List<Expr> values = new java.util.ArrayList<>();
      for (Expr.When w : c.whens()) {
        conditions(List.of(w.condition()), e);
        values.add(w.value());
      }
      if (c.otherwise() != null) {
        values.add(c.otherwise());
      }
      return branches(values, e);
    }
    if (e instanceof Expr.Arith a) {
      RefType l = type(a.left());
      RefType r = type(a.right());
      needNumber(l, e);
      needNumber(r, e);
      return wider(l, r);
    }
    if (e instanceof Expr.Call c) {
      return call(c);
    }
    throw new IllegalArgumentException("reference: no scalar type for " + e);
  }

  private RefType call(Expr.Call c) {
    for (int i = 0; i < c.args().size(); i++) {
      RefType t = type(c.args().get(i));
      RefType want = c.fn() == Expr.StringFn.SUBSTRING && i > 0 ? RefType.INT : RefType.STRING;
      if (t != want && t != RefType.ANY) {
        throw new IllegalArgumentException("reference: argument " + i + " of " + c + " is " + t + ", not " + want);
      }
    }
    return c.fn() == Expr.StringFn.LENGTH ? RefType.INT : RefType.STRING;
  }

  private static RefType meet(RefType a, RefType b, Expr where) {
    RefType t = common(a, b);
    if (t == null) {
      throw new IllegalArgumentException("reference: cannot compare " + a + " with " + b + " in " + where);
    }
    return t;
  }

  private RefType conditions(List<Expr> args, Expr where) {
    for (Expr a : args) {
      RefType t = type(a);
      if (t != RefType.BOOL && t != RefType.ANY) {
        throw new IllegalArgumentException("reference: " + a + " is " + t + ", not a condition, in " + where);
      }
    }
    return RefType.BOOL;
  }

  private void text(Expr e, Expr where) {
    RefType t = type(e);
    if (t != RefType.STRING && t != RefType.ANY) {
      throw new IllegalArgumentException("reference: " + e + " is " + t + ", not text, in " + where);
    }
  }

  private RefType branches(List<Expr> values, Expr where) {
    RefType t = RefType.ANY;
    for (Expr v : values) {
      t = meet(t, type(v), where);
    }
    return t;
  }
}
