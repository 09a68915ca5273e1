package dev.rivulet.query;

import dev.rivulet.engine.Bytes;
import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.Values;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Renders a scalar {@link Expr} as SQL text for one {@link SqlDialect}, so that the engine
 * computes the value {@link ExprCompiler} computes (the compensations and the remaining
 * differences are listed on each dialect).
 *
 * <p>The caller renders column references ({@code columns}); the scope gives their types, which
 * choose the arithmetic as they do for the evaluator. Every composite expression is
 * parenthesized, so the result can be embedded anywhere. Literals are rendered from their values,
 * never spliced: strings are quoted with {@code ''} doubling, doubles are written in a form that
 * reads back to the same double, booleans as {@code 1}/{@code 0} (SQLite) or {@code TRUE}/{@code
 * FALSE} (H2). Ordering (NULLS FIRST/LAST) is the caller's.
 */
final class SqlRenderer {
  private final SqlDialect dialect;
  private final TypeChecker types;
  private final Function<Expr.Col, String> columns;

  SqlRenderer(SqlDialect dialect, Scope scope, String clause, Function<Expr.Col, String> columns) {
    this.dialect = dialect;
    this.types = new TypeChecker(scope, clause);
    this.columns = columns;
  }

  /** Renders {@code e} (type-checked first; type errors name {@code clause}). */
  static String render(Expr e, SqlDialect dialect, Scope scope, String clause, Function<Expr.Col, String> columns) {
    return new SqlRenderer(dialect, scope, clause, columns).render(e);
  }

