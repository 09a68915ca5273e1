package dev.rivulet.query.sql;

import dev.rivulet.query.Expr;
import dev.rivulet.query.QueryException;
import dev.rivulet.query.ref.RefEval;
import dev.rivulet.query.ref.RefScope;
import dev.rivulet.query.ref.RefType;
import dev.rivulet.query.ref.RefTypes;
import dev.rivulet.testkit.RefValues;
import java.util.List;
import java.util.function.Function;

/**
 * Renders a scalar {@link Expr} as SQL text for one {@link SqlDialect}, so that the engine
 * computes the value the reference evaluator {@link RefEval} computes (and so the query layer
 * should; the compensations and the remaining differences are listed on each dialect).
 *
 * <p>The caller renders column references ({@code columns}); the scope gives their types. Every
 * type that chooses a cast or the arithmetic comes from the reference typing table {@link
 * RefTypes}, never from the query layer's type checker, so the SQL engines stay independent of
 * the code under test. Every composite expression is
 * parenthesized, so the result can be embedded anywhere. Literals are rendered from their values,
 * never spliced: strings are quoted with {@code ''} doubling, doubles are written in a form that
 * reads back to the same double, booleans as {@code 1}/{@code 0} (SQLite) or {@code TRUE}/{@code
 * FALSE} (H2). Ordering (NULLS FIRST/LAST) is the caller's.
 */
public final class SqlRenderer {
  private final SqlDialect dialect;
  private final RefTypes types;
  private final String clause;
  private final Function<Expr.Col, String> columns;

  SqlRenderer(SqlDialect dialect, RefScope scope, String clause, Function<Expr.Col, String> columns) {
    this.dialect = dialect;
    this.types = new RefTypes(scope);
    this.clause = clause;
    this.columns = columns;
  }

  /** Renders {@code e} (type-checked first by the reference typing table). */
  public static String render(Expr e, SqlDialect dialect, RefScope scope, String clause,
      Function<Expr.Col, String> columns) {
    return new SqlRenderer(dialect, scope, clause, columns).render(e);
  }

  public String render(Expr e) {
    types.type(e);
    StringBuilder sb = new StringBuilder();
    expr(sb, e);
    return sb.toString();
  }

  private boolean sqlite() {
    return dialect == SqlDialect.SQLITE;
  }

  private void expr(StringBuilder sb, Expr e) {
    if (e instanceof Expr.Col c) {
      sb.append(columns.apply(c));
    } else if (e instanceof Expr.Lit l) {
      typedLiteral(sb, l);
    } else if (e instanceof Expr.Compare c) {
      RefType t = RefTypes.common(types.type(c.left()), types.type(c.right()));
      sb.append('(');
      typed(sb, c.left(), t);
      sb.append(' ').append(compareSymbol(c.op())).append(' ');
      typed(sb, c.right(), t);
      sb.append(')');
    } else if (e instanceof Expr.And a) {
      junction(sb, a.args(), " AND ", true);
    } else if (e instanceof Expr.Or o) {
      junction(sb, o.args(), " OR ", false);
    } else if (e instanceof Expr.Not n) {
      sb.append("(NOT ");
      typed(sb, n.arg(), RefType.BOOL);
      sb.append(')');
    } else if (e instanceof Expr.IsNull n) {
      sb.append('(');
      expr(sb, n.arg());
      sb.append(n.negated() ? " IS NOT NULL)" : " IS NULL)");
    } else if (e instanceof Expr.In in) {
      if (in.values().isEmpty()) {
        literal(sb, Boolean.FALSE);
        return;
      }
      RefType t = types.type(in.arg());
      for (Expr v : in.values()) {
        t = RefTypes.common(t, types.type(v));
      }
      sb.append('(');
      typed(sb, in.arg(), t);
      sb.append(" IN (");
      for (int i = 0; i < in.values().size(); i++) {
        sb.append(i > 0 ? ", " : "");
        typed(sb, in.values().get(i), t);
      }
      sb.append("))");
    } else if (e instanceof Expr.Like l) {
      SqlLike.render(this, sb, l);
    } else if (e instanceof Expr.Coalesce c) {
      RefType t = types.type(c);
      if (c.args().size() == 1) {
        branch(sb, c.args().get(0), t);
      } else {
        String close = typedOpen(sb, t);
        sb.append("COALESCE(");
        list(sb, c.args(), t);
        sb.append(')').append(close);
      }
    } else if (e instanceof Expr.Case c) {
      RefType t = types.type(c);
      String close = c.whens().isEmpty() ? "" : typedOpen(sb, t);
      caseWhen(sb, c);
      sb.append(close);
    } else if (e instanceof Expr.Arith a) {
      SqlArithmetic.render(this, sb, a, types.type(a));
    } else if (e instanceof Expr.Call c) {
      call(sb, c);
    } else if (e instanceof Expr.Cast c) {
      castTo(sb, c);
    } else {
      throw new QueryException(clause + ": cannot render " + e + " as SQL");
    }
  }

