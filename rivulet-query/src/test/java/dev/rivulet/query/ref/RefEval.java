package dev.rivulet.query.ref;

import dev.rivulet.engine.Row;
import dev.rivulet.query.Expr;
import dev.rivulet.testkit.RefValues;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The reference evaluator of scalar expressions: walks the expression tree for each row, with SQL's
 * three-valued logic on the reference value model ({@link RefValues}) and the reference typing
 * table ({@link RefTypes}); it shares no code with the query layer's compiler. Java null is SQL
 * NULL, and every result is canonical.
 *
 * <ul>
 *   <li>AND is FALSE when an operand is FALSE, else NULL when one is NULL, else TRUE; OR is the
 *       dual; NOT NULL is NULL; IS [NOT] NULL is never NULL.
 *   <li>A comparison is NULL when a side is NULL, else decided by the total order of {@link
 *       RefValues#compare} (numbers by exact value, strings by code point).
 *   <li>{@code x IN (v...)}: TRUE when x equals some v; else NULL when x or a v is NULL; else
 *       FALSE. {@code x IN ()} is FALSE, even for a NULL x.
 *   <li>LIKE, ILIKE, length, substring, trim: {@link RefStrings}; upper and lower: full Unicode
 *       case mapping with {@link Locale#ROOT}; concat is NULL when any part is. Any NULL argument
 *       of a string function gives NULL.
 *   <li>COALESCE: the first non-NULL argument. CASE: the value of the first arm whose condition
 *       is TRUE (a NULL condition does not match), else the ELSE value, else NULL.
 *   <li>Arithmetic: {@link RefArith}, by the static type of the operation.
 *   <li>CAST: {@link RefCasts}; an INT cast to DECIMAL keeps its value (an exact integer beyond
 *       64 bits that a double holds is no double). A COALESCE or CASE of type DOUBLE turns its INT
 *       or DECIMAL branches' values into doubles.
 *   <li>LIKE with an escape character: {@link RefStrings#like(String, String, boolean, int)}.
 * </ul>
 */
public final class RefEval {
  private final Expr expr;
  private final RefScope scope;
  private final RefTypes types;
  private final java.util.Map<Expr.Col, Integer> slots = new java.util.IdentityHashMap<>();

  private RefEval(Expr expr, RefScope scope) {
    this.expr = expr;
    this.scope = scope;
    this.types = new RefTypes(scope);
    types.type(expr); // type-check once, up front
  }

  /** The evaluator of {@code e} over rows laid out as {@code scope} says. */
  public static RefEval of(Expr e, RefScope scope) {
    return new RefEval(e, scope);
  }

  /** The value of the expression on {@code row}. */
  public Object eval(Row row) {
    return eval(expr, row);
  }

  /** A where/having test: the row is kept only when the condition is TRUE. */
  public boolean holds(Row row) {
    return Boolean.TRUE.equals(truth(eval(expr, row))); // a non-boolean is an error, not FALSE
  }

  private Object eval(Expr e, Row row) {
    if (e instanceof Expr.Col c) {
      return row.get(slots.computeIfAbsent(c, k -> scope.slot(k).index()));
    }
    if (e instanceof Expr.Lit l) {
      return RefValues.canonical(l.value());
    }
    if (e instanceof Expr.Compare c) {
      return compare(c.op(), eval(c.left(), row), eval(c.right(), row));
    }
    if (e instanceof Expr.And a) {
      return junction(a.args(), row, false);
    }
    if (e instanceof Expr.Or o) {
      return junction(o.args(), row, true);
    }
    if (e instanceof Expr.Not n) {
      Boolean v = truth(eval(n.arg(), row));
      return v == null ? null : !v;
    }
    if (e instanceof Expr.IsNull n) {
      return (eval(n.arg(), row) == null) != n.negated();
    }
    if (e instanceof Expr.In in) {
      return in(in, row);
    }
    if (e instanceof Expr.Like l) {
      Object t = eval(l.arg(), row);
      Object p = eval(l.pattern(), row);
      if (t == null || p == null) {
        return null;
      }
      if (l.escape() == null) {
        return RefStrings.like(text(t), text(p), l.caseInsensitive());
      }
      // not in one conditional expression with the boolean above: its NULL (a malformed pattern) would be unboxed
      return RefStrings.like(text(t), text(p), l.caseInsensitive(), l.escape().codePointAt(0));
    }
    if (e instanceof Expr.Coalesce c) {
      for (Expr a : c.args()) {
        Object v = eval(a, row);
        if (v != null) {
          return branchValue(v, c);
        }
      }
      return null;
    }
    if (e instanceof Expr.Case c) {
      for (Expr.When w : c.whens()) {
        if (Boolean.TRUE.equals(truth(eval(w.condition(), row)))) {
          return branchValue(eval(w.value(), row), c);
        }
      }
      return c.otherwise() == null ? null : branchValue(eval(c.otherwise(), row), c);
    }
    if (e instanceof Expr.Cast c) {
      Object v = eval(c.arg(), row);
      if (v != null && types.type(c.arg()) == RefType.INT && RefType.of(c.type()) == RefType.DECIMAL) {
        return v; // an INT's value as it is, also an exact integer beyond 64 bits that a double holds
      }
      return v == null ? null : RefCasts.convert(v, RefType.of(c.type()));
    }
    if (e instanceof Expr.Arith a) {
      Object x = eval(a.left(), row);
      Object y = eval(a.right(), row);
      return x == null || y == null ? null : RefArith.apply(a.op(), types.type(a), x, y);
    }
    if (e instanceof Expr.Call c) {
      return call(c, row);
    }
    throw new IllegalArgumentException("reference: cannot evaluate " + e);
  }

  /** A COALESCE/CASE value: in a DOUBLE one, an INT or DECIMAL branch's value becomes a double. */
  private Object branchValue(Object v, Expr whole) {
    return v != null && types.type(whole) == RefType.DOUBLE ? RefCasts.toDouble(v) : v;
  }

  private static Boolean compare(Expr.CompareOp op, Object a, Object b) {
    if (a == null || b == null) {
      return null;
    }
    int c = RefValues.compare(a, b);
    switch (op) {
      case EQ:
        return c == 0;
      case NE:
        return c != 0;
      case LT:
        return c < 0;
      case LTE:
        return c <= 0;
      case GT:
        return c > 0;
      default:
        return c >= 0;
    }
  }

  /** AND ({@code decisive} FALSE) or OR ({@code decisive} TRUE) over all operands. */
  private Boolean junction(List<Expr> args, Row row, boolean decisive) {
    boolean unknown = false;
    for (Expr a : args) {
      Boolean v = truth(eval(a, row));
      if (v == null) {
        unknown = true;
      } else if (v == decisive) {
        return decisive;
      }
    }
    return unknown ? null : !decisive;
  }

  private Boolean in(Expr.In in, Row row) {
    if (in.values().isEmpty()) {
      return false;
    }
    Object x = eval(in.arg(), row);
    boolean unknown = x == null;
    for (Expr v : in.values()) {
      Object y = eval(v, row);
      if (y == null) {
        unknown = true;
      } else if (x != null && RefValues.compare(x, y) == 0) {
        return true;
      }
    }
    return unknown ? null : false;
  }

  private Object call(Expr.Call c, Row row) {
    List<Object> args = new ArrayList<>();
    for (Expr a : c.args()) {
      Object v = eval(a, row);
      if (v == null) {
        return null;
      }
      args.add(v);
    }
    String s = text(args.get(0));
    switch (c.fn()) {
      case UPPER:
        return s.toUpperCase(Locale.ROOT);
      case LOWER:
        return s.toLowerCase(Locale.ROOT);
      case LENGTH:
        return RefStrings.length(s);
      case TRIM:
        return RefStrings.trim(s);
      case CONCAT:
        StringBuilder sb = new StringBuilder();
        for (Object a : args) {
          sb.append(text(a));
        }
        return sb.toString();
      default: // SUBSTRING
        return RefStrings.substring(s, integer(args.get(1)), args.size() > 2 ? integer(args.get(2)) : null);
    }
  }

  private static Boolean truth(Object v) {
    if (v == null || v instanceof Boolean) {
      return (Boolean) v;
    }
    throw new IllegalStateException("reference: expected a boolean, got " + RefValues.render(v));
  }

  private static String text(Object v) {
    if (v instanceof String s) {
      return s;
    }
    throw new IllegalStateException("reference: expected text, got " + RefValues.render(v));
  }

  private static long integer(Object v) {
    if (v instanceof Long l) {
      return l;
    }
    if (v instanceof java.math.BigDecimal || v instanceof Double) { // an integer beyond 64 bits: the nearest 64-bit one, as SQLite reads it
      java.math.BigInteger b;
      try {
        b = (v instanceof Double x ? new java.math.BigDecimal(x) : (java.math.BigDecimal) v).toBigIntegerExact();
      } catch (ArithmeticException | NumberFormatException fraction) { // a fraction, NaN or an infinity
        throw new IllegalStateException("reference: expected an integer, got " + RefValues.render(v));
      }
      if (b.bitLength() >= 64) {
        return b.signum() > 0 ? Long.MAX_VALUE : Long.MIN_VALUE;
      }
      return b.longValue();
    }
    throw new IllegalStateException("reference: expected a 64-bit integer, got " + RefValues.render(v));
  }
}
