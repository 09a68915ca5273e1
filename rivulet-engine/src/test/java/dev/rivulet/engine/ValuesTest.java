package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The canonical-value rule and the total order of {@link Values}. */
class ValuesTest {

  private static void assertOneValue(Object... forms) {
    Object first = Values.canonical(forms[0]);
    for (Object f : forms) {
      Object c = Values.canonical(f);
      assertThat(c).as("canonical(%s: %s)", f.getClass().getSimpleName(), f).isEqualTo(first);
      assertThat(c.hashCode()).as("hash of canonical(%s)", f).isEqualTo(first.hashCode());
      assertThat(Values.compare(c, first)).as("compare(canonical(%s), first)", f).isZero();
      assertThat(Values.isCanonical(c)).as("isCanonical(canonical(%s))", f).isTrue();
      assertThat(Row.of(f)).isEqualTo(Row.of(forms[0]));
      assertThat(Row.of(f).hashCode()).isEqualTo(Row.of(forms[0]).hashCode());
    }
  }

  @Nested
  class Numbers {
    @Test
    void integralFormsOfTwoAreOneValue() {
      assertOneValue(2, 2L, 2.0, 2.0f, new BigDecimal("2.00"), BigInteger.TWO, (short) 2, (byte) 2,
          new BigDecimal("0.2E1"));
      assertThat(Values.canonical(2.0)).isInstanceOf(Long.class).isEqualTo(2L);
      assertThat(Values.canonical(new BigDecimal("2.00"))).isEqualTo(2L);
    }

    @Test
    void integralFormsAreOneRowKey() {
      Map<Row, String> m = new HashMap<>();
      m.put(Row.of(2, "a"), "int");
      assertThat(m.get(Row.of(2.0, "a"))).isEqualTo("int");
      assertThat(m.get(Row.of(new BigDecimal("2.00"), "a"))).isEqualTo("int");
      assertThat(m.get(Row.of(BigInteger.TWO, "a"))).isEqualTo("int");
      assertThat(m.get(Row.of(2.0f, "a"))).isEqualTo("int");
      assertThat(m.get(Row.of(2.5, "a"))).isNull();
    }

    @Test
    void exactFractionsAreOneDouble() {
      assertOneValue(1.5, new BigDecimal("1.50"), 1.5f, new BigDecimal("15E-1"));
      assertThat(Values.canonical(new BigDecimal("1.50"))).isInstanceOf(Double.class).isEqualTo(1.5);
    }

    @Test
    void inexactDecimalStaysDecimalAndDiffersFromTheDouble() {
      Object dec = Values.canonical(new BigDecimal("0.1"));
      Object dbl = Values.canonical(0.1);
      assertThat(dec).isInstanceOf(BigDecimal.class);
      assertThat(dbl).isInstanceOf(Double.class);
      assertThat(dec).isNotEqualTo(dbl);
      assertThat(Row.of(new BigDecimal("0.1"))).isNotEqualTo(Row.of(0.1));
      // The double 0.1 is 0.1000000000000000055511151231257827..., above the decimal 0.1.
      assertThat(Values.compare(dec, dbl)).isNegative();
      assertThat(Values.compare(dbl, dec)).isPositive();
      // Trailing zeros do not make a different decimal.
      assertOneValue(new BigDecimal("0.1"), new BigDecimal("0.100"), new BigDecimal("1E-1"));
    }

    @Test
    void negativeZeroIsZero() {
      assertOneValue(0, -0.0, 0.0, -0.0f, new BigDecimal("-0.000"), BigInteger.ZERO);
      assertThat(Values.canonical(-0.0)).isEqualTo(0L);
    }

    @Test
    void allNaNsAreOneValue() {
      double otherNaN = Double.longBitsToDouble(0x7ff8_0000_0000_0001L);
      assertThat(Double.isNaN(otherNaN)).isTrue();
      assertOneValue(Double.NaN, Float.NaN, otherNaN, 0.0 / 0.0);
      assertThat(Row.of(Double.NaN)).isEqualTo(Row.of(otherNaN));
    }

