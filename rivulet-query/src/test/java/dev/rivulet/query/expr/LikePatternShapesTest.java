package dev.rivulet.query.expr;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.query.ref.RefStrings;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link LikePattern}'s shapes (exact, prefix, suffix, contains: matched with {@code String}
 * methods) are taken for the patterns of their shape ({@link LikePattern#shape}) and agree with
 * the general matcher ({@link LikePattern#matchesGenerally}) and with the reference's plain LIKE
 * ({@link RefStrings#like}) on texts where the literal sits at the very start, the very end, both,
 * nowhere, or next to surrogate pairs, for LIKE and ILIKE.
 */
class LikePatternShapesTest {
  private static final String[] LITERALS = {"", "a", "ab", "\ud83d\ude00", "a\ud83d\ude00", "\u00c9t", "\uff5e",
      "\ude00", "\ud83d"};
  private static final String[] PADS = {"", "x", "\ud83d\ude00", "ab", "A"};

  @Test
  void everyShapeIsTakenAndAgreesWithTheGeneralMatcher() {
    int[] taken = new int[5];
    Random rnd = new Random(11);
    for (String lit : LITERALS) {
      for (String form : new String[] {"%s", "%s%%", "%%%s", "%%%s%%", "%s_%%"}) {
        String pattern = String.format(form, lit);
        for (boolean ci : new boolean[] {false, true}) {
          LikePattern p = ci ? LikePattern.ilike(pattern) : LikePattern.like(pattern);
          boolean lone = lit.length() == 1 && Character.isSurrogate(lit.charAt(0));
          String want = lit.isEmpty() && !form.equals("%s") && !form.equals("%s_%%") ? null
              : lone && !form.equals("%s") ? "GENERAL" : expectedShape(form);
          if (want != null) {
            assertThat(p.shape()).as("shape of '%s'", pattern).isEqualTo(want);
          }
          taken[java.util.List.of("EXACT", "PREFIX", "SUFFIX", "CONTAINS", "GENERAL").indexOf(p.shape())]++;
          for (String before : PADS) {
            for (String after : PADS) {
              for (String text : new String[] {before + lit + after, lit + after, before + lit, lit, before + after,
                  (before + lit + after).toUpperCase(java.util.Locale.ROOT), randomText(rnd)}) {
                boolean got = p.matches(text);
                assertThat(got).as("'%s' %s '%s' vs the general matcher", text, ci ? "ILIKE" : "LIKE", pattern)
                    .isEqualTo(p.matchesGenerally(text));
                assertThat(got).as("'%s' %s '%s' vs the reference", text, ci ? "ILIKE" : "LIKE", pattern)
                    .isEqualTo(RefStrings.like(text, pattern, ci));
              }
            }
          }
        }
      }
    }
    assertThat(java.util.Arrays.stream(taken).min().getAsInt())
        .as("patterns per shape EXACT, PREFIX, SUFFIX, CONTAINS, GENERAL: %s", java.util.Arrays.toString(taken))
        .isGreaterThan(3);
  }

  @Test
  void aMatchAtTheVeryStartOrEnd() {
    assertThat(LikePattern.like("ab%").matches("ab")).isTrue();
    assertThat(LikePattern.like("ab%").matches("xab")).isFalse();
    assertThat(LikePattern.like("%ab").matches("ab")).isTrue();
    assertThat(LikePattern.like("%ab").matches("abx")).isFalse();
    assertThat(LikePattern.like("%ab%").matches("ab")).isTrue();
    assertThat(LikePattern.like("%\ud83d\ude00%").matches("\ud83d\ude00")).isTrue();
    // a lone surrogate in the literal is no half of a character of the text
    assertThat(LikePattern.like("%\ude00").matches("\ud83d\ude00")).isFalse();
    assertThat(LikePattern.like("\ud83d%").matches("\ud83d\ude00")).isFalse();
    assertThat(LikePattern.like("%\ude00").matches("x\ude00")).isTrue();
  }

  private static String expectedShape(String form) {
    switch (form) {
      case "%s":
        return "EXACT";
      case "%s%%":
        return "PREFIX";
      case "%%%s":
        return "SUFFIX";
      case "%%%s%%":
        return "CONTAINS";
      default:
        return "GENERAL";
    }
  }

  private static String randomText(Random rnd) {
    StringBuilder sb = new StringBuilder();
    for (int i = rnd.nextInt(5); i > 0; i--) {
      sb.append(PADS[rnd.nextInt(PADS.length)]).append(LITERALS[rnd.nextInt(LITERALS.length)]);
    }
    return sb.toString();
  }
}
