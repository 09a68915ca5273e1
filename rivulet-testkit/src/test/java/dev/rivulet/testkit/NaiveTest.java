package dev.rivulet.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.Aggregate;
import dev.rivulet.engine.JoinType;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.engine.SortKey;
import dev.rivulet.engine.ZSet;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The oracle itself, checked on small hand-computed SQL examples: join null semantics and null
 * extension, aggregates over nulls and empty input, exact sums, and top-K order with null
 * placement, ties and windows.
 */
class NaiveTest {
  /** A multiset from alternating rows and multiplicities. */
  static Map<Row, Long> bag(Object... rowsAndCounts) {
    Map<Row, Long> m = new LinkedHashMap<>();
    for (int i = 0; i < rowsAndCounts.length; i += 2) {
      m.merge((Row) rowsAndCounts[i], ((Number) rowsAndCounts[i + 1]).longValue(), Long::sum);
    }
    return m;
  }

  static Row r(Object... values) {
    return Row.of(values);
  }

  static final Schema L = Schema.parse("lk INT, lv STRING");
  static final Schema R = Schema.parse("rk INT, rv STRING");
  static final Map<Row, Long> LEFT = bag(r(1, "a"), 1, r(null, "b"), 1, r(2, "c"), 2, r(1, "d"), 1);
  static final Map<Row, Long> RIGHT = bag(r(1, "x"), 1, r(1, "y"), 2, r(null, "z"), 1, r(3, "w"), 1);
  static final Map<Row, Long> INNER = bag(r(1, "a", 1, "x"), 1, r(1, "a", 1, "y"), 2, r(1, "d", 1, "x"), 1,
      r(1, "d", 1, "y"), 2);

  static Map<Row, Long> join(JoinType type) {
    return Naive.join(LEFT, L, RIGHT, R, type, List.of("lk"), List.of("rk"));
  }

  static Map<Row, Long> plus(Map<Row, Long> a, Object... more) {
    return Naive.concat(a, bag(more));
  }

  @Test
  void joinsFollowSqlNullSemantics() {
    assertThat(join(JoinType.INNER)).isEqualTo(INNER);
    assertThat(join(JoinType.LEFT)).isEqualTo(plus(INNER, r(null, "b", null, null), 1, r(2, "c", null, null), 2));
    assertThat(join(JoinType.RIGHT)).isEqualTo(plus(INNER, r(null, null, null, "z"), 1, r(null, null, 3, "w"), 1));
    assertThat(join(JoinType.FULL)).isEqualTo(plus(INNER, r(null, "b", null, null), 1, r(2, "c", null, null), 2,
        r(null, null, null, "z"), 1, r(null, null, 3, "w"), 1));
    assertThat(join(JoinType.ANTI)).isEqualTo(bag(r(null, "b"), 1, r(2, "c"), 2));
  }

  @Test
  void multiColumnKeysNeedEveryColumnEqualAndNonNull() {
    Schema l = Schema.parse("a INT, b STRING");
    Schema rr = Schema.parse("c INT, d STRING");
    Map<Row, Long> left = bag(r(1, "x"), 1, r(1, null), 1, r(2, "y"), 1);
    Map<Row, Long> right = bag(r(1, "x"), 1, r(1, null), 1, r(2, "z"), 1);
    assertThat(Naive.join(left, l, right, rr, JoinType.FULL, List.of("a", "b"), List.of("c", "d"))).isEqualTo(
        bag(r(1, "x", 1, "x"), 1, r(1, null, null, null), 1, r(2, "y", null, null), 1, r(null, null, 1, null), 1,
            r(null, null, 2, "z"), 1));
  }

  @Test
  void joinKeysCompareByValueAcrossNumericTypes() {
    Schema d = Schema.parse("rk DECIMAL, rv STRING");
    Map<Row, Long> right = bag(r(new BigDecimal("2.00"), "two"), 1, r(new BigDecimal("1.5"), "x"), 1);
    assertThat(Naive.join(bag(r(2, "a"), 1), L, right, d, JoinType.INNER, List.of("lk"), List.of("rk")))
        .isEqualTo(bag(r(2, "a", 2, "two"), 1));
  }

