package dev.rivulet.query.sql;

import dev.rivulet.engine.Bytes;
import dev.rivulet.query.QueryException;
import dev.rivulet.testkit.RefValues;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;

/**
 * SQL literals for {@link SqlRenderer}: a value is written so that the engine reads back the same
 * canonical value, and user text is only ever quoted, never spliced.
 *
 * <ul>
 *   <li>Strings: single quotes, a quote inside doubled. SQLite cannot take U+0000 in SQL text, so
 *       there the value is built with {@code char(0)}; an unpaired surrogate cannot be encoded as
 *       UTF-8 for SQLite and is rejected.
 *   <li>Integers: as digits in SQLite (negative ones parenthesized, so {@code a - -1} cannot
 *       become a comment); {@code CAST(n AS BIGINT)} in H2, whose plain literals are 32-bit.
 *   <li>Doubles: {@link Double#toString}, the shortest decimal that reads back as the same double
 *       (both engines read it exactly); in H2 inside {@code CAST(.. AS DOUBLE PRECISION)}, since
 *       H2 reads {@code 1.5E0} as a DECFLOAT. Infinities as {@code 9e999} in SQLite; NaN only in
 *       H2.
 *   <li>Decimals: plain digits (exact in H2, read as the nearest double by SQLite).
 *   <li>Booleans: {@code 1}/{@code 0} in SQLite, {@code TRUE}/{@code FALSE} in H2. Bytes: {@code
 *       X'..'}. Dates and timestamps: H2 only.
 * </ul>
 */
final class SqlLiterals {
  private SqlLiterals() {}

  /**
   * Appends canonical value {@code v} as a literal of {@code dialect}.
   *
   * @throws QueryException naming {@code clause} when the dialect cannot hold the value
   */
  static void append(StringBuilder sb, Object v, SqlDialect dialect, String clause) {
    boolean sqlite = dialect == SqlDialect.SQLITE;
    if (v == null) {
      sb.append("NULL");
    } else if (v instanceof Boolean b) {
      sb.append(sqlite ? (b ? "1" : "0") : (b ? "TRUE" : "FALSE"));
    } else if (v instanceof Long l) {
      if (sqlite) {
        sb.append(l < 0 ? "(" + l + ")" : Long.toString(l));
      } else {
        sb.append("CAST(").append(l).append(" AS BIGINT)");
      }
    } else if (v instanceof Double d) {
      doubleLiteral(sb, d, sqlite, clause);
    } else if (v instanceof BigDecimal bd) {
      String s = bd.toPlainString();
      sb.append(bd.signum() < 0 ? "(" + s + ")" : s);
    } else if (v instanceof String s) {
      stringLiteral(sb, s, sqlite, clause);
    } else if (v instanceof Bytes b) {
      sb.append("X'");
      for (byte x : b.toArray()) {
        sb.append(Character.forDigit((x >> 4) & 0xf, 16)).append(Character.forDigit(x & 0xf, 16));
      }
      sb.append('\'');
    } else if (v instanceof LocalDate d && !sqlite) {
      sb.append("DATE '").append(d).append('\'');
    } else if (v instanceof Instant t && !sqlite) {
      sb.append("TIMESTAMP WITH TIME ZONE '").append(t).append('\'');
    } else {
      throw new QueryException(clause + ": " + dialect + " cannot hold the literal " + RefValues.render(v)
          + " (" + dev.rivulet.query.ref.RefTypes.literal(v) + ")");
    }
  }

  private static void doubleLiteral(StringBuilder sb, double d, boolean sqlite, String clause) {
    if (Double.isNaN(d)) {
      if (sqlite) {
        throw new QueryException(clause + ": SQLite has no NaN; the literal NaN cannot be rendered");
      }
      sb.append("CAST('NaN' AS DOUBLE PRECISION)");
      return;
    }
    if (Double.isInfinite(d)) {
      sb.append(sqlite ? (d > 0 ? "9e999" : "(-9e999)")
          : d > 0 ? "CAST('Infinity' AS DOUBLE PRECISION)" : "CAST('-Infinity' AS DOUBLE PRECISION)");
      return;
    }
    // Double.toString is the shortest decimal that reads back as d; both engines read it exactly
    // (H2 reads it as an exact decimal and rounds once to double).
    String s = Double.toString(d);
    if (sqlite) {
      sb.append(d < 0 ? "(" + s + ")" : s);
    } else {
      sb.append("CAST(").append(s).append(" AS DOUBLE PRECISION)");
    }
  }

  private static void stringLiteral(StringBuilder sb, String s, boolean sqlite, String clause) {
    if (sqlite) {
      for (int i = 0; i < s.length(); i++) {
        char ch = s.charAt(i);
        if (Character.isHighSurrogate(ch) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
          i++;
        } else if (Character.isSurrogate(ch)) {
          throw new QueryException(clause + ": text " + RefValues.render(s)
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
