package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** the dense form's range arithmetic at Long.MAX_VALUE (k + 1 overflows). */
class SemiJoinIndexEdgeKeysTest {
  private static List<Row> chain(SemiJoinIndex index, Object key) {
    List<Row> out = new ArrayList<>();
    for (int e = index.head(key); e != SemiJoinIndex.END; e = index.next(e)) {
      out.add(index.row(e));
    }
    return out;
  }

  @Test
  void aSmallIdThenLongMaxValue() {
    SemiJoinIndex index = new SemiJoinIndex();
    index.add(0L, Row.of(0L));
    index.add(Long.MAX_VALUE, Row.of(Long.MAX_VALUE)); // widen(MAX): hi = k + 1 overflows
    assertThat(chain(index, 0L)).containsExactly(Row.of(0L));
    assertThat(chain(index, Long.MAX_VALUE)).containsExactly(Row.of(Long.MAX_VALUE));
  }

  @Test
  void longMaxValueFirstThenASmallId() {
    SemiJoinIndex index = new SemiJoinIndex();
    index.add(Long.MAX_VALUE, Row.of(Long.MAX_VALUE)); // a dense range that wraps past MAX
    index.add(5L, Row.of(5L));
    assertThat(chain(index, 5L)).containsExactly(Row.of(5L));
    assertThat(chain(index, Long.MAX_VALUE)).containsExactly(Row.of(Long.MAX_VALUE));
  }

  @Test
  void longMaxValueThenLongMinValueAreTwoKeys() {
    SemiJoinIndex index = new SemiJoinIndex();
    index.add(Long.MAX_VALUE, Row.of(1L));
    index.add(Long.MIN_VALUE, Row.of(2L));
    assertThat(chain(index, Long.MAX_VALUE)).containsExactly(Row.of(1L));
    assertThat(chain(index, Long.MIN_VALUE)).containsExactly(Row.of(2L));
  }
}
