package dev.rivulet.query.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import org.junit.jupiter.api.Test;

/**
 * {@link ChangeBuffer}: rows and weights in order, growth past the initial arrays, and a clear
 * that empties the buffer and lets go of the rows it held (small and grown buffers alike), so a
 * finished transaction's rows are not kept reachable until the next one overwrites them.
 */
class ChangeBufferTest {
  @Test
  void keepsRowsAndWeightsInOrderAcrossGrowth() {
    ChangeBuffer b = new ChangeBuffer();
    assertThat(b.isEmpty()).isTrue();
    for (int i = 0; i < 10; i++) {
      b.add(Row.of(i), i % 2 == 0 ? 1 : -1);
    }
    assertThat(b.size()).isEqualTo(10);
    assertThat(b.isEmpty()).isFalse();
    for (int i = 0; i < 10; i++) {
      assertThat(b.row(i)).isEqualTo(Row.of(i));
      assertThat(b.weight(i)).isEqualTo(i % 2 == 0 ? 1 : -1);
    }
  }

  @Test
  void clearLetsGoOfTheRows() {
    for (int n : new int[] {3, 100, 5000}) {
      ChangeBuffer b = new ChangeBuffer();
      for (int i = 0; i < n; i++) {
        b.add(Row.of(i, "r"), 1);
      }
      b.clear();
      assertThat(b.isEmpty()).isTrue();
      assertThat(b.size()).isZero();
      for (int i = 0; i < 3; i++) {
        assertThat(b.row(i)).as("n %d: slot %d after clear", n, i).isNull();
      }
      b.add(Row.of("next"), 2);
      assertThat(b.size()).isEqualTo(1);
      assertThat(b.row(0)).isEqualTo(Row.of("next"));
      assertThat(b.weight(0)).isEqualTo(2);
    }
  }
}
