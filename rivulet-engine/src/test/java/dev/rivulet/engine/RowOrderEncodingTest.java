package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link RowOrder}'s primitive prefixes agree with its comparison for every column type and
 * direction (a smaller prefix means an earlier row; a later row never has a smaller prefix), and
 * separate the values a prefix can tell apart, so the comparison is needed only on ties.
 */
class RowOrderEncodingTest {
  private static final ColumnType[] TYPES = {ColumnType.INT, ColumnType.DOUBLE, ColumnType.DECIMAL, ColumnType.STRING,
      ColumnType.BOOL, ColumnType.DATE, ColumnType.TIMESTAMP, ColumnType.BYTES};

  private static Object value(Random rnd, ColumnType t) {
    switch (t) {
      case INT:
        return rnd.nextInt(6) == 0 ? Values.canonical(new BigDecimal("1E+20").negate().pow(1 + rnd.nextInt(2)))
            : (long) rnd.nextInt(21) - 10;
      case DOUBLE:
        double[] specials = {Double.NEGATIVE_INFINITY, -0.5, 0.25, 3.5, 1e300, Double.POSITIVE_INFINITY, Double.NaN};
        return Values.canonical(rnd.nextBoolean() ? specials[rnd.nextInt(specials.length)] : (rnd.nextInt(9) - 4) / 4.0);
      case DECIMAL:
        return Values.canonical(new BigDecimal(rnd.nextInt(2001) - 1000).movePointLeft(rnd.nextInt(4)));
      case STRING:
        String[] units = {"a", "b", "\u00e9", "\ue000", "\uffff", "\ud83d\ude00", "", "z", "in module "};
        StringBuilder s = new StringBuilder();
        for (int i = rnd.nextInt(5); i > 0; i--) {
          s.append(units[rnd.nextInt(units.length)]);
        }
        return s.toString();
      case BOOL:
        return rnd.nextBoolean();
      case DATE:
        return LocalDate.ofEpochDay(rnd.nextInt(41) - 20);
      case TIMESTAMP:
        return Instant.ofEpochSecond(rnd.nextInt(41) - 20, rnd.nextInt(3) * 1000);
      default:
        return Bytes.of(new byte[] {(byte) rnd.nextInt(4)});
    }
  }

