package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link Values#compareNumbers} over every pair of kinds, with NaN above all and infinities at the ends. */
class CompareNumbersTest {
  @Test
  void numbersOfEveryKindCompareByValue() {
    // Ascending, one of each kind where it fits; NaN is greater than every other number.
    List<Number> ascending = List.of(Double.NEGATIVE_INFINITY, new BigDecimal("-1E+30"), Long.MIN_VALUE, -2.5, -1L,
        new BigDecimal("-0.5"), 0L, new BigDecimal("0.25"), 0.5, 1L, 1.5, Long.MAX_VALUE, 1e19,
        new BigDecimal("1E+30"), Double.POSITIVE_INFINITY, Double.NaN);
    for (int i = 0; i < ascending.size(); i++) {
      for (int j = 0; j < ascending.size(); j++) {
        Number a = ascending.get(i);
        Number b = ascending.get(j);
        assertThat(Integer.signum(Values.compareNumbers(a, b))).as("%s vs %s", a, b).isEqualTo(Integer.compare(i, j));
      }
    }
  }

  @Test
  void streamsAndOperatorsAreNamedForMessages() {
    GraphBuilder b = Graph.builder();
    Stream in = b.input("in", Schema.parse("a INT"));
    Stream f = in.filter(r -> true).named("positive");
    assertThat(in.name()).isEqualTo("input:in");
    assertThat(f.name()).isEqualTo("positive");
    assertThat(f.toString()).isEqualTo("positive(a INT)");
    assertThat(in.map(Schema.parse("a INT"), r -> r).name()).isEqualTo("map#1");
  }
}
