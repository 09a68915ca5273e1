package dev.rivulet.query.sql;

import dev.rivulet.query.QueryException;
import dev.rivulet.query.ref.RefEval;

/**
 * The SQL engines {@link SqlRenderer} writes expressions for, and how far each one computes what
 * the reference evaluator {@link RefEval} (and the query layer's compiler) computes. Both are tested
 * value for value against both evaluators on random expressions ({@code ExprDifferentialTest}); the restrictions of that test are exactly the
 * differences listed here as not compensated.
 */
public enum SqlDialect {
  /**
   * SQLite 3 (as bundled by {@code org.xerial:sqlite-jdbc}). Differences from our semantics:
   *
   * <ul>
   *   <li>Booleans are integers 0 and 1: literals render as {@code 1}/{@code 0}, and a BOOL result
   *       reads back as an integer the caller maps to a boolean.
   *   <li>LIKE is case-insensitive for ASCII. Compensated: LIKE renders as GLOB, which is
   *       case-sensitive and counts code points, with the pattern translated ({@code % -> *}, {@code
   *       _ -> ?}, and {@code * ? [} made literal as {@code [*] [?] [[]}); at render time for a
   *       constant pattern, with nested {@code replace()} calls otherwise. This needs no
   *       connection state (unlike {@code PRAGMA case_sensitive_like}, which is also deprecated).
   *       ILIKE renders as {@code lower(a) GLOB translate(lower(p))}.
   *   <li>{@code upper} and {@code lower} fold ASCII letters only (without the ICU extension).
   *       Not compensated in the SQL text: a connection that needs Unicode case mapping must
   *       register one-argument {@code upper}/{@code lower} functions doing {@code
   *       toUpperCase(Locale.ROOT)}/{@code toLowerCase(Locale.ROOT)} (an application-defined
   *       function overrides the built-in of the same name). The tests do so.
   *   <li>There is no exact decimal type: DECIMAL values are binary doubles, so decimal arithmetic
   *       is double arithmetic, and decimal division renders as {@code CAST(a AS REAL) / b}.
   *       Exact only where doubles happen to be (e.g. short binary fractions). Not compensated.
   *   <li>Typing is dynamic: a DOUBLE-typed COALESCE may hold an integer, which {@code /} would
   *       divide as an integer. Compensated: in DOUBLE (and DECIMAL) division and in DOUBLE
   *       arithmetic, operands that are not known to be REAL are wrapped in {@code CAST(x AS REAL)}.
   *   <li>Integer overflow turns into a REAL approximation; ours is the exact value. Not
   *       compensated.
   *   <li>Division by zero is NULL, as ours. {@code coalesce} needs two arguments, so a
   *       one-argument COALESCE renders as its argument.
   *   <li>SQLite's text functions stop at a U+0000 character (length, substr, GLOB); ours do not.
   *       A string literal containing U+0000 renders as {@code '..' || char(0) || '..'}, since
   *       SQL text cannot hold it; text with an unpaired surrogate cannot be sent to SQLite
   *       (UTF-8) and is rejected with a {@link QueryException}.
   *   <li>NaN does not exist (SQLite stores it as NULL): a NaN literal is rejected; infinities
   *       render as {@code 9e999}/{@code -9e999}. DATE and TIMESTAMP literals are rejected (SQLite
   *       has no such types and this renderer does not guess a storage format).
   *   <li>{@code CAST(x AS INTEGER)} truncates; ours rounds halves away from zero. Compensated:
   *       {@code CAST(ROUND(x) AS INTEGER)} (SQLite's round adds one half in floating point, which
   *       can differ from ours on doubles just below a half; not compensated). A cast to DECIMAL
   *       renders as its argument (no decimal type). Dynamic typing: a DOUBLE-typed CASE or
   *       COALESCE keeps an INT branch's integer, where ours makes it the nearest double (equal
   *       below 2<sup>53</sup>). Not compensated.
   *   <li>LIKE ... ESCAPE: the escape-aware pattern is translated to GLOB at render time, so the
   *       pattern must be a constant (a per-row pattern with ESCAPE is rejected with a {@link
   *       QueryException}).
   * </ul>
   *
   * <p>Agreeing with ours: integer division truncating toward zero; comparisons between integers
   * and reals (exact); text comparison (BINARY collation is code point order); length and substr
   * in code points with the same rules for every start and length; {@code ||} and trim.
   */
  SQLITE,

