package dev.rivulet.query.sql;

import dev.rivulet.query.Expr;
import dev.rivulet.query.ref.RefType;

/**
 * Renders {@code + - * /} for {@link SqlRenderer} so that the engine does the arithmetic the
 * reference ({@code RefArith}) does for the static result type of the reference typing table:
 *
 * <ul>
 *   <li>{@code INT}: integer arithmetic; division truncates in both engines. H2 gets every operand
 *       as BIGINT (its plain literals and INTEGER columns would overflow at 2<sup>31</sup>).
 *   <li>{@code DOUBLE}: every operand not known to be a double is cast to REAL (SQLite) or DOUBLE
 *       PRECISION (H2): SQLite would otherwise divide two integers as integers, and H2 computes
 *       BIGINT with DOUBLE PRECISION in DECFLOAT.
 *   <li>{@code DECIMAL}: plain operators (exact in H2, doubles in SQLite); division is {@code
 *       CAST(CAST(a AS DECFLOAT(1000)) / CAST(b AS DECFLOAT(1000)) AS DECFLOAT(34))} in H2 (34
 *       significant digits, as ours) and a double division in SQLite.
 *   <li>Division by zero: SQLite already yields NULL; H2 divides by {@code NULLIF(b, 0)}.
 * </ul>
 */
final class SqlArithmetic {
  /**
   * The working precision of H2 decimal division. An unbounded DECFLOAT divides to 100000 digits
   * (seconds per row); 1000 digits is ample before rounding to 34.
   */
  private static final String H2_QUOTIENT = "DECFLOAT(1000)";

  private SqlArithmetic() {}

  static void render(SqlRenderer r, StringBuilder sb, Expr.Arith a, RefType type) {
    boolean h2 = r.dialect() == SqlDialect.H2;
    boolean div = a.op() == Expr.ArithOp.DIV;
    String op = " " + symbol(a.op()) + " ";
    if (type == RefType.DECIMAL && div) {
      if (h2) {
        sb.append("CAST((");
        r.cast(sb, a.left(), H2_QUOTIENT, false);
        sb.append(" / NULLIF(");
        r.cast(sb, a.right(), H2_QUOTIENT, false);
        sb.append(", 0)) AS DECFLOAT(34))");
      } else {
        sb.append('(');
        r.cast(sb, a.left(), "REAL", r.rendersDouble(a.left()));
        sb.append(" / ");
        r.append(sb, a.right());
        sb.append(')');
      }
      return;
    }
    sb.append('(');
    operand(r, sb, a.left(), type, h2);
    sb.append(op);
    if (div && h2) {
      sb.append("NULLIF(");
      operand(r, sb, a.right(), type, h2);
      sb.append(", 0)");
    } else {
      operand(r, sb, a.right(), type, h2);
    }
    sb.append(')');
  }

  private static String symbol(Expr.ArithOp op) {
    switch (op) {
      case ADD:
        return "+";
      case SUB:
        return "-";
      case MUL:
        return "*";
      default:
        return "/";
    }
  }

  private static void operand(SqlRenderer r, StringBuilder sb, Expr e, RefType type, boolean h2) {
    if (type == RefType.DOUBLE) {
      r.cast(sb, e, r.doubleType(), r.rendersDouble(e));
    } else if (type == RefType.INT && h2) {
      r.cast(sb, e, "BIGINT", rendersBigint(r, e));
    } else {
      r.append(sb, e);
    }
  }

  /** True when {@code e} renders as a BIGINT in H2: integer literals, INT arithmetic, lengths. */
  private static boolean rendersBigint(SqlRenderer r, Expr e) {
    if (e instanceof Expr.Lit l) {
      return l.value() == null || RefType.of(l.type()) == RefType.INT && l.value() instanceof Long;
    }
    if (e instanceof Expr.Arith a) {
      return r.typeOf(a) == RefType.INT;
    }
    if (e instanceof Expr.Cast c) {
      return RefType.of(c.type()) == RefType.INT && r.typeOf(c.arg()) != RefType.INT;
    }
    return e instanceof Expr.Call c && c.fn() == Expr.StringFn.LENGTH;
  }
}
