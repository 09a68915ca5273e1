package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A hydration's one-pass selection ({@link FirstRows}) takes exactly what the general selection
 * of the deferred rows ({@link DeferredRows#takeFirst}, every prefix computed first) takes from
 * the same batch, sorted and consolidated alike, and leaves the rest of the batch in it; on a
 * large batch it computes second prefixes for a small part of the rows only. Orders on INT (both
 * directions, nulls either end, values at and beyond the long extremes), text and DOUBLE first
 * keys; batches with repeated rows. Fixed seeds, named in every failure.
 */
class FirstRowsTest {
  private static final ColumnType[] TYPES = {ColumnType.INT, ColumnType.INT, ColumnType.STRING, ColumnType.DOUBLE};

  private static Row row(Random rnd, long id) {
    // Nulls, the long extremes and integers beyond 64 bits all meet RowOrder's prefix sentinels.
    Number score = switch (rnd.nextInt(14)) {
      case 0, 1 -> null;
      case 2 -> rnd.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE;
      case 3 -> rnd.nextBoolean() ? BigInteger.TEN.pow(20) : BigInteger.TEN.pow(20).negate();
      default -> (long) rnd.nextInt(12);
    };
    String name = rnd.nextInt(7) == 0 ? null : (char) ('a' + rnd.nextInt(4)) + "bcdefghijkl" + rnd.nextInt(9);
    Double x = rnd.nextInt(7) == 0 ? null : rnd.nextInt(10) / 4.0;
    return Row.of(id, score, name, x);
  }

  private static RowOrder order(Random rnd) {
    int first = 1 + rnd.nextInt(3);
    int second = rnd.nextBoolean() ? 0 : 1 + rnd.nextInt(3);
    int[] columns = second == first || second == 0 ? new int[] {first, 0} : new int[] {first, second, 0};
    boolean[] desc = new boolean[columns.length];
    boolean[] nullsFirst = new boolean[columns.length];
    ColumnType[] types = new ColumnType[columns.length];
    for (int i = 0; i < columns.length; i++) {
      desc[i] = rnd.nextBoolean();
      nullsFirst[i] = rnd.nextBoolean();
      types[i] = TYPES[columns[i]];
    }
    return new RowOrder(columns, desc, nullsFirst, types);
  }

  @Test
  void takesWhatTheGeneralSelectionTakesAndLeavesTheRest() {
    for (long seed = 1; seed <= 300; seed++) {
      Random rnd = new Random(seed);
      RowOrder order = order(rnd);
      int n = 2 + rnd.nextInt(seed % 10 == 0 ? 3000 : 200);
      Row[] batch = new Row[n];
      for (int i = 0; i < n; i++) {
        batch[i] = i > 0 && rnd.nextInt(6) == 0 ? batch[rnd.nextInt(i)] : row(rnd, i);
      }
      int want = 1 + rnd.nextInt(Math.min(n - 1, 1 + rnd.nextInt(60)));
      DeferredRows general = new DeferredRows(batch.clone(), null, null, null, n, 8);
      SortedBatch expected = general.takeFirst(want, order, "t");
      Row[] rows = batch.clone();
      FirstRows first = FirstRows.select(rows, n, want, order);
      SortedBatch got = first.take(rows, "t");
      String as = "seed " + seed + " (n " + n + ", want " + want + ")";
      assertThat(got.size).as(as + ": size").isEqualTo(expected.size);
      assertThat(Arrays.copyOf(got.rows, got.size)).as(as + ": rows").isEqualTo(Arrays.copyOf(expected.rows, expected.size));
      assertThat(Arrays.copyOf(got.counts, got.size)).as(as + ": counts").isEqualTo(Arrays.copyOf(expected.counts, expected.size));
      assertThat(Arrays.copyOf(got.p0, got.size)).as(as + ": first prefixes").isEqualTo(Arrays.copyOf(expected.p0, expected.size));
      assertThat(Arrays.copyOf(got.p1, got.size)).as(as + ": second prefixes").isEqualTo(Arrays.copyOf(expected.p1, expected.size));
      assertThat(first.left()).as(as + ": entries left").isEqualTo(general.size());
      Map<Row, Integer> rest = new HashMap<>();
      for (Row r : batch) {
        rest.merge(r, 1, Integer::sum);
      }
      for (int i = 0; i < got.size; i++) {
        rest.merge(got.rows[i], (int) -got.counts[i], Integer::sum);
      }
      rest.values().removeIf(c -> c == 0);
      Map<Row, Integer> left = new HashMap<>();
      for (int i = 0; i < first.left(); i++) {
        left.merge(rows[i], 1, Integer::sum);
      }
      assertThat(left).as(as + ": the batch minus the rows taken").isEqualTo(rest);
      for (int i = first.left(); i < n; i++) {
        assertThat(rows[i]).as(as + ": cleared tail").isNull();
      }
    }
  }

  @Test
  void aLargeBatchGetsSecondPrefixesForFewRows() {
    RowOrder byScoreThenId = new RowOrder(new int[] {1, 0}, new boolean[] {true, false}, new boolean[] {false, false},
        new ColumnType[] {ColumnType.INT, ColumnType.INT});
    Random rnd = new Random(7);
    int n = 100_000;
    Row[] rows = new Row[n];
    for (int i = 0; i < n; i++) {
      rows[i] = Row.of((long) i, (long) rnd.nextInt(1_000_000));
    }
    List<Row> naive = new ArrayList<>(Arrays.asList(rows));
    naive.sort(byScoreThenId);
    FirstRows first = FirstRows.select(rows, n, 300, byScoreThenId);
    SortedBatch got = first.take(rows, "t");
    assertThat(Arrays.asList(got.rows).subList(0, got.size)).isEqualTo(naive.subList(0, 300));
    assertThat(first.secondPrefixes).as("rows that could be among the first").isLessThan(n / 20);
  }
}
