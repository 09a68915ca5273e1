package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@link Delta#takeAll}: a hydration-sized batch is moved into an empty buffer, anything else copied. */
class DeltaTakeAllTest {
  private static Delta filled(int n, long weight) {
    Delta d = new Delta();
    for (int i = 0; i < n; i++) {
      d.add(Row.of((long) i), weight + i % 3);
    }
    return d;
  }

  private static void assertEntries(Delta d, int from, int n, long weight) {
    for (int i = 0; i < n; i++) {
      assertThat(d.rows[from + i]).isEqualTo(Row.of((long) i));
      assertThat(d.weights[from + i]).isEqualTo(weight + i % 3);
    }
  }

  @Test
  void movesALargeBatchIntoAnEmptyBuffer() {
    Delta big = filled(5000, 1);
    Row[] arrays = big.rows;
    Delta into = new Delta();
    into.takeAll(big);
    assertThat(into.rows).isSameAs(arrays);
    assertThat(into.size).isEqualTo(5000);
    assertEntries(into, 0, 5000, 1);
    assertThat(big.isEmpty()).isTrue();
    big.add(Row.of(-1L), 1); // the emptied buffer stays usable and shares nothing with the target
    assertThat(into.rows[0]).isEqualTo(Row.of(0L));
  }

  @Test
  void copiesIntoANonEmptyBufferOrASmallBatch() {
    Delta into = filled(3, 5);
    Delta big = filled(5000, 1);
    into.takeAll(big);
    assertThat(into.size).isEqualTo(5003);
    assertEntries(into, 0, 3, 5);
    assertEntries(into, 3, 5000, 1);
    assertThat(big.isEmpty()).isTrue();

    Delta small = filled(10, 2);
    Delta empty = new Delta();
    Row[] smallRows = small.rows;
    empty.takeAll(small);
    assertThat(empty.rows).isNotSameAs(smallRows);
    assertEntries(empty, 0, 10, 2);
  }
}
