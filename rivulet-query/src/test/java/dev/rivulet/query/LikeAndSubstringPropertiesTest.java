package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.ilike;
import static dev.rivulet.query.Exprs.like;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.query.expr.Evaluator;
import dev.rivulet.query.expr.ExprCompiler;
import dev.rivulet.query.expr.Scope;
import dev.rivulet.query.expr.StringFunctions;
import java.math.BigInteger;
import java.util.Locale;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * LIKE / ILIKE over random patterns of every shape (exact, prefix, suffix, contains, general)
 * against a regular-expression reference, and substr over every start and length against a
 * reference that numbers code points and keeps those in range; both with astral characters.
 */
class LikeAndSubstringPropertiesTest {
  private static final Scope SCOPE = TestScope.of("r", "s STRING, p STRING");
  private static final String[] UNITS = {"a", "b", "A", "%", "_", "\ud83d\ude00"};

  private static String random(Random rnd, int max, boolean wildcards) {
    StringBuilder sb = new StringBuilder();
    for (int i = rnd.nextInt(max + 1); i > 0; i--) {
      String u = UNITS[rnd.nextInt(UNITS.length)];
      sb.append(!wildcards && (u.equals("%") || u.equals("_")) ? "b" : u);
    }
    return sb.toString();
  }

  /** The reference: % is any run of characters, _ is one code point, everything else itself. */
  private static boolean reference(String text, String pattern, boolean ci) {
    StringBuilder re = new StringBuilder();
    pattern.codePoints().forEach(cp -> re.append(cp == '%' ? ".*" : cp == '_' ? "." : Pattern.quote(Character.toString(cp))));
    String t = ci ? text.toLowerCase(Locale.ROOT) : text;
    String p = ci ? re.toString().toLowerCase(Locale.ROOT).replace("\\q", "\\Q").replace("\\e", "\\E") : re.toString();
    return Pattern.compile(p, Pattern.DOTALL).matcher(t).matches();
  }

  @Test
  void likeMatchesTheReferenceOnEveryPatternShape() {
    Random rnd = new Random(41);
    Evaluator like = ExprCompiler.compile(like(col("r.s"), col("r.p")), SCOPE);
    Evaluator ilike = ExprCompiler.compile(ilike(col("r.s"), col("r.p")), SCOPE);
    String[] shapes = {"%", "%%", "x%", "%x", "%x%", "x", "x%x", "_x%", "%x_", "%x%x%"};
    for (int i = 0; i < 4000; i++) {
      String text = random(rnd, 6, false);
      String body = random(rnd, 3, i % 2 == 0);
      String pattern = shapes[rnd.nextInt(shapes.length)].replace("x", body.isEmpty() ? "a" : body);
      if (rnd.nextInt(4) == 0) { // the text holds the literal at the very start or end
        text = rnd.nextBoolean() ? body + text : text + body;
      }
      assertThat(like.eval(Row.of(text, pattern))).as("'%s' LIKE '%s'", text, pattern)
          .isEqualTo(reference(text, pattern, false));
      assertThat(ilike.eval(Row.of(text, pattern))).as("'%s' ILIKE '%s'", text, pattern)
          .isEqualTo(reference(text, pattern, true));
    }
  }

  /** substr from its definition: the code points at positions [from, to) that exist. */
  private static String referenceSubstr(String s, long y, long z) {
    int[] cps = s.codePoints().toArray();
    BigInteger n = BigInteger.valueOf(cps.length);
    BigInteger start = y > 0 ? BigInteger.valueOf(y) : y < 0 ? n.add(BigInteger.valueOf(y)).add(BigInteger.ONE)
        : BigInteger.ZERO;
    BigInteger end = start.add(BigInteger.valueOf(z));
    BigInteger from = z >= 0 ? start : end;
    BigInteger to = z >= 0 ? end : start;
    StringBuilder out = new StringBuilder();
    for (int p = 1; p <= cps.length; p++) {
      BigInteger bp = BigInteger.valueOf(p);
      if (bp.compareTo(from) >= 0 && bp.compareTo(to) < 0) {
        out.appendCodePoint(cps[p - 1]);
      }
    }
    return out.toString();
  }

  @Test
  void substrMatchesItsDefinitionForEveryStartAndLength() {
    for (String s : new String[] {"", "h", "hello", "a\ud83d\ude00b", "\ud83d\ude00\ud83d\ude00x", "\ud83d\ude00",
        "\ud83d\ude00\ud83d\ude00"}) {
      int n = s.codePointCount(0, s.length());
      for (long y = -n - 3; y <= n + 3; y++) {
        for (long z = -n - 3; z <= n + 3; z++) {
          assertThat(StringFunctions.substring(s, y, z)).as("substr('%s', %d, %d)", s, y, z)
              .isEqualTo(referenceSubstr(s, y, z));
        }
        for (long z : new long[] {Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1, Long.MAX_VALUE - 1}) {
          assertThat(StringFunctions.substring(s, y, z)).as("substr('%s', %d, %d)", s, y, z)
              .isEqualTo(referenceSubstr(s, y, z));
        }
      }
      for (long y : new long[] {Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1}) {
        for (long z : new long[] {Long.MAX_VALUE, Long.MIN_VALUE, -1, 0, 1, 3}) {
          assertThat(StringFunctions.substring(s, y, z)).as("substr('%s', %d, %d)", s, y, z)
              .isEqualTo(referenceSubstr(s, y, z));
        }
      }
    }
  }
}
