package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** a semi-join whose left key column holds Long.MAX_VALUE. */
class SemiJoinMaxKeyTest {
  @Test
  void aLeftRowKeyedLongMaxValueIsJoinedLikeAnyOther() {
    Schema ls = Schema.parse("id INT NOT NULL, k INT");
    Schema rs = Schema.parse("k INT");
    GraphBuilder b = Graph.builder();
    Stream l = b.input("l", ls);
    Stream r = b.input("r", rs);
    b.output("out", l.semiJoin(r, List.of("k"), List.of("k"), null));
    Graph g = b.build();
    g.input("l").send(Row.of(1L, 0L), 1);
    g.input("l").send(Row.of(2L, Long.MAX_VALUE), 1);
    g.input("r").send(Row.of(Long.MAX_VALUE), 1);
    g.run();
    assertThat(g.output("out").delta()).isEqualTo(ZSet.of(Row.of(2L, Long.MAX_VALUE)));
  }
}
