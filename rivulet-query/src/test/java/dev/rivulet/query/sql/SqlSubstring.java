package dev.rivulet.query.sql;

import dev.rivulet.query.Expr;
import dev.rivulet.query.ref.RefStrings;
import dev.rivulet.query.ref.RefType;

/**
 * Renders {@code substring(s, start, length)} for H2 with SQLite's semantics (see {@link
 * RefStrings#substring}). H2 agrees for a positive length and a non-zero start; it reads
 * start 0 as 1 and a negative length as empty, where SQLite reads start 0 as the position before
 * the first character and a negative length as the characters before the start. The rendering
 * maps every case onto an H2 call with a length of zero or more:
 *
 * <pre>
 *   length &gt;= 0, start = 0   SUBSTRING(s, 1, length - 1)        (a negative count is empty in H2)
 *   length &gt;= 0, start != 0  SUBSTRING(s, start, length)
 *   length &lt; 0,  start &gt; 0   SUBSTRING(s, GREATEST(start + length, 1), start - GREATEST(start + length, 1))
 *   length &lt; 0,  start &lt; 0   SUBSTRING(s, start + length, 0 - length)   (counted from the end in both)
 *   length &lt; 0,  start = 0   empty
 * </pre>
 *
 * With constant start and length the case is chosen at render time; otherwise two CASE
 * expressions compute H2's start and count per row (NULL when either argument is NULL). The
 * string's SQL appears once; the start's and length's SQL are repeated, so they should be
 * simple. Arguments beyond 2<sup>31</sup> in magnitude take the CASE path, where H2 may report a
 * BIGINT overflow.
 */
final class SqlSubstring {
  private static final long SMALL = 1L << 31;

  private SqlSubstring() {}

  static void renderH2(SqlRenderer r, StringBuilder sb, Expr s, Expr start, Expr length) {
    String ss = text(r, s, RefType.STRING);
    if (start instanceof Expr.Lit ly && length instanceof Expr.Lit lz
        && SqlRenderer.value(ly) instanceof Long y && SqlRenderer.value(lz) instanceof Long z
        && Math.abs(y) < SMALL && Math.abs(z) < SMALL) {
      long from;
      long count;
      if (z >= 0) {
        from = y == 0 ? 1 : y;
        count = y == 0 ? Math.max(z - 1, 0) : z;
      } else if (y > 0) {
        from = Math.max(y + z, 1);
        count = y - from;
      } else if (y < 0) {
        from = y + z;
        count = -z;
      } else {
        from = 1;
        count = 0;
      }
      sb.append("SUBSTRING(").append(ss).append(", ").append(from).append(", ").append(count).append(')');
      return;
    }
    String y = text(r, start, RefType.INT);
    String z = text(r, length, RefType.INT);
    String gt = "GREATEST(" + y + " + " + z + ", 1)";
    String nulls = "CASE WHEN " + y + " IS NULL OR " + z + " IS NULL THEN NULL";
    sb.append("SUBSTRING(").append(ss).append(", ")
        .append(nulls).append(" WHEN ").append(z).append(" >= 0 THEN CASE WHEN ").append(y).append(" = 0 THEN 1 ELSE ")
        .append(y).append(" END WHEN ").append(y).append(" > 0 THEN ").append(gt)
        .append(" WHEN ").append(y).append(" < 0 THEN ").append(y).append(" + ").append(z).append(" ELSE 1 END, ")
        .append(nulls).append(" WHEN ").append(z).append(" >= 0 THEN CASE WHEN ").append(y).append(" = 0 THEN ")
        .append(z).append(" - 1 ELSE ").append(z).append(" END WHEN ").append(y).append(" > 0 THEN ").append(y)
        .append(" - ").append(gt).append(" WHEN ").append(y).append(" < 0 THEN 0 - ").append(z).append(" ELSE 0 END)");
  }

  private static String text(SqlRenderer r, Expr e, RefType t) {
    StringBuilder sb = new StringBuilder();
    r.typed(sb, e, t);
    return sb.toString();
  }
}
