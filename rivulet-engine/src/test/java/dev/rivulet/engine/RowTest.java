package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link Row}: canonical equality, hashing, projection, concatenation and order. */
class RowTest {

  @Test
  void equalityIsCanonicalValueEquality() {
    Row a = Row.of(2, "x", null, 1.5);
    Row b = Row.of(2.0, "x", null, new BigDecimal("1.50"));
    assertThat(a).isEqualTo(b);
    assertThat(a.hashCode()).isEqualTo(b.hashCode());
    assertThat(a.compareTo(b)).isZero();
    assertThat(Row.of(List.of(2L, "x"))).isEqualTo(Row.of(2, 'x'));
    assertThat(a).isNotEqualTo(Row.of(2, "x", null, 1.25));
    assertThat(a).isNotEqualTo(Row.of(2, "x", null));
    assertThat(Row.of(1)).isNotEqualTo(Row.of("1"));
    assertThat(Row.of((Object) null)).isNotEqualTo(Row.of());
    assertThat(Row.of(1)).isNotEqualTo("[1]");
  }

  @Test
  void rowsAreUsableAsSetKeys() {
    Set<Row> set = new HashSet<>();
    for (int i = 0; i < 1000; i++) {
      set.add(Row.of(i % 10, (double) (i % 10)));
      set.add(Row.of((long) (i % 10), BigDecimal.valueOf(i % 10)));
    }
    assertThat(set).hasSize(10);
  }

  @Test
  void rowIsImmutableAgainstItsInputArray() {
    Object[] values = {1, "a"};
    Row r = Row.of(values);
    values[0] = 99;
    assertThat(r.get(0)).isEqualTo(1L);
    List<Object> list = r.toList();
    list.set(0, 5L);
    assertThat(r.get(0)).isEqualTo(1L);
  }

  @Test
  void accessors() {
    Row r = Row.of(7, "s", null);
    assertThat(r.width()).isEqualTo(3);
    assertThat(r.getLong(0)).isEqualTo(7L);
    assertThat(r.getString(1)).isEqualTo("s");
    assertThat(r.isNull(2)).isTrue();
    assertThat(r.isNull(0)).isFalse();
    assertThat(r.get(0)).isInstanceOf(Long.class);
  }

  @Test
  void projectPicksColumnsInTheGivenOrder() {
    Row r = Row.of("a", "b", "c", "d");
    assertThat(r.project(new int[] {2, 0})).isEqualTo(Row.of("c", "a"));
    assertThat(r.project(new int[] {1, 1})).isEqualTo(Row.of("b", "b"));
    assertThat(r.project(new int[0])).isEqualTo(Row.of());
    assertThat(r.project(new int[0]).width()).isZero();
    assertThatThrownBy(() -> r.project(new int[] {4})).isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void anyNullLooksOnlyAtTheGivenColumns() {
    Row r = Row.of(1, null, 3);
    assertThat(r.anyNull(new int[] {0, 2})).isFalse();
    assertThat(r.anyNull(new int[] {2, 1})).isTrue();
    assertThat(r.anyNull(new int[0])).isFalse();
  }

  @Test
  void concatAppendsTheOtherRow() {
    Row a = Row.of(1, "x");
    Row b = Row.of(null, 2.5);
    Row c = a.concat(b);
    assertThat(c).isEqualTo(Row.of(1, "x", null, 2.5));
    assertThat(c.width()).isEqualTo(4);
    assertThat(a.concat(Row.of())).isEqualTo(a);
    assertThat(Row.of().concat(b)).isEqualTo(b);
    assertThat(Row.nulls(2).concat(a)).isEqualTo(Row.of(null, null, 1, "x"));
    // The operands are untouched.
    assertThat(a).isEqualTo(Row.of(1, "x"));
    assertThat(b.width()).isEqualTo(2);
  }

  @Test
  void withAndAppendCanonicalise() {
    Row r = Row.of(1, "a");
    assertThat(r.with(0, 2.0)).isEqualTo(Row.of(2, "a"));
    assertThat(r.with(0, 2.0).get(0)).isInstanceOf(Long.class);
    assertThat(r.append(new BigDecimal("3.0"), null)).isEqualTo(Row.of(1, "a", 3, null));
    assertThat(r).isEqualTo(Row.of(1, "a"));
    assertThatThrownBy(() -> r.with(0, new Object())).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("java.lang.Object");
  }

  @Test
  void nullsRowHasTheGivenWidth() {
    assertThat(Row.nulls(3)).isEqualTo(Row.of(null, null, null));
    assertThat(Row.nulls(0)).isEqualTo(Row.of());
  }

  @Test
  void compareToIsLexicographicThenByWidth() {
    List<Row> expected = List.of(
        Row.of(),
        Row.of((Object) null),
        Row.of(null, 5),
        Row.of(false),
        Row.of(1),
        Row.of(1, null),
        Row.of(1, 1),
        Row.of(1, "a"),
        Row.of(1.5),
        Row.of(2),
        Row.of("a"),
        Row.of("a", 1));
    List<Row> shuffled = new ArrayList<>(expected);
    Collections.shuffle(shuffled, new java.util.Random(11));
    Collections.sort(shuffled);
    assertThat(shuffled).containsExactlyElementsOf(expected);
    for (Row x : expected) {
      for (Row y : expected) {
        assertThat(Integer.signum(x.compareTo(y))).isEqualTo(-Integer.signum(y.compareTo(x)));
        assertThat(x.compareTo(y) == 0).isEqualTo(x.equals(y));
      }
    }
  }

  @Test
  void toStringRendersSqlLike() {
    assertThat(Row.of(1, "o'k", null, Bytes.of(new byte[] {0x0a})).toString())
        .isEqualTo("[1, 'o''k', NULL, x'0a']");
    assertThat(Arrays.asList(Row.of().toString())).containsExactly("[]");
  }
}
