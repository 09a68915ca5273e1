package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link ZSet} as a value: its text, its hash and its iteration. */
class ZSetValuesTest {
  @Test
  void textShowsSignedWeightsAndPositions() {
    ZSet plain = ZSet.builder().add(Row.of("a"), 2).add(Row.of("b"), -1).build();
    assertThat(plain).hasToString("{['a'] +2, ['b'] -1}");
    ZSet positioned = ZSet.fromArrays(new Row[] {Row.of(1), Row.of(2)}, new long[] {1, -1}, new int[] {0, 3});
    assertThat(positioned).hasToString("{[1] +1 @0, [2] -1 @3}");
    assertThat(ZSet.empty()).hasToString("{}");
  }

  @Test
  void distinctContentsHashApart() {
    Set<Integer> hashes = new HashSet<>();
    List<ZSet> sets = List.of(ZSet.empty(), ZSet.of(Row.of("alpha")), ZSet.of(Row.of("beta")),
        ZSet.of(Row.of("alpha"), Row.of("beta")), ZSet.of(Row.of("gamma", 7)));
    for (ZSet z : sets) {
      hashes.add(z.hashCode());
    }
    assertThat(hashes).hasSize(sets.size());
    assertThat(ZSet.of(Row.of(1), Row.of(2)).hashCode()).isEqualTo(ZSet.of(Row.of(2), Row.of(1)).hashCode());
  }

  @Test
  void iterationEndsAfterTheLastEntry() {
    ZSet z = ZSet.of(Row.of(1), Row.of(2));
    Iterator<ZSet.Entry> it = z.iterator();
    assertThat(it.next().row()).isEqualTo(Row.of(1));
    assertThat(it.hasNext()).isTrue();
    assertThat(it.next().row()).isEqualTo(Row.of(2));
    assertThat(it.hasNext()).isFalse();
    assertThatThrownBy(it::next).isInstanceOf(NoSuchElementException.class);
    assertThat(z.entries()).extracting(ZSet.Entry::weight).containsExactly(1L, 1L);
  }
}