    @Test
    void integersBeyondLongAreExactAndStable() {
      BigInteger big = BigInteger.valueOf(Long.MAX_VALUE).multiply(BigInteger.TEN).add(BigInteger.ONE);
      Object c = Values.canonical(big);
      assertThat(c).isInstanceOf(BigDecimal.class);
      assertThat(((BigDecimal) c).toBigIntegerExact()).isEqualTo(big);
      assertOneValue(big, new BigDecimal(big), new BigDecimal(big).setScale(3));
      assertThat(Values.compare(c, Long.MAX_VALUE)).isPositive();
      assertThat(Values.compare(Values.canonical(big.negate()), Long.MIN_VALUE)).isNegative();
      // The bounds of long stay longs, whatever they arrive as.
      assertOneValue(Long.MAX_VALUE, BigInteger.valueOf(Long.MAX_VALUE), new BigDecimal(Long.MAX_VALUE));
      assertOneValue(Long.MIN_VALUE, BigInteger.valueOf(Long.MIN_VALUE), -9.223372036854775808E18);
      assertThat(Values.canonical(BigInteger.valueOf(Long.MIN_VALUE))).isInstanceOf(Long.class);
    }

    @Test
    void twoToThe63AgreesAcrossTypes() {
      BigInteger twoTo63 = BigInteger.ONE.shiftLeft(63);
      double asDouble = 9.223372036854775808E18;
      assertThat(new BigDecimal(asDouble).toBigIntegerExact()).isEqualTo(twoTo63);
      assertOneValue(asDouble, new BigDecimal("9223372036854775808"), new BigDecimal("9.223372036854775808E18"),
          twoTo63);
      assertThat(Values.canonical(asDouble)).isNotEqualTo(Long.MAX_VALUE);
      assertThat(Values.compare(Values.canonical(asDouble), Long.MAX_VALUE)).isPositive();
    }

    @Test
    void integralDoubleBeyondLongAgreesWithItsBigInteger() {
      BigInteger twoTo64 = BigInteger.ONE.shiftLeft(64);
      BigInteger tenTo20 = BigInteger.TEN.pow(20);
      assertOneValue(0x1p64, twoTo64, new BigDecimal(twoTo64));
      assertOneValue(1e20, tenTo20, new BigDecimal("1E+20"));
    }

    @Test
    void longVersusDoubleNearTwoTo53IsExact() {
      long big = (1L << 53) + 1; // not representable as a double
      double below = 0x1p53; // 2^53, canonically a long
      assertThat((double) big).isEqualTo(below); // the naive comparison would call them equal
      assertThat(Values.compare(big, Values.canonical(below))).isPositive();
      // A non-integral double between two longs.
      double half = 0x1p51 + 0.5;
      assertThat(Values.canonical(half)).isInstanceOf(Double.class);
      assertThat(Values.compare((1L << 51), half)).isNegative();
      assertThat(Values.compare((1L << 51) + 1, half)).isPositive();
      assertThat(Values.compare(half, (1L << 51) + 1)).isNegative();
      // Long.MAX_VALUE converts to exactly 2^63 as a double, yet is below it.
      assertThat(Values.compareNumbers(Long.MAX_VALUE, 9.223372036854775808E18)).isNegative();
      assertThat(Values.compareNumbers(9.223372036854775808E18, Long.MAX_VALUE)).isPositive();
    }

    @Test
    void nanSortsAfterEveryNumber() {
      Object nan = Values.canonical(Double.NaN);
      Object hugeDecimal = Values.canonical(new BigDecimal("1E+400"));
      for (Object n : List.of(Long.MAX_VALUE, Double.POSITIVE_INFINITY, hugeDecimal, 1.5, Double.NEGATIVE_INFINITY)) {
        assertThat(Values.compare(nan, n)).as("NaN vs %s", n).isPositive();
        assertThat(Values.compare(n, nan)).as("%s vs NaN", n).isNegative();
      }
      assertThat(Values.compare(nan, Values.canonical(Float.NaN))).isZero();
      // NaN is still a number: below every string.
      assertThat(Values.compare(nan, "")).isNegative();
    }