  static String compareSymbol(Expr.CompareOp op) {
    switch (op) {
      case EQ:
        return "=";
      case NE:
        return "<>";
      case GT:
        return ">";
      case GTE:
        return ">=";
      case LT:
        return "<";
      default:
        return "<=";
    }
  }

  // ---- pieces shared with SqlArithmetic ----

  SqlDialect dialect() {
    return dialect;
  }

  RefType typeOf(Expr e) {
    return types.type(e);
  }

  void append(StringBuilder sb, Expr e) {
    expr(sb, e);
  }

  /**
   * Renders {@code e} as a value of SQL type {@code sqlType} ({@code REAL}, {@code DOUBLE
   * PRECISION}, {@code BIGINT}), casting unless {@code already} says it is one.
   */
  void cast(StringBuilder sb, Expr e, String sqlType, boolean already) {
    if (already) {
      expr(sb, e);
      return;
    }
    sb.append("CAST(");
    if (e instanceof Expr.Lit l && value(l) instanceof Long v) {
      sb.append(v);
    } else {
      expr(sb, e);
    }
    sb.append(" AS ").append(sqlType).append(')');
  }

  /** The canonical value of a literal. */
  static Object value(Expr.Lit l) {
    return l.value();
  }

  /**
   * A literal of its own type: an integral DOUBLE as a double ({@code 2.0}, REAL in SQLite); in H2
   * an integral or binary-fraction DECIMAL as {@code CAST(.. AS DECFLOAT)} and a typed NULL as
   * {@code CAST(NULL AS type)}.
   */
  private void typedLiteral(StringBuilder sb, Expr.Lit l) {
    Object v = l.value();
    String h2 = sqlite() ? null : h2Type(RefType.of(l.type()));
    if (v == null && h2 != null) {
      sb.append("CAST(NULL AS ").append(h2).append(')');
    } else if (RefType.of(l.type()) == RefType.DOUBLE && v instanceof Long n) {
      literal(sb, (double) n); // Double.toString: "2.0", read back as a double
    } else if (RefType.of(l.type()) == RefType.DECIMAL && h2 != null && !(v instanceof java.math.BigDecimal)) {
      sb.append("CAST(").append(RefValues.exact(v).toPlainString()).append(" AS DECFLOAT)");
    } else {
      literal(sb, v);
    }
  }

  /** The SQL type a DOUBLE operand is cast to in this dialect. */
  String doubleType() {
    return sqlite() ? "REAL" : "DOUBLE PRECISION";
  }

