package dev.rivulet.query;

import dev.rivulet.engine.ColumnType;
import dev.rivulet.query.sql.SqlDialect;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Random well-typed scalar expressions and aggregates over the columns of a query block, for the
 * query oracle suite: comparisons, AND/OR/NOT, IS [NOT] NULL, IN, LIKE/ILIKE, COALESCE, CASE,
 * {@code + - * /}, CAST, and the string functions, over INT, DOUBLE, STRING and BOOL.
 *
 * <p>Restrictions, where the SQL engines' semantics differ from ours (see {@link SqlDialect}):
 *
 * <ul>
 *   <li>Values stay small (literals of a few units, depth at most 3), so integer arithmetic never
 *       overflows. DOUBLE literals are quarters, exact in binary, some integral (2.0 is a DOUBLE).
 *   <li>A DOUBLE division makes an inexact double; sum and avg only take exact arguments (ours are
 *       exact sums rounded once, SQLite's are running double sums), so their arguments avoid DOUBLE
 *       division. Columns that may hold inexact doubles or exact decimals (a subquery's or an
 *       upstream live query's DOUBLE and DECIMAL columns, see {@link Col#arith}) are only compared,
 *       selected, grouped, ordered and aggregated by count/min/max, never used in arithmetic.
 *   <li>No division with a DECIMAL operand (ours rounds to 34 digits; SQLite divides doubles), no
 *       avg of a DECIMAL (ours is a decimal; the engines' a double).
 *   <li>Text is ASCII plus {@code é} and {@code ß}, which H2 and SQLite (with the Unicode
 *       {@code upper}/{@code lower} the tests register) map and order as we do; some values share
 *       their first three characters, the engine's primitive sort prefix.
 * </ul>
 */
final class RandomScalars {
  /** A column a block can use; {@code arith}: may it be an operand of arithmetic, sum or avg. */
  record Col(Expr.Col ref, ColumnType type, boolean arith) {}

  static final String[] STRINGS =
      {"a", "b", "ab", "B", "A", "é", "", "aß", "b a", " a", "abcd", "abcé", "abc", "a%", "_b"};
  /**
   * For worlds checked without H2: also text beyond U+FFFF (surrogate pairs in UTF-16) and in
   * U+E000..U+FFFF, whose UTF-16 order is not their code-point order, some sharing the engine's
   * three-unit sort prefix {@code "abc"} so that only the full comparison can order them.
   */
  static final String[] UNICODE_STRINGS = {"a", "b", "ab", "", "\uff5e", "\ud83d\ude00", "abc\uff5e",
      "abc\ud83d\ude00", "a\ud83d\ude00b", "\ue000", "abc", "A"};
  private static final String[] PATTERN_PARTS = {"a", "b", "A", "é", "%", "%", "_", "ß", " "};
  private static final String[] UNICODE_PATTERN_PARTS = {"a", "b", "%", "%", "_", "\uff5e", "\ud83d\ude00", "c"};

  /** The text values of a world. */
  static String[] strings(boolean unicode) {
    return unicode ? UNICODE_STRINGS : STRINGS;
  }
  static final double[] DOUBLES = {0.5, -1.5, 2.25, 0.25, -0.75, 3.5, 2.0, -1.0};

  private final Random r;
  private final String[] strings;
  private final String[] patternParts;

  RandomScalars(Random r) {
    this(r, false);
  }

  /** With {@code unicode}, text literals and patterns come from {@link #UNICODE_STRINGS}. */
  RandomScalars(Random r, boolean unicode) {
    this.r = r;
    this.strings = strings(unicode);
    this.patternParts = unicode ? UNICODE_PATTERN_PARTS : PATTERN_PARTS;
  }

  // ---- leaves ----

  private List<Col> ofType(List<Col> cols, ColumnType t, boolean arithOnly) {
    List<Col> out = new ArrayList<>();
    for (Col c : cols) {
      if (c.type() == t && (!arithOnly || c.arith())) {
        out.add(c);
      }
    }
    return out;
  }

  private Expr pick(List<Col> cs) {
    return cs.get(r.nextInt(cs.size())).ref();
  }

  Expr literal(ColumnType t) {
    return switch (t) {
      case INT -> new Expr.Lit((long) (r.nextInt(9) - 3));
      case DOUBLE -> new Expr.Lit(DOUBLES[r.nextInt(DOUBLES.length)]);
      case STRING -> new Expr.Lit(strings[r.nextInt(strings.length)]);
      case BOOL -> new Expr.Lit(r.nextBoolean());
      default -> new Expr.Lit(null);
    };
  }

  // ---- numbers ----

  /**
   * An expression of type {@code t} (INT or DOUBLE); with {@code exact}, without DOUBLE division.
   */
  Expr num(ColumnType t, List<Col> cols, int depth, boolean exact) {
    List<Col> own = ofType(cols, t, true);
    if (depth <= 0 || r.nextInt(3) == 0) {
      if (!own.isEmpty() && r.nextInt(4) > 0) {
        return pick(own);
      }
      if (t == ColumnType.INT && r.nextInt(4) == 0 && !ofType(cols, ColumnType.STRING, false).isEmpty()) {
        return new Expr.Call(Expr.StringFn.LENGTH, List.of(str(cols, 0)));
      }
      return literal(t);
    }
    switch (r.nextInt(9)) {
      case 0, 1, 2, 3 -> {
        Expr.ArithOp op = Expr.ArithOp.values()[r.nextInt(4)];
        if (op == Expr.ArithOp.DIV && t == ColumnType.DOUBLE && exact) {
          op = Expr.ArithOp.MUL;
        }
        ColumnType lt = t;
        ColumnType rt = t;
        if (t == ColumnType.DOUBLE && r.nextBoolean()) {
          if (r.nextBoolean()) {
            lt = ColumnType.INT;
          } else {
            rt = ColumnType.INT;
          }
        }
        return new Expr.Arith(op, num(lt, cols, depth - 1, exact), num(rt, cols, depth - 1, exact));
      }
      case 4 -> {
        List<Expr> args = new ArrayList<>();
        args.add(num(t, cols, depth - 1, exact));
        args.add(r.nextInt(4) == 0 ? new Expr.Lit(null) : num(t == ColumnType.DOUBLE && r.nextBoolean()
            ? ColumnType.INT : t, cols, depth - 1, exact));
        if (r.nextBoolean()) {
          args.add(literal(t));
        }
        return new Expr.Coalesce(args);
      }
      case 5 -> {
        List<Expr.When> whens = new ArrayList<>();
        for (int i = r.nextInt(2); i >= 0; i--) {
          whens.add(new Expr.When(bool(cols, depth - 1), num(t, cols, depth - 1, exact)));
        }
        return new Expr.Case(whens, r.nextInt(3) == 0 ? null : num(t, cols, depth - 1, exact));
      }
      case 6 -> {
        if (t == ColumnType.INT && !ofType(cols, ColumnType.STRING, false).isEmpty()) {
          return new Expr.Call(Expr.StringFn.LENGTH, List.of(str(cols, depth - 1)));
        }
        return num(t, cols, depth - 1, exact);
      }
      case 7 -> {
        // to INT rounds a DOUBLE without division (quarters: SQLite's round is exact on them)
        ColumnType from = t == ColumnType.INT ? ColumnType.DOUBLE : ColumnType.INT;
        return new Expr.Cast(num(from, cols, depth - 1, true), t);
      }
      default -> {
        return own.isEmpty() ? literal(t) : pick(own);
      }
    }
  }

  // ---- strings ----

  Expr str(List<Col> cols, int depth) {
    List<Col> own = ofType(cols, ColumnType.STRING, false);
    if (depth <= 0 || r.nextInt(3) == 0) {
      return !own.isEmpty() && r.nextInt(4) > 0 ? pick(own) : literal(ColumnType.STRING);
    }
    switch (r.nextInt(9)) {
      case 0 -> {
        return new Expr.Call(Expr.StringFn.UPPER, List.of(str(cols, depth - 1)));
      }
      case 1 -> {
        return new Expr.Call(Expr.StringFn.LOWER, List.of(str(cols, depth - 1)));
      }
      case 2 -> {
        return new Expr.Call(Expr.StringFn.TRIM, List.of(str(cols, depth - 1)));
      }
      case 3 -> {
        List<Expr> parts = new ArrayList<>();
        for (int i = r.nextInt(2); i >= -1; i--) {
          parts.add(str(cols, depth - 1));
        }
        return new Expr.Call(Expr.StringFn.CONCAT, parts);
      }
      case 4 -> {
        List<Expr> args = new ArrayList<>();
        args.add(str(cols, depth - 1));
        args.add(r.nextInt(3) == 0 ? num(ColumnType.INT, cols, 0, true) : new Expr.Lit((long) (r.nextInt(6) - 1)));
        if (r.nextBoolean()) {
          args.add(new Expr.Lit((long) (r.nextInt(5) - 1)));
        }
        return new Expr.Call(Expr.StringFn.SUBSTRING, args);
      }
      case 5 -> {
        return new Expr.Coalesce(List.of(str(cols, depth - 1), r.nextInt(3) == 0 ? new Expr.Lit(null)
            : str(cols, depth - 1)));
      }
      case 6 -> {
        return new Expr.Case(List.of(new Expr.When(bool(cols, depth - 1), str(cols, depth - 1))),
            r.nextInt(3) == 0 ? null : str(cols, depth - 1));
      }
      case 7 -> {
        return new Expr.Cast(num(ColumnType.INT, cols, depth - 1, false), ColumnType.STRING);
      }
      default -> {
        return own.isEmpty() ? literal(ColumnType.STRING) : pick(own);
      }
    }
  }

  // ---- booleans ----

  Expr bool(List<Col> cols, int depth) {
    List<Col> own = ofType(cols, ColumnType.BOOL, false);
    if (depth <= 0 || r.nextInt(4) == 0) {
      int k = r.nextInt(10);
      if (k < 3 && !own.isEmpty()) {
        return pick(own);
      }
      if (k == 3) {
        return literal(ColumnType.BOOL);
      }
      return compare(cols, 0);
    }
    switch (r.nextInt(10)) {
      case 0, 1, 2 -> {
        return compare(cols, depth - 1);
      }
      case 3 -> {
        List<Expr> args = new ArrayList<>();
        for (int i = r.nextInt(2); i >= -1; i--) {
          args.add(bool(cols, depth - 1));
        }
        return r.nextBoolean() ? new Expr.And(args) : new Expr.Or(args);
      }
      case 4 -> {
        return new Expr.Not(bool(cols, depth - 1));
      }
      case 5 -> {
        Expr arg = r.nextInt(3) > 0 ? pick(cols) : any(cols, depth - 1);
        return new Expr.IsNull(arg, r.nextBoolean());
      }
      case 6 -> {
        return in(cols, depth - 1);
      }
      case 7 -> {
        if (r.nextInt(4) == 0) {
          // with ESCAPE: a constant pattern whose escaped % and _ match themselves
          String e = ESCAPES[r.nextInt(ESCAPES.length)];
          return new Expr.Like(str(cols, depth - 1), new Expr.Lit(escapedPattern(e)), r.nextBoolean(), e);
        }
        Expr pattern = r.nextInt(5) > 0 ? new Expr.Lit(pattern()) : str(cols, depth - 1);
        return new Expr.Like(str(cols, depth - 1), pattern, r.nextBoolean());
      }
      case 8 -> {
        if (r.nextBoolean()) {
          return new Expr.Coalesce(List.of(bool(cols, depth - 1), bool(cols, depth - 1)));
        }
        return new Expr.Case(List.of(new Expr.When(bool(cols, depth - 1), bool(cols, depth - 1))),
            r.nextBoolean() ? bool(cols, depth - 1) : null);
      }
      default -> {
        return own.isEmpty() ? compare(cols, depth - 1) : pick(own);
      }
    }
  }

  /** Any scalar expression of a random kind. */
  Expr any(List<Col> cols, int depth) {
    return switch (r.nextInt(4)) {
      case 0 -> num(ColumnType.INT, cols, depth, false);
      case 1 -> num(ColumnType.DOUBLE, cols, depth, false);
      case 2 -> str(cols, depth);
      default -> bool(cols, depth);
    };
  }

  /** An expression of type {@code t} (INT, DOUBLE, STRING or BOOL). */
  Expr of(ColumnType t, List<Col> cols, int depth) {
    return switch (t) {
      case INT, DOUBLE -> num(t, cols, depth, false);
      case STRING -> str(cols, depth);
      default -> bool(cols, depth);
    };
  }

  private Expr compare(List<Col> cols, int depth) {
    Expr.CompareOp op = Expr.CompareOp.values()[r.nextInt(6)];
    int k = r.nextInt(10);
    Expr l;
    Expr rr;
    if (k < 5) {
      l = numericSide(cols, depth);
      rr = r.nextInt(3) == 0 ? numericSide(cols, depth) : literal(r.nextBoolean() ? ColumnType.INT : ColumnType.DOUBLE);
    } else if (k < 8) {
      l = str(cols, depth);
      rr = r.nextBoolean() ? str(cols, depth) : literal(ColumnType.STRING);
    } else {
      l = bool(cols, depth);
      rr = r.nextBoolean() ? literal(ColumnType.BOOL) : bool(cols, depth);
    }
    if (r.nextInt(25) == 0) {
      rr = new Expr.Lit(null);
    }
    return new Expr.Compare(op, l, rr);
  }

  /** A numeric operand of a comparison: any numeric column (also non-arith ones) or an expression. */
  private Expr numericSide(List<Col> cols, int depth) {
    List<Col> nums = new ArrayList<>();
    for (Col c : cols) {
      if (c.type().isNumeric()) {
        nums.add(c);
      }
    }
    if (!nums.isEmpty() && r.nextInt(3) > 0) {
      return pick(nums);
    }
    return num(r.nextBoolean() ? ColumnType.INT : ColumnType.DOUBLE, cols, depth, false);
  }

  private Expr in(List<Col> cols, int depth) {
    List<Expr> values = new ArrayList<>();
    Expr arg;
    ColumnType vt;
    int k = r.nextInt(3);
    if (k == 0) {
      arg = numericSide(cols, depth);
      vt = ColumnType.INT;
    } else if (k == 1) {
      arg = str(cols, depth);
      vt = ColumnType.STRING;
    } else {
      arg = bool(cols, depth);
      vt = ColumnType.BOOL;
    }
    for (int i = r.nextInt(3); i >= 0; i--) {
      int c = r.nextInt(10);
      if (c == 0) {
        values.add(new Expr.Lit(null));
      } else if (vt == ColumnType.INT) {
        values.add(literal(c < 7 ? ColumnType.INT : ColumnType.DOUBLE));
      } else {
        values.add(literal(vt));
      }
    }
    return new Expr.In(arg, values);
  }

  private static final String[] ESCAPES = {"\\", "!", "a", "%"};

  /** A pattern for escape {@code e}: parts, some escaped (the escape character always is). */
  private String escapedPattern(String e) {
    StringBuilder sb = new StringBuilder();
    for (int i = r.nextInt(4); i >= 0; i--) {
      String part = PATTERN_PARTS[r.nextInt(PATTERN_PARTS.length)];
      boolean wildcard = part.equals("%") || part.equals("_");
      if (part.equals(e) || (wildcard && r.nextBoolean()) || r.nextInt(6) == 0) {
        sb.append(e); // an escaped character stands for itself
      } else if (part.equals("%") && e.equals("%")) {
        part = "_";
      }
      sb.append(part);
    }
    return sb.toString();
  }

  private String pattern() {
    StringBuilder sb = new StringBuilder();
    for (int i = r.nextInt(4); i >= 0; i--) {
      sb.append(patternParts[r.nextInt(patternParts.length)]);
    }
    return sb.toString();
  }

  // ---- aggregates ----

  /** A random aggregate call over the block's columns. */
  Expr.Agg aggregate(List<Col> cols) {
    boolean numeric = !ofType(cols, ColumnType.INT, true).isEmpty() || !ofType(cols, ColumnType.DOUBLE, true).isEmpty();
    int k = r.nextInt(10);
    if (k < 2) {
      return new Expr.Agg(Expr.AggFn.COUNT, null, false);
    }
    if (k < 3) {
      return new Expr.Agg(Expr.AggFn.COUNT, r.nextBoolean() ? pick(cols) : any(cols, 1), false);
    }
    if (k < 4) {
      return new Expr.Agg(Expr.AggFn.COUNT, r.nextInt(4) > 0 ? pick(cols) : any(cols, 1), true);
    }
    if (k < 7 && numeric) {
      ColumnType t = ofType(cols, ColumnType.DOUBLE, true).isEmpty() || r.nextBoolean() ? ColumnType.INT : ColumnType.DOUBLE;
      Expr arg = num(t, cols, r.nextInt(3), true);
      return new Expr.Agg(k < 6 ? Expr.AggFn.SUM : Expr.AggFn.AVG, arg, false);
    }
    Expr arg = r.nextInt(3) > 0 ? pick(cols) : any(cols, 1);
    return new Expr.Agg(r.nextBoolean() ? Expr.AggFn.MIN : Expr.AggFn.MAX, arg, false);
  }
}