  static final Schema G = Schema.parse("g INT, i INT, d DOUBLE, m DECIMAL, s STRING");
  static final Map<Row, Long> GROUPS = bag(
      r(1, 1, 0.1, new BigDecimal("0.1"), "b"), 2,
      r(1, null, 1e17, null, null), 1,
      r(1, 4, -1e17, new BigDecimal("1.5"), "a"), 1,
      r(2, null, null, null, null), 1);

  @Test
  void aggregatesIgnoreNullsAndSumExactly() {
    Map<Row, Long> out = Naive.groupBy(GROUPS, G, List.of("g"), Aggregate.countRows("n"), Aggregate.count("i", "ci"),
        Aggregate.sum("i", "si"), Aggregate.avg("i", "ai"), Aggregate.sum("d", "sd"), Aggregate.avg("m", "am"),
        Aggregate.min("s", "lo"), Aggregate.max("s", "hi"), Aggregate.sum("m", "sm"));
    // sum(d) is 0.1 + 0.1 + 1e17 - 1e17 computed exactly (left-to-right doubles would give 0).
    assertThat(out).isEqualTo(bag(
        r(1, 4, 3, 6, 2, 0.2, new BigDecimal("0.5666666666666666666666666666666667"), "a", "b", new BigDecimal("1.7")), 1,
        r(2, 1, 0, null, null, null, null, null, null, null), 1));
  }

  @Test
  void globalAggregateHasOneRowEvenOverNothing() {
    Aggregate[] aggs = {Aggregate.countRows("n"), Aggregate.count("i", "c"), Aggregate.sum("i", "s"),
        Aggregate.avg("d", "a"), Aggregate.min("s", "lo"), Aggregate.max("m", "hi")};
    assertThat(Naive.groupBy(Map.of(), G, List.of(), aggs)).isEqualTo(bag(r(0, 0, null, null, null, null), 1));
    assertThat(Naive.groupBy(Map.of(), G, List.of("g"), aggs)).isEmpty();
    assertThat(Naive.groupBy(bag(r(2, null, null, null, null), 3), G, List.of(), aggs))
        .isEqualTo(bag(r(3, 0, null, null, null, null), 1));
  }

  @Test
  void sumsOverflowIntoDecimalsAndAveragesRoundToDouble() {
    Map<Row, Long> in = bag(r(1, Long.MAX_VALUE, null, null, null), 2, r(2, 1, null, null, null), 2,
        r(2, 2, null, null, null), 1);
    assertThat(Naive.groupBy(in, G, List.of("g"), Aggregate.sum("i", "s"), Aggregate.avg("i", "a"))).isEqualTo(bag(
        r(1, new BigDecimal("18446744073709551614"), (double) Long.MAX_VALUE), 1,
        r(2, 4, 4.0 / 3), 1));
  }

  @Test
  void minAndMaxUseCodePointOrderForStrings() {
    Map<Row, Long> in = bag(r(1, null, null, null, "\uff5e"), 1, r(1, null, null, null, "\ud834\udd1e"), 1);
    assertThat(Naive.groupBy(in, G, List.of(), Aggregate.min("s", "lo"), Aggregate.max("s", "hi")))
        .isEqualTo(bag(r("\uff5e", "\ud834\udd1e"), 1));
  }

  static final Schema T = Schema.parse("p INT, x INT");
  static final Map<Row, Long> T_ROWS = bag(r(1, 3), 1, r(1, null), 2, r(1, 1), 1, r(1, 2), 2, r(2, 5), 1);

  static List<Row> rows(Object... xs) {
    List<Row> out = new ArrayList<>();
    for (Object x : xs) {
      out.add(r(1, x));
    }
    return out;
  }

  static List<Row> window(SortKey key, long offset, long limit) {
    return Naive.topK(T_ROWS, T, List.of("p"), List.of(key), offset, limit).getOrDefault(r(1), List.of());
  }