  @Test
  void prefixesAreMonotoneInTheOrderForEveryTypeAndDirection() {
    Random rnd = new Random(11);
    for (ColumnType t0 : TYPES) {
      for (int variant = 0; variant < 8; variant++) {
        boolean[] desc = {(variant & 1) != 0, (variant & 2) != 0};
        boolean[] nullsFirst = {(variant & 4) != 0, (variant & 1) == 0};
        RowOrder order = new RowOrder(new int[] {0, 1}, desc, nullsFirst, new ColumnType[] {t0, ColumnType.INT});
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
          rows.add(Row.of(rnd.nextInt(8) == 0 ? null : value(rnd, t0), rnd.nextInt(5) == 0 ? null : (long) rnd.nextInt(7), i));
        }
        rows.sort(order);
        for (int i = 1; i < rows.size(); i++) {
          Row a = rows.get(i - 1);
          Row b = rows.get(i);
          String what = t0 + " variant " + variant + ": " + a + " before " + b;
          assertThat(order.first(a)).as(what).isLessThanOrEqualTo(order.first(b));
          if (order.first(a) == order.first(b)) {
            assertThat(order.second(a)).as(what).isLessThanOrEqualTo(order.second(b));
          }
        }
      }
    }
  }

  @Test
  void prefixesSeparateDistinctValuesTheyCanRepresent() {
    Random rnd = new Random(5);
    for (ColumnType t : new ColumnType[] {ColumnType.DOUBLE, ColumnType.DECIMAL, ColumnType.BOOL, ColumnType.DATE,
        ColumnType.TIMESTAMP}) {
      for (boolean desc : new boolean[] {false, true}) {
        RowOrder order = new RowOrder(new int[] {0}, new boolean[] {desc}, new boolean[] {false}, new ColumnType[] {t});
        for (int i = 0; i < 200; i++) {
          Object x = value(rnd, t);
          Object y = value(rnd, t);
          int c = Values.compare(x, y);
          boolean sameSecond = t == ColumnType.TIMESTAMP && ((Instant) x).getEpochSecond() == ((Instant) y).getEpochSecond();
          if (c == 0 || sameSecond) {
            continue;
          }
          long px = order.first(Row.of(x));
          long py = order.first(Row.of(y));
          assertThat(Long.signum(Long.compare(px, py))).as("%s %s vs %s, desc %b", t, x, y, desc)
              .isEqualTo(desc ? -Integer.signum(c) : Integer.signum(c));
        }
      }
    }
  }

  @Test
  void stringPrefixesOrderTheFirstNineAsciiUnitsByCodePoint() {
    RowOrder order = new RowOrder(new int[] {0}, new boolean[] {false}, new boolean[] {false},
        new ColumnType[] {ColumnType.STRING});
    List<String> ascending = List.of("", "a", "a\u0000", "ab", "b", "\u00e9", "\ud7ff", "\ue000", "\ue001", "\uffff",
        "\ud800\udc00", "\ud83d\ude00", "\udbff\udfff");
    for (int i = 1; i < ascending.size(); i++) {
      assertThat(order.first(Row.of(ascending.get(i - 1)))).as("%s < %s", ascending.get(i - 1), ascending.get(i))
          .isLessThan(order.first(Row.of(ascending.get(i))));
    }
    assertThat(order.first(Row.of("abcdefghX"))).as("eighth unit").isLessThan(order.first(Row.of("abcdefghY")));
    assertThat(order.first(Row.of("abcdefghiX"))).as("only nine units").isEqualTo(order.first(Row.of("abcdefghiY")));
    assertThat(order.first(Row.of("\u00e9\u00e9X"))).as("two escaped units and one more")
        .isLessThan(order.first(Row.of("\u00e9\u00e9Y")));
    assertThat(order.first(Row.of("\u00e9\u00e9\u00e9X"))).as("the third escaped unit straddles")
        .isEqualTo(order.first(Row.of("\u00e9\u00e9\u00e9Y")));
  }

  @Test
  void aTextFirstKeysSecondPrefixHoldsUnitsTenToEighteenAndTiesGoToTheFullOrder() {
    for (boolean desc : new boolean[] {false, true}) {
      RowOrder order = new RowOrder(new int[] {0, 1}, new boolean[] {desc, false}, new boolean[] {false, false},
          new ColumnType[] {ColumnType.STRING, ColumnType.INT});
      Row a = Row.of("slow in module 1", 9L);
      Row b = Row.of("slow in module 2", 1L);
      Row c = Row.of("timeout in module 10", 1L);
      Row d = Row.of("timeout in module 11", 1L);
      assertThat(order.first(a)).isEqualTo(order.first(b));
      int sign = desc ? -1 : 1;
      assertThat(Long.signum(Long.compare(order.second(a), order.second(b)))).as("16th unit").isEqualTo(-sign);
      assertThat(order.second(c)).as("a 19th unit is beyond the prefixes").isEqualTo(order.second(d));
      assertThat(Integer.signum(order.compare(c, d))).as("full order decides").isEqualTo(-sign);
      assertThat(order.second(Row.of(null, 1L))).isEqualTo(Long.MAX_VALUE);
    }
    RowOrder nullsFirst = new RowOrder(new int[] {0}, new boolean[] {false}, new boolean[] {true},
        new ColumnType[] {ColumnType.STRING});
    assertThat(nullsFirst.first(Row.of((Object) null))).isLessThan(nullsFirst.first(Row.of("")));
    assertThat(nullsFirst.second(Row.of((Object) null))).isEqualTo(Long.MIN_VALUE);
  }

  @Test
  void otherwiseASecondPrefixOnlyBehindAnExactIntegerFirstKey() {
    ColumnType[] intInt = {ColumnType.INT, ColumnType.INT};
    RowOrder exact = new RowOrder(new int[] {0, 1}, new boolean[] {false, true}, new boolean[] {false, false}, intInt);
    assertThat(exact.second(Row.of(1, 5))).isEqualTo(~5L);
    assertThat(exact.second(Row.of(null, 5))).as("null sentinel").isZero();
    assertThat(exact.second(Row.of(1e20, 5))).as("beyond 64 bits").isZero();
    assertThat(exact.first(Row.of(1e20, 5))).isEqualTo(Long.MAX_VALUE);
    assertThat(exact.first(Row.of(-1e20, 5))).isEqualTo(Long.MIN_VALUE);
    RowOrder coarse = new RowOrder(new int[] {0, 1}, new boolean[] {false, false}, new boolean[] {false, false},
        new ColumnType[] {ColumnType.DOUBLE, ColumnType.INT});
    assertThat(coarse.second(Row.of(1.5, 5))).isZero();
    RowOrder single = new RowOrder(new int[] {0}, new boolean[] {false}, new boolean[] {false}, intInt);
    assertThat(single.second(Row.of(1, 5))).isZero();
    RowOrder none = new RowOrder(new int[0], new boolean[0], new boolean[0], new ColumnType[0]);
    assertThat(none.first(Row.of(1, 5))).isZero();
  }
}
