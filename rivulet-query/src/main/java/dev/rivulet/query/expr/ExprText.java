package dev.rivulet.query.expr;

import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.Values;
import dev.rivulet.query.Expr;
import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;

/**
 * A short, SQL-like rendering of an {@link Expr} for error messages: {@code i.title}, {@code 5},
 * {@code 5.0} (a DOUBLE literal),
 * {@code i.price * 2}, {@code upper(i.title)}, {@code i.status IN ('open', 'closed')}.
 *
 * <p>For people, not for engines: it is not escaped for any SQL dialect (the SQL oracles' {@code
 * SqlRenderer}, in the test sources, does that) and a nested operator is wrapped in parentheses
 * without regard to precedence.
 */
public final class ExprText {
  private ExprText() {}

  public static String of(Expr e) {
    StringBuilder sb = new StringBuilder();
    append(sb, e, false);
    return sb.toString();
  }

  private static void append(StringBuilder sb, Expr e, boolean nested) {
    if (e == null) {
      sb.append("NULL");
      return;
    }
    if (e instanceof Expr.Col c) {
      sb.append(c.alias()).append('.').append(c.column());
      return;
    }
    if (e instanceof Expr.Lit l) {
      literal(sb, l);
      return;
    }
    if (e instanceof Expr.Call c) {
      sb.append(c.fn().name().toLowerCase(Locale.ROOT));
      list(sb, c.args());
      return;
    }
    if (e instanceof Expr.Output o) {
      sb.append(o.name() != null ? "output(\"" + o.name() + "\")" : "output(" + o.position() + ")");
      return;
    }
    if (e instanceof Expr.Cast c) {
      sb.append("CAST(");
      append(sb, c.arg(), false);
      sb.append(" AS ").append(c.type()).append(')');
      return;
    }
    if (e instanceof Expr.Coalesce c) {
      sb.append("coalesce");
      list(sb, c.args());
      return;
    }
    if (e instanceof Expr.Agg a) {
      sb.append(a.fn().name().toLowerCase(Locale.ROOT)).append('(');
      if (a.distinct()) {
        sb.append("DISTINCT ");
      }
      if (a.arg() == null) {
        sb.append('*');
      } else {
        append(sb, a.arg(), false);
      }
      sb.append(')');
      return;
    }
    if (nested) {
      sb.append('(');
    }
    if (e instanceof Expr.Compare c) {
      append(sb, c.left(), true);
      sb.append(' ').append(compareSymbol(c.op())).append(' ');
      append(sb, c.right(), true);
    } else if (e instanceof Expr.Arith a) {
      append(sb, a.left(), true);
      sb.append(' ').append(arithSymbol(a.op())).append(' ');
      append(sb, a.right(), true);
    } else if (e instanceof Expr.And a) {
      join(sb, a.args(), " AND ");
    } else if (e instanceof Expr.Or o) {
      join(sb, o.args(), " OR ");
    } else if (e instanceof Expr.Not n) {
      sb.append("NOT ");
      append(sb, n.arg(), true);
    } else if (e instanceof Expr.IsNull n) {
      append(sb, n.arg(), true);
      sb.append(n.negated() ? " IS NOT NULL" : " IS NULL");
    } else if (e instanceof Expr.In in) {
      append(sb, in.arg(), true);
      sb.append(" IN ");
      list(sb, in.values());
    } else if (e instanceof Expr.Like l) {
      append(sb, l.arg(), true);
      sb.append(l.caseInsensitive() ? " ILIKE " : " LIKE ");
      append(sb, l.pattern(), true);
      if (l.escape() != null) {
        sb.append(" ESCAPE ").append(Values.render(l.escape()));
      }
    } else if (e instanceof Expr.Case c) {
      sb.append("CASE");
      for (Expr.When w : c.whens()) {
        sb.append(" WHEN ");
        append(sb, w.condition(), false);
        sb.append(" THEN ");
        append(sb, w.value(), false);
      }
      if (c.otherwise() != null) {
        sb.append(" ELSE ");
        append(sb, c.otherwise(), false);
      }
      sb.append(" END");
    }
    if (nested) {
      sb.append(')');
    }
  }

  /** A literal as its type shows it: {@code 2}, {@code 2.0} (DOUBLE), {@code CAST(NULL AS INT)}. */
  private static void literal(StringBuilder sb, Expr.Lit l) {
    Object v = l.value();
    if (v == null) {
      sb.append(l.type() == ColumnType.ANY ? "NULL" : "CAST(NULL AS " + l.type() + ")");
    } else if (l.type() == ColumnType.DOUBLE && v instanceof Long n) {
      sb.append((double) n);
    } else if (l.type() == ColumnType.DECIMAL && !(v instanceof BigDecimal)) {
      sb.append("CAST(").append(Values.render(v)).append(" AS DECIMAL)"); // not to be read as INT or DOUBLE
    } else if (l.type() == ColumnType.DATE || l.type() == ColumnType.TIMESTAMP) {
      sb.append(l.type()).append(" '").append(v).append('\'');
    } else {
      sb.append(Values.render(v));
    }
  }

  private static void list(StringBuilder sb, List<Expr> args) {
    sb.append('(');
    join(sb, args, ", ");
    sb.append(')');
  }

  private static void join(StringBuilder sb, List<Expr> args, String sep) {
    for (int i = 0; i < args.size(); i++) {
      if (i > 0) {
        sb.append(sep);
      }
      append(sb, args.get(i), !sep.equals(", "));
    }
  }

  public static String compareSymbol(Expr.CompareOp op) {
    return switch (op) {
      case EQ -> "=";
      case NE -> "<>";
      case GT -> ">";
      case GTE -> ">=";
      case LT -> "<";
      case LTE -> "<=";
    };
  }

  public static String arithSymbol(Expr.ArithOp op) {
    return switch (op) {
      case ADD -> "+";
      case SUB -> "-";
      case MUL -> "*";
      case DIV -> "/";
    };
  }
}