  String render(Expr e) {
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
      literal(sb, Values.canonical(l.value()));
    } else if (e instanceof Expr.Compare c) {
      binary(sb, c.left(), " " + ExprText.compareSymbol(c.op()) + " ", c.right());
    } else if (e instanceof Expr.And a) {
      junction(sb, a.args(), " AND ", true);
    } else if (e instanceof Expr.Or o) {
      junction(sb, o.args(), " OR ", false);
    } else if (e instanceof Expr.Not n) {
      sb.append("(NOT ");
      expr(sb, n.arg());
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
      sb.append('(');
      expr(sb, in.arg());
      sb.append(" IN (");
      list(sb, in.values(), null);
      sb.append("))");
    } else if (e instanceof Expr.Like l) {
      like(sb, l);
    } else if (e instanceof Expr.Coalesce c) {
      ColumnType t = types.type(c);
      if (c.args().size() == 1) {
        branch(sb, c.args().get(0), t);
      } else {
        sb.append("COALESCE(");
        list(sb, c.args(), t);
        sb.append(')');
      }
    } else if (e instanceof Expr.Case c) {
      caseWhen(sb, c);
    } else if (e instanceof Expr.Arith a) {
      SqlArithmetic.render(this, sb, a, types.type(a));
    } else if (e instanceof Expr.Call c) {
      call(sb, c);
    } else {
      throw new QueryException(types.clause() + ": cannot render " + ExprText.of(e) + " as SQL");
    }
  }

  // ---- pieces shared with SqlArithmetic ----

  SqlDialect dialect() {
    return dialect;
  }

  ColumnType typeOf(Expr e) {
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
    if (e instanceof Expr.Lit l && l.value() instanceof Long v) {
      sb.append(v);
    } else {
      expr(sb, e);
    }
    sb.append(" AS ").append(sqlType).append(')');
  }

  /** The SQL type a DOUBLE operand is cast to in this dialect. */
  String doubleType() {
    return sqlite() ? "REAL" : "DOUBLE PRECISION";
  }

  /** True when {@code e} certainly renders as a double (REAL / DOUBLE PRECISION) value. */
  boolean rendersDouble(Expr e) {
    if (e instanceof Expr.Lit l) {
      return l.value() instanceof Double;
    }
    if (e instanceof Expr.Arith a) {
      return types.type(a) == ColumnType.DOUBLE;
    }
    return e instanceof Expr.Coalesce c && !sqlite() && types.type(c) == ColumnType.DOUBLE
        || e instanceof Expr.Case k && !sqlite() && types.type(k) == ColumnType.DOUBLE;
  }

  // ---- nodes ----

  private void binary(StringBuilder sb, Expr l, String op, Expr r) {
    sb.append('(');
    expr(sb, l);
    sb.append(op);
    expr(sb, r);
    sb.append(')');
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
      expr(sb, args.get(i));
    }
    sb.append(')');
  }

  /** Comma-separated; with a DOUBLE {@code branchType} in H2, non-double branches are cast. */
  private void list(StringBuilder sb, List<Expr> args, ColumnType branchType) {
    for (int i = 0; i < args.size(); i++) {
      if (i > 0) {
        sb.append(", ");
      }
      if (branchType == null) {
        expr(sb, args.get(i));
      } else {
        branch(sb, args.get(i), branchType);
      }
    }
  }

  /**
   * One COALESCE/CASE branch. H2 types a mix of BIGINT and DOUBLE PRECISION branches as DECFLOAT,
   * which would turn an inexact double into its shortest decimal; casting the non-double branches
   * keeps the result a double.
   */
  private void branch(StringBuilder sb, Expr e, ColumnType t) {
    boolean cast = !sqlite() && t == ColumnType.DOUBLE && typeOf(e) != ColumnType.DOUBLE;
    cast(sb, e, "DOUBLE PRECISION", !cast);
  }

  private void caseWhen(StringBuilder sb, Expr.Case c) {
    ColumnType t = types.type(c);
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
      expr(sb, w.condition());
      sb.append(" THEN ");
      branch(sb, w.value(), t);
    }
    if (c.otherwise() != null) {
      sb.append(" ELSE ");
      branch(sb, c.otherwise(), t);
    }
    sb.append(" END)");
  }

  private void like(StringBuilder sb, Expr.Like l) {
    boolean ci = l.caseInsensitive();
    sb.append('(');
    if (ci) {
      sb.append(sqlite() ? "lower(" : "LOWER(");
      expr(sb, l.arg());
      sb.append(')');
    } else {
      expr(sb, l.arg());
    }
    if (sqlite()) {
      sb.append(" GLOB ");
      if (l.pattern() instanceof Expr.Lit lit && lit.value() instanceof String p) {
        literal(sb, globPattern(ci ? p.toLowerCase(Locale.ROOT) : p));
      } else {
        sb.append("replace(replace(replace(replace(replace(");
        if (ci) {
          sb.append("lower(");
          expr(sb, l.pattern());
          sb.append(')');
        } else {
          expr(sb, l.pattern());
        }
        sb.append(", '[', '[[]'), '*', '[*]'), '?', '[?]'), '%', '*'), '_', '?')");
      }
    } else {
      sb.append(" LIKE ");
      if (ci && l.pattern() instanceof Expr.Lit lit && lit.value() instanceof String p) {
        literal(sb, p.toLowerCase(Locale.ROOT));
      } else if (ci) {
        sb.append("LOWER(");
        expr(sb, l.pattern());
        sb.append(')');
      } else {
        expr(sb, l.pattern());
      }
      sb.append(" ESCAPE ''");
    }
    sb.append(')');
  }

  /** A LIKE pattern as a SQLite GLOB pattern: {@code % -> *}, {@code _ -> ?}, the rest literal. */
  static String globPattern(String like) {
    StringBuilder g = new StringBuilder(like.length() + 8);
    for (int i = 0; i < like.length(); i++) {
      char ch = like.charAt(i);
      switch (ch) {
        case '%' -> g.append('*');
        case '_' -> g.append('?');
        case '*', '?', '[' -> g.append('[').append(ch).append(']');
        default -> g.append(ch);
      }
    }
    return g.toString();
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
          expr(sb, args.get(i));
        }
        sb.append(')');
      }
      case SUBSTRING -> {
        if (sqlite() || args.size() == 2) {
          // SQLite is the reference; H2's two-argument form agrees with it for every start.
          sb.append(sqlite() ? "substr(" : "SUBSTRING(");
          list(sb, args, null);
          sb.append(')');
        } else {
          SqlSubstring.renderH2(this, sb, args.get(0), args.get(1), args.get(2));
        }
      }
      default -> throw new QueryException(types.clause() + ": cannot render " + ExprText.of(c) + " as SQL");
    }
  }

  private void function(StringBuilder sb, String name, Expr arg) {
    sb.append(name).append('(');
    expr(sb, arg);
    sb.append(')');
  }

  // ---- literals ----

  /** Renders canonical value {@code v} as a literal of this dialect. */
  void literal(StringBuilder sb, Object v) {
    if (v == null) {
      sb.append("NULL");
    } else if (v instanceof Boolean b) {
      sb.append(sqlite() ? (b ? "1" : "0") : (b ? "TRUE" : "FALSE"));
    } else if (v instanceof Long l) {
      if (sqlite()) {
        sb.append(l < 0 ? "(" + l + ")" : Long.toString(l));
      } else {
        sb.append("CAST(").append(l).append(" AS BIGINT)");
      }
    } else if (v instanceof Double d) {
      doubleLiteral(sb, d);
    } else if (v instanceof BigDecimal bd) {
      String s = bd.toPlainString();
      sb.append(bd.signum() < 0 ? "(" + s + ")" : s);
    } else if (v instanceof String s) {
      stringLiteral(sb, s);
    } else if (v instanceof Bytes b) {
      sb.append("X'");
      for (byte x : b.toArray()) {
        sb.append(Character.forDigit((x >> 4) & 0xf, 16)).append(Character.forDigit(x & 0xf, 16));
      }
      sb.append('\'');
    } else if (v instanceof LocalDate d && !sqlite()) {
      sb.append("DATE '").append(d).append('\'');
    } else if (v instanceof Instant t && !sqlite()) {
      sb.append("TIMESTAMP WITH TIME ZONE '").append(t).append('\'');
    } else {
      throw new QueryException(types.clause() + ": " + dialect + " cannot hold the literal " + Values.render(v)
          + " (" + ColumnType.of(v) + ")");
    }
  }

  private void doubleLiteral(StringBuilder sb, double d) {
    if (Double.isNaN(d)) {
      if (sqlite()) {
        throw new QueryException(types.clause() + ": SQLite has no NaN; the literal NaN cannot be rendered");
      }
      sb.append("CAST('NaN' AS DOUBLE PRECISION)");
      return;
    }
    if (Double.isInfinite(d)) {
      sb.append(sqlite() ? (d > 0 ? "9e999" : "(-9e999)")
          : d > 0 ? "CAST('Infinity' AS DOUBLE PRECISION)" : "CAST('-Infinity' AS DOUBLE PRECISION)");
      return;
    }
    // Double.toString is the shortest decimal that reads back as d; both engines read it exactly
    // (H2 reads it as an exact decimal and rounds once to double).
    String s = Double.toString(d);
    if (sqlite()) {
      sb.append(d < 0 ? "(" + s + ")" : s);
    } else {
      sb.append("CAST(").append(s).append(" AS DOUBLE PRECISION)");
    }
  }

  private void stringLiteral(StringBuilder sb, String s) {
    if (sqlite()) {
      for (int i = 0; i < s.length(); i++) {
        char ch = s.charAt(i);
        if (Character.isHighSurrogate(ch) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
          i++;
        } else if (Character.isSurrogate(ch)) {
          throw new QueryException(types.clause() + ": text " + Values.render(s)
              + " has an unpaired surrogate and cannot be sent to SQLite");
        }
      }
      if (s.indexOf('\0') >= 0) {
        // SQL text cannot carry U+0000; build the value with char(0).
        sb.append('(');
        String[] parts = s.split("\0", -1);
        for (int i = 0; i < parts.length; i++) {
          if (i > 0) {
            sb.append(" || char(0) || ");
          }
          quote(sb, parts[i]);
        }
        sb.append(')');
        return;
      }
    }
    quote(sb, s);
  }

  /** Appends {@code s} as a SQL string literal, doubling single quotes. */
  static void quote(StringBuilder sb, String s) {
    sb.append('\'');
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      if (ch == '\'') {
        sb.append('\'');
      }
      sb.append(ch);
    }
    sb.append('\'');
  }
}
