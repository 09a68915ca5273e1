package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each column type's domain of canonical values, the type of a value, and which types compare. */
class ColumnTypeTest {
  private static final List<Object> SAMPLES = List.of(7L, 2.5, new BigDecimal("1.25"), "s", true,
      Bytes.of(new byte[] {1}), LocalDate.of(2024, 2, 29), Instant.ofEpochSecond(5), 1e19,
      new BigDecimal("1E+30"), Double.POSITIVE_INFINITY, Double.NaN, new Object());

  @Test
  void eachValueHasOneType() {
    assertThat(SAMPLES.stream().map(ColumnType::of).toList()).containsExactly(
        ColumnType.INT, ColumnType.DOUBLE, ColumnType.DECIMAL, ColumnType.STRING, ColumnType.BOOL, ColumnType.BYTES,
        ColumnType.DATE, ColumnType.TIMESTAMP, ColumnType.DOUBLE, ColumnType.DECIMAL, ColumnType.DOUBLE,
        ColumnType.DOUBLE, ColumnType.ANY);
  }

  @Test
  void domainsOfEachType() {
    assertThat(accepted(ColumnType.INT)).as("INT: longs and integers beyond 64 bits")
        .containsExactly(7L, 1e19, new BigDecimal("1E+30"));
    assertThat(accepted(ColumnType.DOUBLE)).containsExactly(7L, 2.5, 1e19, Double.POSITIVE_INFINITY, Double.NaN);
    assertThat(accepted(ColumnType.DECIMAL)).containsExactly(7L, 2.5, new BigDecimal("1.25"), 1e19,
        new BigDecimal("1E+30"), Double.POSITIVE_INFINITY, Double.NaN);
    assertThat(accepted(ColumnType.STRING)).containsExactly("s");
    assertThat(accepted(ColumnType.BOOL)).containsExactly(true);
    assertThat(accepted(ColumnType.BYTES)).containsExactly(Bytes.of(new byte[] {1}));
    assertThat(accepted(ColumnType.DATE)).containsExactly(LocalDate.of(2024, 2, 29));
    assertThat(accepted(ColumnType.TIMESTAMP)).containsExactly(Instant.ofEpochSecond(5));
    assertThat(accepted(ColumnType.ANY)).hasSameSizeAs(SAMPLES);
  }

  @Test
  void integersBeyond64BitsAreIntegralAndFinite() {
    assertThat(ColumnType.INT.accepts(-1e19)).isTrue();
    assertThat(ColumnType.INT.accepts(1.5e19 + 0.5)).as("still integral at that magnitude").isTrue();
    assertThat(ColumnType.INT.accepts(Double.NEGATIVE_INFINITY)).isFalse();
    assertThat(ColumnType.INT.accepts(new BigDecimal("12345678901234567890.5"))).isFalse();
    assertThat(ColumnType.INT.accepts(new BigDecimal("123456789012345678901"))).isTrue();
  }

  @Test
  void numericTypesCompareWithEachOtherAndAnyWithAll() {
    for (ColumnType a : ColumnType.values()) {
      for (ColumnType b : ColumnType.values()) {
        boolean expected = a == b || a == ColumnType.ANY || b == ColumnType.ANY || (a.isNumeric() && b.isNumeric());
        assertThat(a.comparableWith(b)).as("%s with %s", a, b).isEqualTo(expected);
      }
    }
    assertThat(List.of(ColumnType.values()).stream().filter(ColumnType::isNumeric).toList())
        .containsExactly(ColumnType.INT, ColumnType.DOUBLE, ColumnType.DECIMAL);
  }

  private static List<Object> accepted(ColumnType t) {
    return SAMPLES.stream().filter(t::accepts).toList();
  }
}
