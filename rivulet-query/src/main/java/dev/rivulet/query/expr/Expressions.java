package dev.rivulet.query.expr;

import dev.rivulet.query.Expr;
import dev.rivulet.query.QueryException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.UnaryOperator;

/** Structural helpers over {@link Expr} trees: conjuncts, referenced aliases, rewriting. */
public final class Expressions {
  private Expressions() {}

  /** The conjuncts of a predicate (nested ANDs flattened). */
  public static List<Expr> conjuncts(Expr e) {
    List<Expr> out = new ArrayList<>();
    // a comparison tested first: a filter of one comparison does not load And
    if (!(e instanceof Expr.Compare) && e instanceof Expr.And a) {
      for (Expr x : a.args()) {
        out.addAll(conjuncts(x));
      }
    } else {
      out.add(e);
    }
    return out;
  }

  public static Expr and(List<Expr> conjuncts) {
    return conjuncts.size() == 1 ? conjuncts.get(0) : new Expr.And(conjuncts);
  }

  /** The aliases a scalar expression reads. */
  public static Set<String> aliases(Expr e) {
    Set<String> out = new LinkedHashSet<>();
    aliases(e, out);
    return out;
  }

  private static void aliases(Expr e, Set<String> out) {
    if (e instanceof Expr.Col c) {
      out.add(c.alias());
    } else if (e != null) {
      for (Expr x : children(e)) {
        aliases(x, out);
      }
    }
  }

  /**
   * Whether {@code a} and {@code b} are equal expressions ({@code a.equals(b)}). Columns, outputs,
   * literals, aggregates and nodes of different kinds are compared here; only other nodes of one
   * kind go to the records' {@code equals}, whose first call in a process bootstraps {@code
   * ObjectMethods} (dozens of generated classes), a cost the common compile paths avoid this way.
   */
  public static boolean same(Expr a, Expr b) {
    if (a == b) {
      return true;
    }
    if (a == null || b == null || a.getClass() != b.getClass()) {
      return false;
    }
    if (a instanceof Expr.Col x) {
      Expr.Col y = (Expr.Col) b;
      return x.alias().equals(y.alias()) && x.column().equals(y.column());
    }
    if (a instanceof Expr.Lit x) {
      Expr.Lit y = (Expr.Lit) b;
      return x.type() == y.type() && Objects.equals(x.value(), y.value());
    }
    if (a instanceof Expr.Output x) {
      Expr.Output y = (Expr.Output) b;
      return x.position() == y.position() && Objects.equals(x.name(), y.name());
    }
    if (a instanceof Expr.Agg x) {
      Expr.Agg y = (Expr.Agg) b;
      return x.fn() == y.fn() && x.distinct() == y.distinct() && same(x.arg(), y.arg());
    }
    return a.equals(b);
  }

  /** The first index of an expression {@link #same} as {@code e} in {@code list}, or -1. */
  public static int indexOf(List<? extends Expr> list, Expr e) {
    for (int i = 0; i < list.size(); i++) {
      if (same(list.get(i), e)) {
        return i;
      }
    }
    return -1;
  }

  /** The aggregate calls in {@code e} (not looking inside aggregates), in order. */
  public static void aggregates(Expr e, List<Expr.Agg> out) {
    if (e == null || leaf(e)) {
      return;
    }
    List<Expr> operands = new ArrayList<>();
    if (operands(e, operands)) {
      Expr.Agg a = (Expr.Agg) e;
      if (indexOf(out, a) < 0) {
        out.add(a);
      }
      return;
    }
    for (Expr c : operands) {
      aggregates(c, out);
    }
  }

  public static boolean hasAggregate(Expr e) {
    List<Expr.Agg> found = new ArrayList<>();
    aggregates(e, found);
    return !found.isEmpty();
  }

  /** Fails naming {@code clause} when {@code e} holds an aggregate. */
  public static void rejectAggregates(Expr e, String clause) {
    List<Expr.Agg> found = new ArrayList<>();
    aggregates(e, found);
    if (!found.isEmpty()) {
      throw new QueryException(clause + ": aggregate " + found.get(0) + " is not allowed in " + clause);
    }
  }

  /** The direct operands of {@code e} (none for a column, literal, output or include), in order. */
  public static List<Expr> children(Expr e) {
    if (leaf(e)) {
      return List.of();
    }
    List<Expr> out = new ArrayList<>();
    operands(e, out);
    return out;
  }