  /**
   * H2 2.x. Differences from our semantics:
   *
   * <ul>
   *   <li>Division by zero raises an error. Compensated: the divisor renders as {@code NULLIF(b,
   *       0)}.
   *   <li>Integer literals are 32-bit INTEGERs whose arithmetic overflows at 2<sup>31</sup>.
   *       Compensated: integer literals render as {@code CAST(n AS BIGINT)}, and integer
   *       arithmetic casts operands that are not known to be BIGINT. BIGINT overflow raises an
   *       error (ours: exact value). Not compensated.
   *   <li>BIGINT mixed with DOUBLE PRECISION computes in DECFLOAT (decimal), and a literal such
   *       as {@code 1.5E0} is a DECFLOAT. Compensated: double literals render as {@code CAST(x AS
   *       DOUBLE PRECISION)}, and in DOUBLE arithmetic, COALESCE and CASE every operand that is
   *       not already a double is cast to DOUBLE PRECISION, so H2 does IEEE arithmetic as we do.
   *   <li>Decimal division keeps the scale of its operands (1/3 is 0 for NUMERIC(1,0)), and an
   *       unbounded DECFLOAT divides to 100000 digits (seconds per row). Compensated: it renders as
   *       {@code CAST(CAST(a AS DECFLOAT(1000)) / NULLIF(CAST(b AS DECFLOAT(1000)), 0) AS
   *       DECFLOAT(34))}. Remaining differences, not compensated: operands beyond 1000
   *       significant digits are rounded first; H2 rounds the quotient to about 1000 digits and
   *       then half-up to 34, ours once half-even to 34, which differs only when the exact
   *       quotient has a tie at the 35th digit.
   *   <li>Converting a DOUBLE to a decimal (a DOUBLE meeting a DECIMAL in arithmetic, COALESCE or
   *       CASE) goes through the double's shortest decimal form ({@code Double.toString}); ours
   *       converts exactly ({@code new BigDecimal(double)}). Equal for doubles that are short
   *       binary fractions such as 0.375; differs for e.g. 0.1. Not compensated.
   *   <li>LIKE has a default escape character {@code \}. Compensated: {@code ESCAPE ''}. ILIKE
   *       renders as {@code LOWER(a) LIKE LOWER(p) ESCAPE ''}, which is our definition (H2's own
   *       ILIKE compares character by character). With an escape character, ILIKE of a constant
   *       pattern renders the pattern read with its escapes and then lower-cased (ours); of a
   *       per-row pattern as {@code LOWER(p)}, which is ours only when the escape character has no
   *       case. A per-row pattern ending with its escape character is NULL in H2, as ours.
   *   <li>{@code CAST(double AS BIGINT)} rounds halves up (-2.5 to -2), a decimal's away from zero.
   *       Compensated: {@code CAST(ROUND(x) AS BIGINT)}, as ours (away from zero). A double cast to
   *       DECFLOAT becomes its shortest decimal, as ours.
   *   <li>SUBSTRING treats start 0 as 1 and a negative length as empty, where ours (SQLite's)
   *       counts start 0 as the position before the first character and a negative length as the
   *       characters before the start. Compensated: with constant arguments the equivalent
   *       positive-length call is computed at render time; otherwise a CASE expression maps the
   *       arguments (repeating their SQL text).
   *   <li>Strings are measured in UTF-16 units (CHAR_LENGTH, SUBSTRING, LIKE's {@code _}) and
   *       compared by UTF-16 unit; ours use code points. Equal for text without characters beyond
   *       U+FFFF. Not compensated.
   *   <li>H2 infers the type of a bare NULL from its surroundings, and of a CASE or COALESCE from
   *       its branches; when those fold to constant NULLs it settles on text and then refuses to
   *       compare the result with a boolean or a number. Compensated: NULL literals render as
   *       {@code CAST(NULL AS type)} where the type is known, and CASE and COALESCE as {@code
   *       CAST(... AS type)} of their checked type.
   *   <li>Ours treats NaN as one value greater than every number; H2 errors when converting NaN
   *       to a decimal. DATE and TIMESTAMP literals render as {@code DATE '..'} and {@code
   *       TIMESTAMP WITH TIME ZONE '..Z'}.
   * </ul>
   *
   * <p>Agreeing with ours: three-valued logic, IN with NULLs (also an empty list), {@code ||} with
   * NULL, UPPER/LOWER (Java's case mapping), TRIM of spaces, exact comparison of numbers of
   * different types.
   */
  H2
}