  /** True when {@code e} certainly renders as a double (REAL / DOUBLE PRECISION) value. */
  boolean rendersDouble(Expr e) {
    if (e instanceof Expr.Lit l) {
      return RefType.of(l.type()) == RefType.DOUBLE && l.value() != null;
    }
    if (e instanceof Expr.Arith a) {
      return types.type(a) == RefType.DOUBLE;
    }
    if (e instanceof Expr.Cast c) {
      return RefType.of(c.type()) == RefType.DOUBLE && types.type(c.arg()) != RefType.ANY;
    }
    return e instanceof Expr.Coalesce c && !sqlite() && types.type(c) == RefType.DOUBLE
        || e instanceof Expr.Case k && !sqlite() && types.type(k) == RefType.DOUBLE;
  }

  // ---- nodes ----

  /**
   * {@code CAST(x AS t)}: to INT through {@code ROUND} (halves away from zero in both engines;
   * their own casts truncate (SQLite) or round half up (H2's DOUBLE)); to DOUBLE as REAL / DOUBLE
   * PRECISION; to DECIMAL as DECFLOAT in H2 (H2 turns a double into its shortest decimal, as we
   * do) and as the value itself in SQLite (no decimal type); INT to STRING as TEXT / VARCHAR.
   */
  private void castTo(StringBuilder sb, Expr.Cast c) {
    RefType from = types.type(c.arg());
    RefType to = RefType.of(c.type());
    if (from == to) {
      expr(sb, c.arg());
      return;
    }
    if (from == RefType.ANY) {
      typed(sb, c.arg(), to);
      return;
    }
    switch (to) {
      case INT -> {
        sb.append("CAST(ROUND(");
        expr(sb, c.arg());
        sb.append(sqlite() ? ") AS INTEGER)" : ") AS BIGINT)");
      }
      case DOUBLE -> cast(sb, c.arg(), doubleType(), false);
      case DECIMAL -> {
        if (sqlite()) {
          expr(sb, c.arg());
        } else {
          cast(sb, c.arg(), "DECFLOAT", false);
        }
      }
      case STRING -> cast(sb, c.arg(), sqlite() ? "TEXT" : "VARCHAR", false);
      default -> throw new QueryException(clause + ": cannot render " + c + " as SQL");
    }
  }

  private void junction(StringBuilder sb, List<Expr> args, String op, boolean and) {
    if (args.isEmpty()) {
      literal(sb, and);
      return;
    }
    sb.append('(');
    for (int i = 0; i < args.size(); i++) {
      if (i > 0) {
        sb.append(op);
      }
      typed(sb, args.get(i), RefType.BOOL);
    }
    sb.append(')');
  }

  /** COALESCE arguments, each a {@link #branch}. */
  private void list(StringBuilder sb, List<Expr> args, RefType branchType) {
    for (int i = 0; i < args.size(); i++) {
      if (i > 0) {
        sb.append(", ");
      }
      branch(sb, args.get(i), branchType);
    }
  }

  /**
   * One COALESCE/CASE branch. H2 types a mix of BIGINT and DOUBLE PRECISION branches as DECFLOAT,
   * which would turn an inexact double into its shortest decimal; casting the non-double branches
   * keeps the result a double.
   */
  private void branch(StringBuilder sb, Expr e, RefType t) {
    boolean cast = !sqlite() && t == RefType.DOUBLE && typeOf(e) != RefType.DOUBLE;
    if (cast) {
      cast(sb, e, "DOUBLE PRECISION", false);
    } else {
      typed(sb, e, t);
    }
  }

  /**
   * Renders {@code e} where a value of type {@code t} is expected. H2 guesses the type of a bare
   * NULL from its surroundings and can guess wrong (it may take it for text and then refuse to
   * compare it with a boolean), so there a NULL literal, or an expression of NULL literals only,
   * is cast to the type.
   */
  void typed(StringBuilder sb, Expr e, RefType t) {
    String type = sqlite() || t == null ? null : h2Type(t);
    if (type != null && e instanceof Expr.Lit l && l.value() == null) {
      sb.append("CAST(NULL AS ").append(type).append(')');
    } else if (type != null && !(e instanceof Expr.Col) && types.type(e) == RefType.ANY) {
      // an expression of NULL literals only, e.g. COALESCE(NULL, NULL)
      sb.append("CAST(");
      expr(sb, e);
      sb.append(" AS ").append(type).append(')');
    } else {
      expr(sb, e);
    }
  }