  /**
   * Adds the direct operands of {@code e}, which is not a {@link #leaf}, to {@code out}; returns
   * whether {@code e} is an aggregate call. The aggregate, output and include classes come last in
   * the chain of tests, so a query that uses none of them does not load them.
   */
  private static boolean operands(Expr e, List<Expr> out) {
    if (e instanceof Expr.Compare c) {
      out.add(c.left());
      out.add(c.right());
    } else if (e instanceof Expr.And a) {
      out.addAll(a.args());
    } else if (e instanceof Expr.Or o) {
      out.addAll(o.args());
    } else if (e instanceof Expr.Not n) {
      out.add(n.arg());
    } else if (e instanceof Expr.IsNull n) {
      out.add(n.arg());
    } else if (e instanceof Expr.In in) {
      out.add(in.arg());
      out.addAll(in.values());
    } else if (e instanceof Expr.Like l) {
      out.add(l.arg());
      out.add(l.pattern());
    } else if (e instanceof Expr.Coalesce c) {
      out.addAll(c.args());
    } else if (e instanceof Expr.Case c) {
      for (Expr.When w : c.whens()) {
        out.add(w.condition());
        out.add(w.value());
      }
      if (c.otherwise() != null) {
        out.add(c.otherwise());
      }
    } else if (e instanceof Expr.Arith a) {
      out.add(a.left());
      out.add(a.right());
    } else if (e instanceof Expr.Call c) {
      out.addAll(c.args());
    } else if (e instanceof Expr.Cast c) {
      out.add(c.arg());
    } else if (e instanceof Expr.Agg a) {
      if (a.arg() != null) {
        out.add(a.arg());
      }
      return true;
    }
    return false;
  }

  /**
   * Rebuilds {@code e} top-down: {@code f} is tried on each node first; when it
   * returns a different node that node replaces the subtree, otherwise the children are
   * rewritten.
   */
  public static Expr rewrite(Expr e, UnaryOperator<Expr> f) {
    if (e == null) {
      return null;
    }
    Expr r = f.apply(e);
    if (r != e || leaf(e)) {
      return r;
    }
    if (e instanceof Expr.Compare c) {
      return new Expr.Compare(c.op(), rewrite(c.left(), f), rewrite(c.right(), f));
    } else if (e instanceof Expr.And a) {
      return new Expr.And(all(a.args(), f));
    } else if (e instanceof Expr.Or o) {
      return new Expr.Or(all(o.args(), f));
    } else if (e instanceof Expr.Not n) {
      return new Expr.Not(rewrite(n.arg(), f));
    } else if (e instanceof Expr.IsNull n) {
      return new Expr.IsNull(rewrite(n.arg(), f), n.negated());
    } else if (e instanceof Expr.In in) {
      return new Expr.In(rewrite(in.arg(), f), all(in.values(), f));
    } else if (e instanceof Expr.Like l) {
      return new Expr.Like(rewrite(l.arg(), f), rewrite(l.pattern(), f), l.caseInsensitive(), l.escape());
    } else if (e instanceof Expr.Coalesce c) {
      return new Expr.Coalesce(all(c.args(), f));
    } else if (e instanceof Expr.Case c) {
      List<Expr.When> ws = new ArrayList<>();
      for (Expr.When w : c.whens()) {
        ws.add(new Expr.When(rewrite(w.condition(), f), rewrite(w.value(), f)));
      }
      return new Expr.Case(ws, rewrite(c.otherwise(), f));
    } else if (e instanceof Expr.Arith a) {
      return new Expr.Arith(a.op(), rewrite(a.left(), f), rewrite(a.right(), f));
    } else if (e instanceof Expr.Call c) {
      return new Expr.Call(c.fn(), all(c.args(), f));
    } else if (e instanceof Expr.Cast c) {
      return new Expr.Cast(rewrite(c.arg(), f), c.type());
    } else if (e instanceof Expr.Agg a) {
      return new Expr.Agg(a.fn(), rewrite(a.arg(), f), a.distinct());
    }
    return e;
  }

  /**
   * Whether {@code e} is a column or a literal (no children). Tested before the chains of {@code
   * instanceof}: each test against a node class not yet loaded loads it, so leaves (the commonest
   * nodes) would otherwise load every expression class on a query's first compile. An output or an
   * include, which have no children either, fall through the chains to their end instead: a query
   * that has none does not load their classes.
   */
  public static boolean leaf(Expr e) {
    return e instanceof Expr.Col || e instanceof Expr.Lit;
  }

  private static List<Expr> all(List<Expr> es, UnaryOperator<Expr> f) {
    List<Expr> out = new ArrayList<>(es.size());
    for (Expr x : es) {
      out.add(rewrite(x, f));
    }
    return out;
  }
}
