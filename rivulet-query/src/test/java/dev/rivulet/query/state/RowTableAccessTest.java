package dev.rivulet.query.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import org.junit.jupiter.api.Test;

/** {@link RowTable}'s row-keyed access with primitive and general keys: put, get, remove, emptiness. */
class RowTableAccessTest {
  @Test
  void rowsAreStoredAndRemovedByTheirOwnKey() {
    // Key column 0: integers (primitive keys), then a string key turns the table general.
    RowTable t = new RowTable(new int[] {0});
    assertThat(t.isEmpty()).isTrue();
    assertThat(t.putRow(Row.of(1, "a"))).isNull();
    assertThat(t.isEmpty()).isFalse();
    assertThat(t.putRow(Row.of(1, "b"))).isEqualTo(Row.of(1, "a"));
    assertThat(t.removeRow(Row.of(2, "x"))).isNull();
    assertThat(t.removeRow(Row.of(1, "ignored"))).isEqualTo(Row.of(1, "b"));
    assertThat(t.isEmpty()).isTrue();
    assertThat(t.putRow(Row.of(3, "c"))).isNull();
    assertThat(t.putRow(Row.of("k", "d"))).isNull();
    assertThat(t.getRow(Row.of(3, "?"))).isEqualTo(Row.of(3, "c"));
    assertThat(t.rows()).containsExactlyInAnyOrder(Row.of(3, "c"), Row.of("k", "d"));
    assertThat(t.removeRow(Row.of("k", "?"))).isEqualTo(Row.of("k", "d"));
    assertThat(t.removeRow(Row.of("k", "?"))).isNull();
    assertThat(t.removeRow(Row.of(3, "?"))).isEqualTo(Row.of(3, "c"));
    assertThat(t.isEmpty()).isTrue();
    assertThat(t.size()).isZero();
    assertThat(t.rows()).isEmpty();
  }
}