  /**
   * Opens {@code CAST(} around a COALESCE or CASE in H2 and returns the closing text. H2 derives
   * their type from the branches, and when every branch folds to a constant NULL the type comes
   * out as text, so that {@code CASE ... END = b} fails ("CHARACTER VARYING and BOOLEAN are not
   * comparable"). The cast states the type we checked.
   */
  private String typedOpen(StringBuilder sb, RefType t) {
    String type = sqlite() ? null : h2Type(t);
    if (type == null) {
      return "";
    }
    sb.append("CAST(");
    return " AS " + type + ")";
  }

  private static String h2Type(RefType t) {
    return switch (t) {
      case INT -> "BIGINT";
      case DOUBLE -> "DOUBLE PRECISION";
      case DECIMAL -> "DECFLOAT";
      case STRING -> "VARCHAR";
      case BOOL -> "BOOLEAN";
      case BYTES -> "VARBINARY";
      case DATE -> "DATE";
      case TIMESTAMP -> "TIMESTAMP WITH TIME ZONE";
      case ANY -> null;
    };
  }

  private void caseWhen(StringBuilder sb, Expr.Case c) {
    RefType t = types.type(c);
    if (c.whens().isEmpty()) {
      if (c.otherwise() == null) {
        sb.append("NULL");
      } else {
        branch(sb, c.otherwise(), t);
      }
      return;
    }
    sb.append("(CASE");
    for (Expr.When w : c.whens()) {
      sb.append(" WHEN ");
      typed(sb, w.condition(), RefType.BOOL);
      sb.append(" THEN ");
      branch(sb, w.value(), t);
    }
    if (c.otherwise() != null) {
      sb.append(" ELSE ");
      branch(sb, c.otherwise(), t);
    }
    sb.append(" END)");
  }


  private void call(StringBuilder sb, Expr.Call c) {
    List<Expr> args = c.args();
    switch (c.fn()) {
      case UPPER -> function(sb, sqlite() ? "upper" : "UPPER", args.get(0));
      case LOWER -> function(sb, sqlite() ? "lower" : "LOWER", args.get(0));
      case TRIM -> function(sb, sqlite() ? "trim" : "TRIM", args.get(0));
      case LENGTH -> function(sb, sqlite() ? "length" : "CHAR_LENGTH", args.get(0));
      case CONCAT -> {
        sb.append('(');
        for (int i = 0; i < args.size(); i++) {
          if (i > 0) {
            sb.append(" || ");
          }
          typed(sb, args.get(i), RefType.STRING);
        }
        sb.append(')');
      }
      case SUBSTRING -> {
        if (sqlite() || args.size() == 2) {
          // SQLite is the reference; H2's two-argument form agrees with it for every start.
          sb.append(sqlite() ? "substr(" : "SUBSTRING(");
          for (int i = 0; i < args.size(); i++) {
            sb.append(i > 0 ? ", " : "");
            typed(sb, args.get(i), i == 0 ? RefType.STRING : RefType.INT);
          }
          sb.append(')');
        } else {
          SqlSubstring.renderH2(this, sb, args.get(0), args.get(1), args.get(2));
        }
      }
      default -> throw new QueryException(clause + ": cannot render " + c + " as SQL");
    }
  }

  private void function(StringBuilder sb, String name, Expr arg) {
    sb.append(name).append('(');
    typed(sb, arg, RefType.STRING);
    sb.append(')');
  }

  String clause() {
    return clause;
  }

  boolean sqliteDialect() {
    return sqlite();
  }

  void literal(StringBuilder sb, Object v) {
    SqlLiterals.append(sb, v, dialect, clause);
  }
}