  @Test
  void topKPlacesNullsAsTheSortKeySays() {
    long all = Long.MAX_VALUE;
    assertThat(window(SortKey.asc("x"), 0, all)).isEqualTo(rows(1, 2, 2, 3, null, null));
    assertThat(window(SortKey.desc("x"), 0, all)).isEqualTo(rows(null, null, 3, 2, 2, 1));
    assertThat(window(SortKey.asc("x").withNullsFirst(), 0, all)).isEqualTo(rows(null, null, 1, 2, 2, 3));
    assertThat(window(SortKey.desc("x").withNullsLast(), 0, all)).isEqualTo(rows(3, 2, 2, 1, null, null));
  }

  @Test
  void topKCutsEachPartitionsWindow() {
    Map<Row, List<Row>> w = Naive.topK(T_ROWS, T, List.of("p"), List.of(SortKey.asc("x")), 1, 3);
    assertThat(w).isEqualTo(Map.of(r(1), rows(2, 2, 3)));
    assertThat(Naive.topK(T_ROWS, T, List.of("p"), List.of(SortKey.asc("x")), 0, 1))
        .isEqualTo(Map.of(r(1), rows(1), r(2), List.of(r(2, 5))));
    assertThat(Naive.topK(T_ROWS, T, List.of(), List.of(SortKey.asc("x")), 6, 10))
        .isEqualTo(Map.of(r(), List.of(r(1, null))));
    assertThat(Naive.topK(T_ROWS, T, List.of(), List.of(SortKey.asc("x")), 100, 10)).isEmpty();
    assertThat(Naive.topK(T_ROWS, T, List.of(), List.of(SortKey.asc("x")), 0, 0)).isEmpty();
    assertThat(Naive.multiset(w)).isEqualTo(bag(r(1, 2), 2, r(1, 3), 1));
  }

  @Test
  void topKBreaksTiesByTheWholeRow() {
    Schema s = Schema.parse("x INT, y STRING");
    Map<Row, Long> in = bag(r(1, "b"), 1, r(0, "c"), 1, r(1, "a"), 1);
    assertThat(Naive.topK(in, s, List.of(), List.of(SortKey.desc("x")), 0, 10))
        .isEqualTo(Map.of(r(), List.of(r(1, "a"), r(1, "b"), r(0, "c"))));
  }

  @Test
  void linearOperatorsAddUpAndDropZeros() {
    Map<Row, Long> in = bag(r(1, "a"), 1, r(1, "b"), 2, r(2, "c"), -1);
    assertThat(Naive.map(in, row -> r(row.get(0)))).isEqualTo(bag(r(1), 3, r(2), -1));
    assertThat(Naive.filter(in, row -> row.getLong(0) == 1)).isEqualTo(bag(r(1, "a"), 1, r(1, "b"), 2));
    assertThat(Naive.flatMap(in, row -> List.of(r(0), r(0)))).isEqualTo(bag(r(0), 4));
    assertThat(Naive.negate(in)).isEqualTo(bag(r(1, "a"), -1, r(1, "b"), -2, r(2, "c"), 1));
    assertThat(Naive.concat(in, Naive.negate(in))).isEmpty();
    assertThat(Naive.consolidate(bag(r(1), 0, r(2), 2))).isEqualTo(bag(r(2), 2));
    assertThat(Naive.distinct(bag(r(1), 3, r(2), -1, r(3), 1))).isEqualTo(bag(r(1), 1, r(3), 1));
  }

  @Test
  void reduceHandsEachGroupWithItsMultiplicities() {
    Schema s = Schema.parse("k INT, v INT");
    Map<Row, Long> in = bag(r(1, 5), 2, r(1, 6), 1, r(null, 7), 1);
    Map<Row, Long> out = Naive.reduce(in, s, List.of("k"), (key, group) -> {
      long n = 0;
      for (ZSet.Entry e : group) {
        n += e.weight();
      }
      return ZSet.builder().add(key.append(n), 2).build();
    });
    assertThat(out).isEqualTo(bag(r(1, 3), 2, r(null, 1), 2));
  }

  @Test
  void nonLinearOperatorsRejectNegativeRelations() {
    assertThatThrownBy(() -> Naive.join(bag(r(1, "a"), -1), L, Map.of(), R, JoinType.INNER, List.of("lk"),
        List.of("rk"))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("multiplicity -1");
    assertThatThrownBy(() -> Naive.groupBy(bag(r(1, 1, 1, 1, "a"), -2), G, List.of()))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
