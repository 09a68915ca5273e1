package dev.rivulet.query.sql;

import dev.rivulet.query.Expr;
import dev.rivulet.query.QueryException;
import dev.rivulet.query.ref.RefType;
import dev.rivulet.testkit.RefValues;
import java.util.List;
import java.util.Locale;

/**
 * Renders LIKE and ILIKE (with or without ESCAPE) for {@link SqlRenderer}: as GLOB in SQLite, whose
 * LIKE is case-insensitive for ASCII, and as {@code LIKE .. ESCAPE ..} in H2, whose LIKE has a
 * default escape character; ILIKE lower-cases both sides (see {@link SqlDialect}).
 */
final class SqlLike {
  private SqlLike() {}

  static void render(SqlRenderer r, StringBuilder sb, Expr.Like l) {
    if (l.escape() != null) {
      likeEscape(r, sb, l);
      return;
    }
    boolean ci = l.caseInsensitive();
    sb.append('(');
    if (ci) {
      sb.append(r.sqliteDialect() ? "lower(" : "LOWER(");
      r.typed(sb, l.arg(), RefType.STRING);
      sb.append(')');
    } else {
      r.typed(sb, l.arg(), RefType.STRING);
    }
    if (r.sqliteDialect()) {
      sb.append(" GLOB ");
      if (l.pattern() instanceof Expr.Lit lit && SqlRenderer.value(lit) instanceof String p) {
        r.literal(sb, globPattern(ci ? p.toLowerCase(Locale.ROOT) : p));
      } else {
        sb.append("replace(replace(replace(replace(replace(");
        if (ci) {
          sb.append("lower(");
          r.append(sb, l.pattern());
          sb.append(')');
        } else {
          r.append(sb, l.pattern());
        }
        sb.append(", '[', '[[]'), '*', '[*]'), '?', '[?]'), '%', '*'), '_', '?')");
      }
    } else {
      sb.append(" LIKE ");
      if (ci && l.pattern() instanceof Expr.Lit lit && SqlRenderer.value(lit) instanceof String p) {
        r.literal(sb, p.toLowerCase(Locale.ROOT));
      } else if (ci) {
        sb.append("LOWER(");
        r.typed(sb, l.pattern(), RefType.STRING);
        sb.append(')');
      } else {
        r.typed(sb, l.pattern(), RefType.STRING);
      }
      sb.append(" ESCAPE ''");
    }
    sb.append(')');
  }

  /**
   * LIKE / ILIKE with ESCAPE. A constant pattern is read here with its escape character into
   * wildcards and literal runs (lower-cased, for ILIKE, run by run); SQLite gets the GLOB pattern
   * of those, H2 {@code [LOWER(a)] LIKE 'p' ESCAPE 'e'} with the literal runs re-escaped. A pattern
   * computed per row renders only for H2, as {@code a LIKE p ESCAPE e} (ILIKE: {@code LOWER(a) LIKE
   * LOWER(p) ESCAPE e}, which is ours when the escape character has no case); SQLite has no
   * case-sensitive LIKE to give it to.
   */
  private static void likeEscape(SqlRenderer r, StringBuilder sb, Expr.Like l) {
    boolean ci = l.caseInsensitive();
    String e = l.escape();
    String constant = l.pattern() instanceof Expr.Lit lit ? (String) lit.value() : null;
    if (l.pattern() instanceof Expr.Lit lit && lit.value() == null) {
      r.literal(sb, null);
      return;
    }
    List<String[]> tokens = constant == null ? null : likeTokens(constant, e.codePointAt(0), ci, r.clause());
    sb.append('(');
    if (ci) {
      sb.append(r.sqliteDialect() ? "lower(" : "LOWER(");
    }
    r.typed(sb, l.arg(), RefType.STRING);
    sb.append(ci ? ")" : "");
    if (r.sqliteDialect()) {
      if (tokens == null) {
        throw new QueryException(r.clause() + ": SQLite rendering of LIKE ... ESCAPE needs a constant pattern: "
            + l);
      }
      StringBuilder glob = new StringBuilder();
      for (String[] t : tokens) {
        if (t[0] != null) {
          glob.append(t[0].equals("%") ? '*' : '?');
        } else {
          globLiteral(glob, t[1]);
        }
      }
      sb.append(" GLOB ");
      r.literal(sb, glob.toString());
    } else {
      sb.append(" LIKE ");
      if (tokens != null) {
        StringBuilder p = new StringBuilder();
        for (String[] t : tokens) {
          if (t[0] != null) {
            p.append(t[0]);
          } else {
            t[1].codePoints().forEach(cp -> {
              if (cp == '%' || cp == '_' || cp == e.codePointAt(0)) {
                p.append(e);
              }
              p.appendCodePoint(cp);
            });
          }
        }
        r.literal(sb, p.toString());
      } else if (ci) {
        sb.append("LOWER(");
        r.typed(sb, l.pattern(), RefType.STRING);
        sb.append(')');
      } else {
        r.typed(sb, l.pattern(), RefType.STRING);
      }
      sb.append(" ESCAPE ");
      r.literal(sb, e);
    }
    sb.append(')');
  }

  /**
   * A LIKE pattern read with escape code point {@code escape}: each token is {@code {wildcard,
   * null}} for {@code %} or {@code _}, or {@code {null, literal run}} (lower-cased when {@code ci}).
   */
  static List<String[]> likeTokens(String pattern, int escape, boolean ci, String clause) {
    List<String[]> out = new java.util.ArrayList<>();
    int[] cps = pattern.codePoints().toArray();
    int[][] lower = ci ? dev.rivulet.query.ref.RefStrings.lowerInPattern(pattern) : null; // as in the whole pattern
    StringBuilder run = new StringBuilder();
    for (int i = 0; i < cps.length; i++) {
      int cp = cps[i];
      if (cp == escape) {
        if (++i == cps.length) {
          throw new QueryException(clause + ": LIKE pattern " + RefValues.render(pattern) + " ends with its escape");
        }
      } else if (cp == '%' || cp == '_') {
        if (run.length() > 0) {
          out.add(new String[] {null, run.toString()});
          run.setLength(0);
        }
        out.add(new String[] {cp == '%' ? "%" : "_", null});
        continue;
      }
      for (int x : lower == null ? new int[] {cps[i]} : lower[i]) {
        run.appendCodePoint(x);
      }
    }
    if (run.length() > 0) {
      out.add(new String[] {null, run.toString()});
    }
    return out;
  }

  /** A LIKE pattern as a SQLite GLOB pattern: {@code % -> *}, {@code _ -> ?}, the rest literal. */
  static String globPattern(String like) {
    StringBuilder g = new StringBuilder(like.length() + 8);
    for (int i = 0; i < like.length(); i++) {
      char ch = like.charAt(i);
      switch (ch) {
        case '%' -> g.append('*');
        case '_' -> g.append('?');
        default -> globLiteral(g, String.valueOf(ch));
      }
    }
    return g.toString();
  }

  /** Appends {@code text} as GLOB text matching itself: {@code * ? [} bracketed. */
  static void globLiteral(StringBuilder g, String text) {
    for (int i = 0; i < text.length(); i++) {
      char ch = text.charAt(i);
      if (ch == '*' || ch == '?' || ch == '[') {
        g.append('[').append(ch).append(']');
      } else {
        g.append(ch);
      }
    }
  }
}
