package dev.rivulet.query;

import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.query.ref.RefType;
import dev.rivulet.query.ref.RefTypes;
import dev.rivulet.query.sql.SqlDialect;
import dev.rivulet.testkit.RefValues;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Random well-typed expressions over one random row, restricted to where our semantics and the
 * engine's can agree, for {@code ExprDifferentialTest}.
 *
 * <p>The row has two nullable columns of each of INT, DOUBLE, DECIMAL, STRING and BOOL ({@link
 * #SCHEMA}, alias {@code t}). The restrictions, each a difference documented on {@link
 * SqlDialect}:
 *
 * <ul>
 *   <li>No integer overflow (SQLite goes to REAL, H2 errors): every numeric node carries a static
 *       bound on its magnitude, and a node whose bound exceeds 2<sup>40</sup> is replaced by a
 *       leaf.
 *   <li>Doubles are short binary fractions (k/8) and an exactly computed value must stay exact in
 *       a double (bound times denominator at most 2<sup>50</sup>), so that SQLite's double
 *       arithmetic on DECIMALs is exact. A DOUBLE division makes an inexact double; inexact
 *       doubles are kept away from DECIMAL arithmetic, COALESCE and CASE (where H2 would convert
 *       them through their shortest decimal) and from comparisons with decimals (IN included:
 *       H2 compares them through their shortest decimal too), and never divide.
 *   <li>H2 only: a double that meets a decimal in arithmetic, COALESCE or CASE is short (at most
 *       64ths, magnitude at most 2<sup>24</sup>), so its shortest decimal is its exact value.
 *   <li>SQLite: DECIMAL values are k/8 (binary doubles) and there is no DECIMAL division; H2:
 *       DECIMAL values and literals are k/100 and DECIMAL division is allowed.
 *   <li>Divisors are exact values, so a quotient's bound is the dividend's bound times the
 *       divisor's denominator. A DECIMAL dividend is exact too: a quotient of a 34-digit rounded
 *       value can be an exact tie at the 35th digit, which H2 rounds half-up and we half-even.
 *   <li>H2 only: text stays within U+0000..U+D7FF (H2 measures and orders UTF-16 units); SQLite
 *       also gets an emoji beyond U+FFFF. Neither gets U+0000.
 *   <li>LIKE ... ESCAPE: SQLite only with constant patterns (rendered as GLOB); H2's ILIKE with a
 *       per-row pattern only with an escape character that has no case.
 *   <li>Casts: to INT only of exact values (SQLite rounds in floating point); a cast to DOUBLE of
 *       a non-binary decimal is an inexact double; a cast to DECIMAL only of values whose
 *       shortest decimal is exact. INT to STRING; NULLs typed and untyped.
 * </ul>
 */
final class RandomExprs {
  static final Schema SCHEMA = Schema.parse(
      "i1 INT, i2 INT, d1 DOUBLE, d2 DOUBLE, m1 DECIMAL, m2 DECIMAL, s1 STRING, s2 STRING, b1 BOOL, b2 BOOL");
  static final TestScope SCOPE = new TestScope("t", SCHEMA);
  static final List<ColumnType> KINDS =
      List.of(ColumnType.INT, ColumnType.DOUBLE, ColumnType.DECIMAL, ColumnType.STRING, ColumnType.BOOL);

  private static final String[] ALPHABET =
      {"a", "b", "c", "A", "B", "é", "É", "ß", "σ", "Σ", "İ", "%", "_", "*", "?", "[", "]", "'", " ", "\\", "\t"};
  private static final double MAX_BOUND = 0x1p40;
  private static final double MAX_EXACT = 0x1p50;
  private static final long MAX_DEN = 1L << 20;
  private static final int STRING_BOUND = 4000;

  /** A numeric node's static facts: |value| <= bound; value * den is an integer (den 0: unknown). */
  private record Num(double bound, long den, boolean inexactDouble, boolean roundedDecimal) {
    boolean exact() {
      return den > 0;
    }
  }

  private final SqlDialect engine;
  private final Random r;
  private final RefTypes types = new RefTypes(SCOPE);
  private final Map<Expr, Num> nums = new IdentityHashMap<>();
  private final List<String> rowTexts = new ArrayList<>();
  private final List<String> textColumns = new ArrayList<>();

  RandomExprs(SqlDialect engine, Random r) {
    this.engine = engine;
    this.r = r;
  }

  private boolean h2() {
    return engine == SqlDialect.H2;
  }

  // ---- the row ----

  /** The row; string literals and LIKE patterns made afterwards often derive from its texts. */
  Row row() {
    Object[] v = new Object[SCHEMA.width()];
    for (int i = 0; i < v.length; i++) {
      v[i] = r.nextInt(5) == 0 ? null : value(SCHEMA.column(i).type());
      if (v[i] instanceof String s) {
        rowTexts.add(s);
        textColumns.add(SCHEMA.column(i).name());
      }
    }
    return Row.of(v);
  }

  private Object value(ColumnType t) {
    return switch (t) {
      case INT -> (long) (r.nextInt(41) - 20);
      case DOUBLE -> (r.nextInt(321) - 160) / 8.0;
      case DECIMAL -> h2() ? BigDecimal.valueOf(r.nextInt(4001) - 2000, 2) : (r.nextInt(321) - 160) / 8.0;
      case STRING -> text(4);
      case BOOL -> r.nextBoolean();
      default -> throw new IllegalArgumentException(t.toString());
    };
  }

  private String text(int max) {
    StringBuilder sb = new StringBuilder();
    int n = r.nextInt(max + 1);
    for (int i = 0; i < n; i++) {
      sb.append(!h2() && r.nextInt(10) == 0 ? "😀" : ALPHABET[r.nextInt(ALPHABET.length)]);
    }
    return sb.toString();
  }

  // ---- expressions ----

  /** A random expression of kind {@code t} (one of {@link #KINDS}) and depth at most {@code depth}. */
  Expr gen(ColumnType t, int depth) {
    return switch (t) {
      case INT, DOUBLE, DECIMAL -> numeric(t, depth);
      case STRING -> string(depth);
      case BOOL -> bool(depth);
      default -> throw new IllegalArgumentException(t.toString());
    };
  }

  private Expr column(ColumnType t) {
    String prefix = switch (t) {
      case INT -> "i";
      case DOUBLE -> "d";
      case DECIMAL -> "m";
      case STRING -> "s";
      default -> "b";
    };
    return new Expr.Col("t", prefix + (1 + r.nextInt(2)));
  }

  private Expr numeric(ColumnType t, int depth) {
    if (depth <= 0 || r.nextInt(4) == 0) {
      return numericLeaf(t);
    }
    int k = r.nextInt(11);
    Expr e;
    if (k < 6) {
      e = arith(t, depth);
    } else if (k == 6) {
      List<Expr> args = new ArrayList<>();
      args.add(numeric(t, depth - 1));
      for (int i = r.nextInt(2); i >= 0; i--) {
        args.add(numeric(narrower(t), depth - 1));
      }
      e = new Expr.Coalesce(args);
    } else if (k == 7) {
      List<Expr.When> whens = new ArrayList<>();
      for (int i = r.nextInt(2); i >= 0; i--) {
        whens.add(new Expr.When(bool(depth - 1), numeric(i == 0 ? t : narrower(t), depth - 1)));
      }
      e = new Expr.Case(whens, r.nextBoolean() ? numeric(narrower(t), depth - 1) : null);
    } else if (k == 8 && t == ColumnType.INT) {
      e = new Expr.Call(Expr.StringFn.LENGTH, List.of(string(depth - 1)));
    } else if (k == 9) {
      ColumnType from = KINDS.get(r.nextInt(3));
      if (from == ColumnType.DECIMAL && !h2()) {
        from = ColumnType.INT; // SQLite: no DECIMAL operands beyond columns
      }
      e = new Expr.Cast(r.nextInt(8) == 0 ? new Expr.Lit(null) : numeric(from, depth - 1), t);
    } else {
      return numericLeaf(t);
    }
    Num n = num(e);
    return n == null ? numericLeaf(t) : e;
  }

  private ColumnType narrower(ColumnType t) {
    return switch (t) {
      case DECIMAL -> KINDS.get(r.nextInt(3));
      case DOUBLE -> KINDS.get(r.nextInt(2));
      default -> t;
    };
  }

  private Expr arith(ColumnType t, int depth) {
    Expr.ArithOp op = Expr.ArithOp.values()[r.nextInt(4)];
    if (op == Expr.ArithOp.DIV && t == ColumnType.DECIMAL && !h2()) {
      op = Expr.ArithOp.values()[r.nextInt(3)];
    }
    ColumnType lt = t;
    ColumnType rt = t;
    if (t != ColumnType.INT) {
      ColumnType other = narrower(t);
      if (r.nextBoolean()) {
        lt = other;
      } else {
        rt = other;
      }
    }
    return new Expr.Arith(op, numeric(lt, depth - 1), numeric(rt, depth - 1));
  }

  private Expr numericLeaf(ColumnType t) {
    int k = r.nextInt(10);
    if (k < 5 || (k < 9 && t == ColumnType.DECIMAL && !h2())) {
      return column(t);
    }
    if (k == 9) {
      return new Expr.Lit(null, r.nextBoolean() ? t : ColumnType.ANY); // a typed or an untyped NULL
    }
    // Literals have their SQL type whatever their canonical value: 2.0 is a DOUBLE, 0.50 a DECIMAL.
    return switch (t) {
      case INT -> new Expr.Lit((long) (r.nextInt(41) - 20));
      case DOUBLE -> new Expr.Lit(r.nextInt(3) == 0 ? (double) (r.nextInt(21) - 10)
          : (8 * (r.nextInt(21) - 10) + 1 + r.nextInt(7)) / 8.0);
      default -> new Expr.Lit(BigDecimal.valueOf(r.nextInt(4001) - 2000, 2));
    };
  }

  /** The facts of numeric node {@code e}, or null when it breaks a restriction of the class comment. */
  private Num num(Expr e) {
    if (nums.containsKey(e)) {
      return nums.get(e);
    }
    Num n = computeNum(e);
    if (n != null && (n.bound > MAX_BOUND || (n.exact() && (n.den > MAX_DEN || n.bound * n.den > MAX_EXACT)))) {
      n = null;
    }
    nums.put(e, n);
    return n;
  }

  private Num computeNum(Expr e) {
    ColumnType t = types.type(e).declared();
    if (e instanceof Expr.Col) {
      return new Num(20, t == ColumnType.INT ? 1 : t == ColumnType.DECIMAL && h2() ? 100 : 8, false, false);
    }
    if (e instanceof Expr.Lit l) {
      if (l.value() == null || l.value() instanceof Long) {
        return new Num(l.value() == null ? 0 : Math.abs((Long) l.value()), 1, false, false);
      }
      BigDecimal v = RefValues.exact(l.value());
      return new Num(v.abs().doubleValue(), l.value() instanceof Double ? 8 : 100, false, false);
    }
    if (e instanceof Expr.Call) {
      return new Num(STRING_BOUND, 1, false, false);
    }
    if (e instanceof Expr.Cast c) {
      return cast(c, t);
    }
    if (e instanceof Expr.Coalesce c) {
      return branches(t, c.args());
    }
    if (e instanceof Expr.Case c) {
      List<Expr> values = new ArrayList<>();
      for (Expr.When w : c.whens()) {
        values.add(w.value());
      }
      if (c.otherwise() != null) {
        values.add(c.otherwise());
      }
      return branches(t, values);
    }
    Expr.Arith a = (Expr.Arith) e;
    Num x = num(a.left());
    Num y = num(a.right());
    if (x == null || y == null || (t == ColumnType.DECIMAL && !decimalSafe(a.left(), x))
        || (t == ColumnType.DECIMAL && !decimalSafe(a.right(), y))) {
      return null;
    }
    boolean inexact = x.inexactDouble || y.inexactDouble;
    boolean rounded = x.roundedDecimal || y.roundedDecimal;
    switch (a.op()) {
      case ADD, SUB -> {
        return new Num(x.bound + y.bound, x.exact() && y.exact() ? lcm(x.den, y.den) : 0, inexact, rounded);
      }
      case MUL -> {
        return new Num(x.bound * y.bound, x.exact() && y.exact() ? x.den * y.den : 0, inexact, rounded);
      }
      default -> {
        if (!y.exact() || y.inexactDouble || y.roundedDecimal) {
          return null;
        }
        if (t == ColumnType.INT || t == ColumnType.ANY) {
          return new Num(x.bound, 1, false, false);
        }
        boolean dbl = t == ColumnType.DOUBLE;
        if (!dbl && !x.exact()) {
          return null; // a rounded dividend can make a tie at the 35th digit (H2 rounds it up)
        }
        return new Num(x.bound * y.den, 0, inexact || dbl, rounded || !dbl);
      }
    }
  }

  /**
   * A numeric cast: to INT rounds an exact value (an inexact double could sit on the other side of
   * a half in SQLite's floating-point round); to DOUBLE is exact for binary fractions and inexact
   * otherwise (e.g. 0.01); to DECIMAL turns a double into its shortest decimal, which is its
   * exact value only for a short binary fraction ({@link #decimalSafe}).
   */
  private Num cast(Expr.Cast c, ColumnType t) {
    if (types.type(c.arg()) == RefType.ANY) {
      return new Num(0, 1, false, false);
    }
    Num x = num(c.arg());
    if (x == null) {
      return null;
    }
    if (t == ColumnType.INT) {
      return x.exact() ? new Num(x.bound + 1, 1, false, false) : null;
    }
    if (t == ColumnType.DOUBLE) {
      boolean binary = x.exact() && (x.den & (x.den - 1)) == 0;
      return binary ? new Num(x.bound, x.den, x.inexactDouble, false) : new Num(x.bound, 0, true, false);
    }
    return decimalSafe(c.arg(), x) && x.exact() ? new Num(x.bound, x.den, false, x.roundedDecimal) : null;
  }

  private Num branches(ColumnType t, List<Expr> values) {
    double bound = 0;
    long den = 1;
    boolean inexact = false;
    boolean rounded = false;
    for (Expr v : values) {
      Num n = num(v);
      if (n == null || (t == ColumnType.DECIMAL && !decimalSafe(v, n))) {
        return null;
      }
      bound = Math.max(bound, n.bound);
      den = den > 0 && n.exact() ? lcm(den, n.den) : 0;
      inexact |= n.inexactDouble;
      rounded |= n.roundedDecimal;
    }
    return new Num(bound, den, inexact, rounded);
  }

  /** May {@code e} meet decimals: no inexact double, and in H2 only short doubles. */
  private boolean decimalSafe(Expr e, Num n) {
    if (n.inexactDouble) {
      return false;
    }
    return !h2() || types.type(e) != RefType.DOUBLE || (n.exact() && n.den <= 64 && n.bound * n.den <= 0x1p24);
  }

  private static long lcm(long a, long b) {
    long x = a;
    long y = b;
    while (y != 0) {
      long t = x % y;
      x = y;
      y = t;
    }
    return a / x * b;
  }

  private Expr string(int depth) {
    if (depth <= 0 || r.nextInt(4) == 0) {
      int k = r.nextInt(10);
      return k < 5 ? column(ColumnType.STRING) : k < 9 ? new Expr.Lit(literalText()) : new Expr.Lit(null);
    }
    switch (r.nextInt(9)) {
      case 0 -> {
        return new Expr.Call(Expr.StringFn.UPPER, List.of(string(depth - 1)));
      }
      case 1 -> {
        return new Expr.Call(Expr.StringFn.LOWER, List.of(string(depth - 1)));
      }
      case 2 -> {
        return new Expr.Call(Expr.StringFn.TRIM, List.of(string(depth - 1)));
      }
      case 3 -> {
        List<Expr> parts = new ArrayList<>();
        for (int i = r.nextInt(2); i >= -1; i--) {
          parts.add(string(depth - 1));
        }
        return new Expr.Call(Expr.StringFn.CONCAT, parts);
      }
      case 4 -> {
        List<Expr> args = new ArrayList<>(List.of(string(depth - 1), substringArg(depth)));
        if (r.nextInt(4) > 0) {
          args.add(substringArg(depth));
        }
        return new Expr.Call(Expr.StringFn.SUBSTRING, args);
      }
      case 5 -> {
        return new Expr.Coalesce(List.of(string(depth - 1), string(depth - 1)));
      }
      case 6 -> {
        return new Expr.Case(List.of(new Expr.When(bool(depth - 1), string(depth - 1))),
            r.nextBoolean() ? string(depth - 1) : null);
      }
      case 7 -> {
        return new Expr.Cast(numeric(ColumnType.INT, depth - 1), ColumnType.STRING);
      }
      default -> {
        return new Expr.Lit(text(3));
      }
    }
  }

  private Expr substringArg(int depth) {
    return r.nextBoolean() ? new Expr.Lit((long) (r.nextInt(13) - 6)) : numeric(ColumnType.INT, Math.min(depth - 1, 1));
  }

  private Expr bool(int depth) {
    if (depth <= 0 || r.nextInt(5) == 0) {
      int k = r.nextInt(10);
      if (k < 4) {
        return column(ColumnType.BOOL);
      }
      if (k < 6) {
        return new Expr.Lit(r.nextBoolean());
      }
      if (k < 7) {
        return new Expr.Lit(null);
      }
      return compare(0);
    }
    switch (r.nextInt(10)) {
      case 0, 1 -> {
        return compare(depth - 1);
      }
      case 2, 3 -> {
        List<Expr> args = new ArrayList<>();
        for (int i = r.nextInt(2); i >= -1; i--) {
          args.add(bool(depth - 1));
        }
        return r.nextBoolean() ? new Expr.And(args) : new Expr.Or(args);
      }
      case 4 -> {
        return new Expr.Not(bool(depth - 1));
      }
      case 5 -> {
        return new Expr.IsNull(gen(KINDS.get(r.nextInt(KINDS.size())), depth - 1), r.nextBoolean());
      }
      case 6 -> {
        ColumnType kind = comparable();
        Expr arg = gen(kind == ColumnType.INT ? KINDS.get(r.nextInt(3)) : kind, depth - 1);
        List<Expr> values = new ArrayList<>();
        for (int i = r.nextInt(3); i >= 0; i--) {
          int k = r.nextInt(10);
          ColumnType vt = kind == ColumnType.INT ? KINDS.get(r.nextInt(3)) : kind;
          values.add(k == 0 ? new Expr.Lit(null) : k < 8 ? leaf(vt) : gen(vt, depth - 1));
        }
        List<Expr> ops = new ArrayList<>(values);
        ops.add(0, arg);
        ops = kind == ColumnType.INT ? exactAmongDecimals(ops) : ops;
        return new Expr.In(ops.get(0), ops.subList(1, ops.size()));
      }
      case 7, 8 -> {
        if (r.nextInt(4) == 0) {
          return escapedLike(depth);
        }
        if (!rowTexts.isEmpty() && r.nextBoolean()) {
          // a column against a pattern made from its own text, so that matches are common
          int c = r.nextInt(rowTexts.size());
          return new Expr.Like(new Expr.Col("t", textColumns.get(c)), new Expr.Lit(LikePatterns.fromText(r, rowTexts.get(c))), r.nextBoolean());
        }
        Expr pattern = r.nextInt(5) < 3 ? new Expr.Lit(pattern()) : string(depth - 1);
        return new Expr.Like(string(depth - 1), pattern, r.nextBoolean());
      }
      default -> {
        if (r.nextBoolean()) {
          return new Expr.Coalesce(List.of(bool(depth - 1), bool(depth - 1)));
        }
        return new Expr.Case(List.of(new Expr.When(bool(depth - 1), bool(depth - 1))), bool(depth - 1));
      }
    }
  }

  /**
   * LIKE / ILIKE with ESCAPE: mostly a constant pattern made from a row text with some characters
   * escaped (always the escape character itself, often {@code %} and {@code _}); in H2 also a
   * pattern computed per row, with an escape character that has no case (H2 lower-cases such a
   * pattern as a whole; ours reads the escapes from the pattern as written and lower-cases each
   * literal character as the whole pattern lower-cases it, which is the same then).
   */
  private Expr escapedLike(int depth) {
    boolean ci = r.nextBoolean();
    if (h2() && r.nextInt(4) == 0) {
      String e = LikePatterns.CASELESS_ESCAPES[r.nextInt(LikePatterns.CASELESS_ESCAPES.length)];
      Expr pattern = string(depth - 1);
      if (pattern instanceof Expr.Lit lit && lit.value() instanceof String text && LikePatterns.endsWithEscape(text, e)) {
        pattern = new Expr.Lit(text + e); // a constant pattern ending with its escape is refused when compiled
      }
      return new Expr.Like(string(depth - 1), pattern, ci, e);
    }
    String e = h2() || r.nextInt(6) > 0 ? LikePatterns.ESCAPES[r.nextInt(LikePatterns.ESCAPES.length)] : "😀";
    if (!rowTexts.isEmpty() && r.nextBoolean()) {
      int c = r.nextInt(rowTexts.size());
      return new Expr.Like(new Expr.Col("t", textColumns.get(c)), new Expr.Lit(LikePatterns.escaped(r, rowTexts.get(c), e)), ci,
          e);
    }
    return new Expr.Like(string(depth - 1), new Expr.Lit(LikePatterns.escaped(r, literalText(), e)), ci, e);
  }


  /** INT stands for "numeric" here: the two sides may be of different numeric types. */
  private ColumnType comparable() {
    int k = r.nextInt(10);
    return k < 6 ? ColumnType.INT : k < 8 ? ColumnType.STRING : ColumnType.BOOL;
  }

  private Expr compare(int depth) {
    ColumnType kind = comparable();
    Expr l = gen(kind == ColumnType.INT ? KINDS.get(r.nextInt(3)) : kind, depth);
    Expr rr = gen(kind == ColumnType.INT ? KINDS.get(r.nextInt(3)) : kind, depth);
    List<Expr> ops = exactAmongDecimals(List.of(l, rr));
    return new Expr.Compare(Expr.CompareOp.values()[r.nextInt(6)], ops.get(0), ops.get(1));
  }

  /**
   * The operands of one comparison, each inexact double among decimals replaced by a double leaf:
   * H2 compares a double with a decimal through the double's shortest decimal, we (and the
   * reference) exactly, so CAST(13.05 AS DOUBLE) IN (13.05) is true there and false here.
   */
  private List<Expr> exactAmongDecimals(List<Expr> ops) {
    boolean decimals = false;
    for (Expr e : ops) {
      decimals |= types.type(e) == RefType.DECIMAL;
    }
    if (!decimals) {
      return ops;
    }
    List<Expr> out = new ArrayList<>(ops);
    for (int i = 0; i < out.size(); i++) {
      Num n = num(out.get(i));
      if (types.type(out.get(i)) == RefType.DOUBLE && (n == null || n.inexactDouble)) {
        out.set(i, leaf(ColumnType.DOUBLE));
      }
    }
    return out;
  }

  private Expr leaf(ColumnType t) {
    return switch (t) {
      case STRING -> new Expr.Lit(literalText());
      case BOOL -> new Expr.Lit(r.nextBoolean());
      default -> numericLeaf(t);
    };
  }

  /** A text literal: often one of the row's texts, sometimes with its case changed. */
  private String literalText() {
    if (rowTexts.isEmpty() || r.nextInt(5) < 2) {
      return text(3);
    }
    String t = rowTexts.get(r.nextInt(rowTexts.size()));
    return r.nextInt(3) == 0 ? t.toUpperCase(java.util.Locale.ROOT) : t;
  }

  /** A LIKE pattern: mostly a row text with wildcards let in and letters' case flipped. */
  private String pattern() {
    if (rowTexts.isEmpty() || r.nextInt(3) == 0) {
      StringBuilder sb = new StringBuilder();
      int n = r.nextInt(5);
      for (int i = 0; i < n; i++) {
        int k = r.nextInt(10);
        sb.append(k < 3 ? "%" : k < 5 ? "_" : ALPHABET[r.nextInt(ALPHABET.length)]);
      }
      return sb.toString();
    }
    return LikePatterns.fromText(r, rowTexts.get(r.nextInt(rowTexts.size())));
  }
}