    @Test
    void numbersSortInMathematicalOrder() {
      List<Object> expected = List.of(
          Double.NEGATIVE_INFINITY,
          Values.canonical(new BigDecimal("-1E+400")),
          Long.MIN_VALUE,
          -1.5,
          Values.canonical(new BigDecimal("-0.1")),
          0L,
          Values.canonical(new BigDecimal("0.1")),
          0.1,
          1L,
          1.5,
          Long.MAX_VALUE,
          Values.canonical(9.223372036854775808E18),
          Values.canonical(new BigDecimal("9223372036854775809")),
          Values.canonical(new BigDecimal("1E+400")),
          Double.POSITIVE_INFINITY,
          Double.NaN);
      List<Object> shuffled = new ArrayList<>(expected);
      Collections.shuffle(shuffled, new java.util.Random(7));
      shuffled.sort(Values::compare);
      assertThat(shuffled).containsExactlyElementsOf(expected);
    }
  }

  @Nested
  class Order {
    @Test
    void kindsAreRankedNullBooleanNumberStringBytesDateTimestamp() {
      List<Object> expected = new ArrayList<>();
      expected.add(null);
      expected.add(false);
      expected.add(true);
      expected.add(-5L);
      expected.add(Double.NaN);
      expected.add("");
      expected.add("a");
      expected.add(Bytes.of(new byte[0]));
      expected.add(Bytes.of(new byte[] {(byte) 0xff}));
      expected.add(LocalDate.of(1970, 1, 1));
      expected.add(LocalDate.of(2999, 1, 1));
      expected.add(Instant.EPOCH);
      List<Object> shuffled = new ArrayList<>(expected);
      Collections.shuffle(shuffled, new java.util.Random(3));
      shuffled.sort(Values::compare);
      assertThat(shuffled).containsExactlyElementsOf(expected);
    }

    @Test
    void stringsCompareByCodePointNotUtf16Unit() {
      String supplementary = new String(Character.toChars(0x1F600)); // a surrogate pair
      String bmpMax = "\uFFFF";
      assertThat(supplementary.compareTo(bmpMax)).as("UTF-16 order").isNegative();
      assertThat(Values.compare(supplementary, bmpMax)).as("code-point order").isPositive();
      assertThat(Values.compare(bmpMax, supplementary)).isNegative();
      assertThat(Values.compareCodePoints("\uE000", supplementary)).isNegative();
      assertThat(Values.compare("a" + supplementary, "a" + bmpMax + "z")).isPositive();
      // Two supplementary characters keep their code-point order.
      String lower = new String(Character.toChars(0x10000));
      String higher = new String(Character.toChars(0x10FFFF));
      assertThat(Values.compare(lower, higher)).isNegative();
      // Prefix order.
      assertThat(Values.compare("ab", "abc")).isNegative();
      assertThat(Values.compare("b", "abc")).isPositive();
      assertThat(Values.compare("Z", "a")).isNegative();
    }

    @Test
    void bytesAreUnsignedAndEqualByContent() {
      byte[] raw = {1, 2, 3};
      Object a = Values.canonical(raw);
      raw[0] = 9; // later changes do not reach the value
      Object b = Values.canonical(new byte[] {1, 2, 3});
      assertThat(a).isInstanceOf(Bytes.class).isEqualTo(b);
      assertThat(a.hashCode()).isEqualTo(b.hashCode());
      assertThat(Row.of((Object) new byte[] {1, 2, 3})).isEqualTo(Row.of(Bytes.of(new byte[] {1, 2, 3})));
      assertThat(a).isNotEqualTo(Values.canonical(new byte[] {1, 2}));

      Object high = Values.canonical(new byte[] {(byte) 0x80});
      Object low = Values.canonical(new byte[] {0x7f});
      assertThat(Values.compare(high, low)).as("0x80 is above 0x7f unsigned").isPositive();
      assertThat(Values.compare(Bytes.of(new byte[] {1}), Bytes.of(new byte[] {1, 0}))).isNegative();
      assertThat(Values.compare(Bytes.of(new byte[] {(byte) 0xff}), Bytes.of(new byte[] {0, 0, 0}))).isPositive();
      assertThat(((Bytes) a).toArray()).containsExactly(1, 2, 3);
    }

