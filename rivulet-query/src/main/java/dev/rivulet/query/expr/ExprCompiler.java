package dev.rivulet.query.expr;

import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Values;
import dev.rivulet.query.Expr;
import dev.rivulet.query.QueryException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Compiles a scalar {@link Expr} once into a tree of small {@link Evaluator}s with every column
 * position resolved, so that evaluating a row is a few virtual calls and no name lookups.
 *
 * <p>The semantics are SQL's, on canonical values (see {@code Values}):
 *
 * <ul>
 *   <li>Three-valued logic: NULL is "unknown". AND is FALSE when any operand is FALSE, else NULL
 *       when any is NULL, else TRUE; OR is TRUE when any is TRUE, else NULL when any is NULL, else
 *       FALSE; NOT NULL is NULL. All operands are evaluated left to right until the result is
 *       decided.
 *   <li>Comparisons are NULL when either side is NULL and otherwise use {@link Values#compare}:
 *       numbers compare exactly across {@code Long}, {@code Double} and {@code BigDecimal}, strings
 *       by code point, {@code false < true}.
 *   <li>{@code x IN (v...)} is TRUE when x equals some v, otherwise NULL when x or some v is NULL,
 *       otherwise FALSE; {@code x IN ()} is FALSE even for a NULL x (SQLite's rule).
 *   <li>{@code IS [NOT] NULL} is never NULL. LIKE and ILIKE (with or without ESCAPE): see {@link
 *       LikePattern}; NULL when either side is NULL, or when a pattern computed per row ends with
 *       its escape character (a constant one is refused when compiled).
 *   <li>COALESCE returns the first non-NULL argument; CASE the value of the first arm whose
 *       condition is TRUE (a NULL condition does not match), else the ELSE value or NULL. Only
 *       the chosen branch is evaluated. A DOUBLE result holds doubles: an INT branch's values are
 *       converted ({@link Casts#toDouble}).
 *   <li>CAST: {@link Casts}.
 *   <li>Arithmetic: {@link Arithmetic}; string functions: {@link StringFunctions}.
 * </ul>
 *
 * <p>Every result is canonical. The expression is type-checked first ({@link TypeChecker}) and
 * the static types choose the arithmetic; an aggregate call is rejected.
 */
public final class ExprCompiler {
  private final TypeChecker types;

  private ExprCompiler(TypeChecker types) {
    this.types = types;
  }

  /** Compiles {@code e}; type errors name the clause "expression". */
  public static Evaluator compile(Expr e, Scope scope) {
    return compile(e, scope, "expression");
  }

  /** Compiles {@code e}; type errors name {@code clause}. */
  public static Evaluator compile(Expr e, Scope scope, String clause) {
    TypeChecker types = new TypeChecker(scope, clause);
    types.type(e);
    return new ExprCompiler(types).node(e);
  }

  /** A where-clause test: true only when {@code e} is TRUE (FALSE and NULL both reject). */
  public static Predicate<Row> predicate(Expr e, Scope scope) {
    return predicate(e, scope, "where");
  }

  /** As {@link #predicate(Expr, Scope)}; {@code e} must be BOOL, type errors name {@code clause}. */
  public static Predicate<Row> predicate(Expr e, Scope scope, String clause) {
    TypeChecker types = new TypeChecker(scope, clause);
    ColumnType t = types.type(e);
    if (t != ColumnType.BOOL && t != ColumnType.ANY) {
      throw new QueryException(clause + ": condition " + ExprText.of(e) + " is " + t + ", not BOOL");
    }
    ExprCompiler compiler = new ExprCompiler(types);
    Predicate<Row> equals = compiler.columnEquals(e);
    if (equals != null) {
      return equals;
    }
    ColumnTests tests = compiler.columnTests(e);
    if (tests != null) {
      return tests;
    }
    Evaluator ev = compiler.node(e);
    return row -> {
      Object v = ev.eval(row);
      return v != null && truth(v, e); // a non-boolean (a condition typed ANY) fails, as under AND
    };
  }

  /** {@code e} as a {@link ColumnEquals} when it is {@code column = non-NULL literal}; else null. */
  private ColumnEquals columnEquals(Expr e) {
    Expr.Col col = equalsColumn(e);
    return col == null ? null : new ColumnEquals(index(col), equalsValue((Expr.Compare) e, col));
  }

  /** The column of {@code e} when it is {@code column = non-NULL literal} (either way round); else null. */
  private static Expr.Col equalsColumn(Expr e) {
    if (!(e instanceof Expr.Compare c) || c.op() != Expr.CompareOp.EQ) {
      return null;
    }
    Expr.Col col = c.left() instanceof Expr.Col l ? l : c.right() instanceof Expr.Col r ? r : null;
    Expr other = col == c.left() ? c.right() : c.left();
    return col != null && other instanceof Expr.Lit lit && lit.value() != null ? col : null;
  }

  /** The literal's value of {@code c}, whose column {@link #equalsColumn} found. */
  private static Object equalsValue(Expr.Compare c, Expr.Col col) {
    return ((Expr.Lit) (col == c.left() ? c.right() : c.left())).value();
  }

  /**
   * {@code e} as {@link ColumnTests} when it is built only of {@code column IS [NOT] NULL} and
   * {@code column = non-NULL literal} under AND and OR; else null.
   */
  private ColumnTests columnTests(Expr e) {
    if (e instanceof Expr.IsNull n) {
      return n.arg() instanceof Expr.Col c ? ColumnTests.isNull(index(c), n.negated()) : null;
    }
    if (e instanceof Expr.Compare c) {
      Expr.Col col = equalsColumn(c);
      return col == null ? null : ColumnTests.equalTo(index(col), equalsValue(c, col));
    }
    List<Expr> args = e instanceof Expr.And a ? a.args() : e instanceof Expr.Or o ? o.args() : null;
    if (args == null || args.isEmpty()) {
      return null;
    }
    ColumnTests[] out = new ColumnTests[args.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = columnTests(args.get(i));
      if (out[i] == null) {
        return null;
      }
    }
    return ColumnTests.of(e instanceof Expr.And, out);
  }

  private int index(Expr.Col c) {
    return types.scope().resolve(c, types.clause()).index();
  }

  private Evaluator node(Expr e) {
    if (e instanceof Expr.Col c) {
      return new Evaluator.ColumnRef(index(c));
    }
    if (e instanceof Expr.Lit l) {
      Object v = l.value();
      return row -> v;
    }
    if (e instanceof Expr.Compare c) {
      return compare(c.op(), node(c.left()), node(c.right()));
    }
    if (e instanceof Expr.And a) {
      return and(nodes(a.args()), e);
    }
    if (e instanceof Expr.Or o) {
      return or(nodes(o.args()), e);
    }
    if (e instanceof Expr.Not n) {
      Evaluator arg = node(n.arg());
      return row -> {
        Object v = arg.eval(row);
        return v == null ? null : !truth(v, e);
      };
    }
    if (e instanceof Expr.IsNull n) {
      Evaluator arg = node(n.arg());
      return n.negated() ? row -> arg.eval(row) != null : row -> arg.eval(row) == null;
    }
    if (e instanceof Expr.In in) {
      return in(in);
    }
    if (e instanceof Expr.Like l) {
      return like(l);
    }
    if (e instanceof Expr.Coalesce c) {
      Evaluator[] args = branches(c.args(), types.type(c));
      return row -> {
        for (Evaluator a : args) {
          Object v = a.eval(row);
          if (v != null) {
            return v;
          }
        }
        return null;
      };
    }
    if (e instanceof Expr.Case c) {
      return caseWhen(c);
    }
    if (e instanceof Expr.Arith a) {
      return Arithmetic.compile(a.op(), types.type(a), node(a.left()), node(a.right()), ExprText.of(a), types.clause());
    }
    if (e instanceof Expr.Cast c) {
      return Casts.compile(node(c.arg()), types.type(c.arg()), c.type(), ExprText.of(c), types.clause());
    }
    if (e instanceof Expr.Call c) {
      List<Evaluator> args = new ArrayList<>();
      for (Expr x : c.args()) {
        args.add(node(x));
      }
      return StringFunctions.compile(c.fn(), args, ExprText.of(c), types.clause());
    }
    // Aggregates were rejected by the type check; nothing else is left.
    throw new QueryException(types.clause() + ": cannot compile " + ExprText.of(e));
  }

  /**
   * The branches of a COALESCE or CASE of type {@code t}: under DOUBLE, a branch of another type
   * (an INT, or ANY) has its numbers made doubles (SQL converts every branch to the result type;
   * {@link Casts#toDouble}), so a DOUBLE result only ever holds double values.
   */
  private Evaluator[] branches(List<Expr> es, ColumnType t) {
    Evaluator[] out = nodes(es);
    for (int i = 0; i < out.length; i++) {
      out[i] = branch(out[i], es.get(i), t);
    }
    return out;
  }

  private Evaluator branch(Evaluator ev, Expr e, ColumnType t) {
    if (t != ColumnType.DOUBLE || e == null || types.type(e) == ColumnType.DOUBLE) {
      return ev;
    }
    return row -> Casts.toDouble(ev.eval(row));
  }

  private Evaluator[] nodes(List<Expr> es) {
    Evaluator[] out = new Evaluator[es.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = node(es.get(i));
    }
    return out;
  }

  private static Evaluator compare(Expr.CompareOp op, Evaluator l, Evaluator r) {
    // Canonical values are equal exactly when Values.compare says 0, so = and <> use equals.
    return switch (op) {
      case EQ -> row -> {
        Object a = l.eval(row);
        Object b = a == null ? null : r.eval(row);
        return b == null ? null : a.equals(b);
      };
      case NE -> row -> {
        Object a = l.eval(row);
        Object b = a == null ? null : r.eval(row);
        return b == null ? null : !a.equals(b);
      };
      case LT -> row -> {
        Object a = l.eval(row);
        Object b = a == null ? null : r.eval(row);
        return b == null ? null : Values.compare(a, b) < 0;
      };
      case LTE -> row -> {
        Object a = l.eval(row);
        Object b = a == null ? null : r.eval(row);
        return b == null ? null : Values.compare(a, b) <= 0;
      };
      case GT -> row -> {
        Object a = l.eval(row);
        Object b = a == null ? null : r.eval(row);
        return b == null ? null : Values.compare(a, b) > 0;
      };
      case GTE -> row -> {
        Object a = l.eval(row);
        Object b = a == null ? null : r.eval(row);
        return b == null ? null : Values.compare(a, b) >= 0;
      };
    };
  }

  private static Evaluator and(Evaluator[] args, Expr e) {
    return row -> {
      boolean unknown = false;
      for (Evaluator a : args) {
        Object v = a.eval(row);
        if (v == null) {
          unknown = true;
        } else if (!truth(v, e)) {
          return Boolean.FALSE;
        }
      }
      return unknown ? null : Boolean.TRUE;
    };
  }

  private static Evaluator or(Evaluator[] args, Expr e) {
    return row -> {
      boolean unknown = false;
      for (Evaluator a : args) {
        Object v = a.eval(row);
        if (v == null) {
          unknown = true;
        } else if (truth(v, e)) {
          return Boolean.TRUE;
        }
      }
      return unknown ? null : Boolean.FALSE;
    };
  }

  private Evaluator in(Expr.In in) {
    Evaluator arg = node(in.arg());
    if (in.values().isEmpty()) {
      return row -> Boolean.FALSE;
    }
    boolean constant = true;
    for (Expr v : in.values()) {
      constant &= v instanceof Expr.Lit;
    }
    if (constant) {
      // Canonical values are equal exactly when equals says so, so a hash set decides membership.
      Set<Object> set = new HashSet<>();
      boolean hasNull = false;
      for (Expr v : in.values()) {
        Object c = Values.canonical(((Expr.Lit) v).value());
        if (c == null) {
          hasNull = true;
        } else {
          set.add(c);
        }
      }
      Boolean miss = hasNull ? null : Boolean.FALSE;
      return row -> {
        Object a = arg.eval(row);
        if (a == null) {
          return null;
        }
        return set.contains(a) ? Boolean.TRUE : miss;
      };
    }
    Evaluator[] values = nodes(in.values());
    return row -> {
      Object a = arg.eval(row);
      if (a == null) {
        return null;
      }
      boolean unknown = false;
      for (Evaluator v : values) {
        Object b = v.eval(row);
        if (b == null) {
          unknown = true;
        } else if (a.equals(b)) {
          return Boolean.TRUE;
        }
      }
      return unknown ? null : Boolean.FALSE;
    };
  }

  /**
   * LIKE / ILIKE. A constant pattern is compiled once; one that ends with its escape character is
   * an error now. A pattern computed per row that ends with its escape character makes the result
   * NULL (H2's rule; the pattern is malformed, and one bad row must not stop a live pipeline).
   */
  private Evaluator like(Expr.Like l) {
    Evaluator arg = node(l.arg());
    String text = ExprText.of(l);
    String clause = types.clause();
    boolean ci = l.caseInsensitive();
    int escape = l.escape() == null ? LikePattern.NO_ESCAPE : l.escape().codePointAt(0);
    if (l.pattern() instanceof Expr.Lit lit) {
      Object pv = lit.value();
      if (pv == null) {
        return row -> null;
      }
      String ps = StringFunctions.string(pv, text, clause);
      LikePattern p;
      try {
        p = LikePattern.compile(ps, ci, escape);
      } catch (IllegalArgumentException malformed) {
        throw new QueryException(clause + ": pattern " + Values.render(ps) + " of " + text + " "
            + malformed.getMessage() + " " + Values.render(l.escape()));
      }
      return row -> {
        Object v = arg.eval(row);
        return v == null ? null : p.matches(StringFunctions.string(v, text, clause));
      };
    }
    Evaluator pattern = node(l.pattern());
    return row -> {
      Object v = arg.eval(row);
      Object p = v == null ? null : pattern.eval(row);
      if (p == null) {
        return null;
      }
      String ps = StringFunctions.string(p, text, clause);
      LikePattern compiled;
      try {
        compiled = LikePattern.compile(ps, ci, escape);
      } catch (IllegalArgumentException malformed) {
        return null;
      }
      return compiled.matches(StringFunctions.string(v, text, clause));
    };
  }

  private Evaluator caseWhen(Expr.Case c) {
    int n = c.whens().size();
    Evaluator[] conditions = new Evaluator[n];
    Expr[] conditionExprs = new Expr[n]; // named by a non-boolean's error
    Evaluator[] values = new Evaluator[n];
    ColumnType t = types.type(c);
    for (int i = 0; i < n; i++) {
      conditionExprs[i] = c.whens().get(i).condition();
      conditions[i] = node(conditionExprs[i]);
      values[i] = branch(node(c.whens().get(i).value()), c.whens().get(i).value(), t);
    }
    Evaluator otherwise = c.otherwise() == null ? row -> null : branch(node(c.otherwise()), c.otherwise(), t);
    return row -> {
      for (int i = 0; i < conditions.length; i++) {
        Object v = conditions[i].eval(row);
        if (v != null && truth(v, conditionExprs[i])) {
          return values[i].eval(row);
        }
      }
      return otherwise.eval(row);
    };
  }

  /** {@code v} as a boolean; {@code e}, the expression whose operand it is, is rendered only for the error. */
  private static boolean truth(Object v, Expr e) {
    if (v instanceof Boolean b) {
      return b;
    }
    throw new QueryException(ExprText.of(e) + ": expected a boolean, got " + Values.render(v));
  }
}
