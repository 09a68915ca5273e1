package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link ZSet}: consolidation, maps, equality and the splice of positioned deltas. */
class ZSetTest {
  private static final Row A = Row.of("a");
  private static final Row B = Row.of("b");
  private static final Row C = Row.of("c");

  private static ZSet positioned(Object... rowWeightPosition) {
    Row[] rows = new Row[rowWeightPosition.length / 3];
    long[] weights = new long[rows.length];
    int[] positions = new int[rows.length];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = (Row) rowWeightPosition[3 * i];
      weights[i] = ((Number) rowWeightPosition[3 * i + 1]).longValue();
      positions[i] = ((Number) rowWeightPosition[3 * i + 2]).intValue();
    }
    return ZSet.fromArrays(rows, weights, positions);
  }

  @Test
  void consolidateSumsDuplicatesAndDropsZerosInFirstSeenOrder() {
    ZSet z = ZSet.builder().add(B, 2).add(A, 1).add(B, -2).add(C, 0).add(A, 3).add(C, -1).build();
    assertThat(z.size()).isEqualTo(6);
    ZSet c = z.consolidate();
    assertThat(c.entries()).containsExactly(new ZSet.Entry(A, 4, -1), new ZSet.Entry(C, -1, -1));
    assertThat(ZSet.builder().add(A, 0).build().consolidate().isEmpty()).isTrue();
    assertThat(ZSet.builder().add(A, 5).build().consolidate().entries()).containsExactly(new ZSet.Entry(A, 5, -1));
    assertThat(ZSet.empty().consolidate().isEmpty()).isTrue();
  }

  @Test
  void consolidateTreatsCanonicallyEqualRowsAsOne() {
    ZSet z = ZSet.builder().add(Row.of(2), 1).add(Row.of(2.0), 1).add(Row.of(new java.math.BigDecimal("2.00")), -2).build();
    assertThat(z.consolidate().isEmpty()).isTrue();
  }

  @Test
  void consolidateLargeBatchMatchesANaiveSum() {
    Random rnd = new Random(42);
    for (int size : new int[] {2, 7, 8, 9, 16, 100, 5000}) {
      ZSet.Builder b = ZSet.builder();
      Map<Row, Long> naive = new LinkedHashMap<>();
      for (int i = 0; i < size; i++) {
        Row r = Row.of(rnd.nextInt(Math.max(1, size / 3)));
        long w = rnd.nextInt(7) - 3;
        b.add(r, w);
        naive.merge(r, w, Long::sum);
      }
      naive.values().removeIf(w -> w == 0);
      ZSet c = b.build().consolidate();
      Map<Row, Long> got = new LinkedHashMap<>();
      for (ZSet.Entry e : c) {
        assertThat(e.weight()).as("size %d: no zero weights", size).isNotZero();
        assertThat(got.put(e.row(), e.weight())).as("size %d: %s appears once", size, e.row()).isNull();
      }
      assertThat(got).as("size %d", size).isEqualTo(naive);
      // First-seen order is kept too.
      assertThat(new ArrayList<>(got.keySet())).as("size %d order", size).isEqualTo(new ArrayList<>(naive.keySet()));
    }
  }

  @Test
  void consolidateOfMoreThanEightEntriesCancelsExactly() {
    ZSet.Builder b = ZSet.builder();
    for (int i = 0; i < 20; i++) {
      b.insert(Row.of(i));
    }
    for (int i = 19; i >= 0; i--) {
      if (i != 13) {
        b.delete(Row.of(i));
      }
    }
    b.add(Row.of(13), 4);
    ZSet c = b.build().consolidate();
    assertThat(c.entries()).containsExactly(new ZSet.Entry(Row.of(13), 5, -1));
  }

  @Test
  void toMapIsTheConsolidatedContents() {
    ZSet z = ZSet.builder().add(A, 1).add(B, -1).add(A, 1).add(B, 1).add(C, 3).build();
    Map<Row, Long> m = z.toMap();
    assertThat(m).containsExactly(Map.entry(A, 2L), Map.entry(C, 3L));
    assertThat(ZSet.ofMap(m)).isEqualTo(z);
    assertThat(ZSet.ofMap(m).entries()).containsExactly(new ZSet.Entry(A, 2, -1), new ZSet.Entry(C, 3, -1));
  }

  @Test
  void equalityIgnoresOrderPositionsAndCancellation() {
    ZSet x = ZSet.of(A, B, A);
    ZSet y = ZSet.builder().add(B, 1).add(A, 2).add(C, 1).add(C, -1).build();
    assertThat(x).isEqualTo(y);
    assertThat(x.hashCode()).isEqualTo(y.hashCode());
    assertThat(positioned(A, 2, 0, B, 1, 2)).isEqualTo(y);
    assertThat(x).isNotEqualTo(ZSet.of(A, B));
    assertThat(ZSet.empty()).isEqualTo(ZSet.builder().add(A, 1).add(A, -1).build());
  }

  @Test
  void ofKeepsDuplicatesUntilConsolidated() {
    ZSet z = ZSet.of(A, A, B);
    assertThat(z.size()).isEqualTo(3);
    assertThat(z.hasPositions()).isFalse();
    assertThat(z.position(0)).isEqualTo(-1);
    assertThat(z.consolidate().size()).isEqualTo(2);
    assertThat(ZSet.of(List.of(A, B)).toMap()).containsExactly(Map.entry(A, 1L), Map.entry(B, 1L));
  }

  @Test
  void negateAndPlus() {
    ZSet z = ZSet.builder().add(A, 2).add(B, -1).build();
    assertThat(z.negate().toMap()).containsExactly(Map.entry(A, -2L), Map.entry(B, 1L));
    assertThat(z.plus(z.negate()).consolidate().isEmpty()).isTrue();
    assertThat(z.plus(ZSet.of(C)).size()).isEqualTo(3);
    ZSet p = positioned(A, -1, 0);
    assertThat(p.negate().position(0)).isZero();
    assertThat(p.plus(ZSet.empty()).hasPositions()).isFalse();
    assertThat(p.consolidate().hasPositions()).isFalse();
  }

  @Test
  void builderUpdateRetractsThenInserts() {
    ZSet z = ZSet.builder().update(A, B).build();
    assertThat(z.entries()).containsExactly(new ZSet.Entry(A, -1, -1), new ZSet.Entry(B, 1, -1));
  }

  @Test
  void spliceRetractsThenInserts() {
    List<Row> window = new ArrayList<>(List.of(A, B, C));
    // Remove C (pos 2) and A (pos 0), in descending old position; insert D at 0 and A at 2.
    Row d = Row.of("d");
    positioned(C, -1, 2, A, -1, 0, d, 1, 0, A, 1, 2).spliceInto(window);
    assertThat(window).containsExactly(d, B, A);
  }

  @Test
  void spliceWeightCoversConsecutivePositions() {
    List<Row> window = new ArrayList<>(List.of(A, B, B, B, C));
    positioned(B, -2, 1).spliceInto(window);
    assertThat(window).containsExactly(A, B, C);
    positioned(C, 3, 1).spliceInto(window);
    assertThat(window).containsExactly(A, C, C, C, B, C);
    positioned(A, 2, 6).spliceInto(window);
    assertThat(window).containsExactly(A, C, C, C, B, C, A, A);
  }

  @Test
  void spliceOfAnEmptyDeltaChangesNothing() {
    List<Row> window = new ArrayList<>(List.of(A));
    ZSet.empty().spliceInto(window);
    assertThat(window).containsExactly(A);
  }

  @Test
  void spliceRejectsAnEntryWithoutPosition() {
    List<Row> window = new ArrayList<>(List.of(A));
    assertThatThrownBy(() -> ZSet.of(B).spliceInto(window))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no position");
    assertThat(window).containsExactly(A);
  }

  @Test
  void spliceRejectsARetractionThatDoesNotMatch() {
    List<Row> window = new ArrayList<>(List.of(A, B));
    assertThatThrownBy(() -> positioned(A, -1, 1).spliceInto(window))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("does not match")
        .hasMessageContaining("['b']");
    assertThat(window).containsExactly(A, B);
    assertThatThrownBy(() -> positioned(B, -1, 2).spliceInto(window))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("end of a window of 2");
    // The second copy of a weight -2 retraction must match too.
    assertThatThrownBy(() -> positioned(A, -2, 0).spliceInto(new ArrayList<>(List.of(A, B))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("does not match");
  }

  @Test
  void spliceRejectsAnInsertionPastTheEnd() {
    List<Row> window = new ArrayList<>(List.of(A));
    assertThatThrownBy(() -> positioned(B, 1, 2).spliceInto(window))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("past the end of a window of 1");
    assertThat(window).containsExactly(A);
    positioned(B, 1, 1).spliceInto(window);
    assertThat(window).containsExactly(A, B);
  }

  @Test
  void toStringShowsWeightsAndPositions() {
    assertThat(positioned(A, -1, 3).toString()).isEqualTo("{['a'] -1 @3}");
    assertThat(ZSet.of(A).toString()).isEqualTo("{['a'] +1}");
  }
}