    @Test
    void booleansAndNulls() {
      assertThat(Values.compare(false, true)).isNegative();
      assertThat(Values.compare(null, false)).isNegative();
      assertThat(Values.compare(null, null)).isZero();
      assertThat(Values.compare(true, 0L)).isNegative();
    }
  }

  @Nested
  class Temporal {
    @Test
    void localDateTimeIsReadAsUtc() {
      Instant instant = Instant.parse("2024-02-29T13:45:10.123456789Z");
      LocalDateTime local = LocalDateTime.of(2024, 2, 29, 13, 45, 10, 123_456_789);
      assertOneValue(instant, local, OffsetDateTime.of(local.plusHours(2), ZoneOffset.ofHours(2)),
          ZonedDateTime.of(local, ZoneOffset.UTC).withZoneSameInstant(ZoneId.of("America/New_York")),
          java.sql.Timestamp.from(instant));
      assertThat(Values.canonical(local)).isInstanceOf(Instant.class).isEqualTo(instant);
    }

    @Test
    void datesNormalise() {
      LocalDate d = LocalDate.of(2001, 9, 9);
      assertOneValue(d, java.sql.Date.valueOf(d));
      assertThat(Values.canonical(new java.util.Date(1_000L))).isEqualTo(Instant.ofEpochSecond(1));
      assertThat(Values.compare(Values.canonical(Instant.ofEpochSecond(1)), Values.canonical(Instant.ofEpochSecond(2))))
          .isNegative();
      // A date and the instant of its midnight are different kinds: never equal.
      assertThat(Values.canonical(d)).isNotEqualTo(Values.canonical(d.atStartOfDay()));
      assertThat(Values.compare(d, Values.canonical(d.atStartOfDay()))).isNegative();
    }
  }

  @Nested
  class Other {
    @Test
    void charactersAreStrings() {
      assertOneValue('x', "x");
    }

    @Test
    void unsupportedTypesAreNamed() {
      for (Object v : List.of(new AtomicLong(2), UUID.randomUUID(), LocalTime.NOON, new Object(), List.of(1))) {
        assertThatThrownBy(() -> Values.canonical(v))
            .as("canonical(%s)", v.getClass().getName())
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining(v.getClass().getName());
      }
      assertThatThrownBy(() -> Row.of(1, UUID.randomUUID()))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("java.util.UUID");
    }

    @Test
    void sqlTimeIsUnsupportedWithANamedError() {
      // java.sql.Time is a java.util.Date whose toInstant() throws; it must still get the clear error.
      java.sql.Time t = java.sql.Time.valueOf("12:00:00");
      assertThatThrownBy(() -> Values.canonical(t))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("java.sql.Time");
    }

    @Test
    void isCanonicalRecognisesNonCanonicalForms() {
      assertThat(Values.isCanonical(2)).isFalse();
      assertThat(Values.isCanonical(2.0)).isFalse();
      assertThat(Values.isCanonical(new BigDecimal("1.50"))).isFalse();
      assertThat(Values.isCanonical(new BigDecimal("0.10"))).isFalse();
      assertThat(Values.isCanonical(new byte[0])).isFalse();
      assertThat(Values.isCanonical(2L)).isTrue();
      assertThat(Values.isCanonical(1.5)).isTrue();
      assertThat(Values.isCanonical(Values.canonical(new BigDecimal("0.10")))).isTrue();
    }

    @Test
    void renderQuotesStrings() {
      assertThat(Values.render(null)).isEqualTo("NULL");
      assertThat(Values.render("it's")).isEqualTo("'it''s'");
      assertThat(Row.of(1, "a", null).toString()).isEqualTo("[1, 'a', NULL]");
    }
  }
}
