package dev.rivulet.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Graph;
import dev.rivulet.engine.GraphBuilder;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.engine.SortKey;
import dev.rivulet.engine.ZSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The folding of output changes enforces the output contract: unpositioned changes are
 * consolidated; positioned ones carry positions, are ordered (retractions descending, then
 * insertions ascending, per partition) and splice exactly.
 */
class FoldedOutputTest {
  static final Schema T = Schema.parse("p INT, x INT");

  @Test
  void unpositionedChangesMustBeConsolidated() {
    FoldedOutput out = new FoldedOutput("out", null);
    assertThat(out.fold(ZSet.builder().add(Row.of(1), 2).add(Row.of(2), -1).build())).isNull();
    assertThat(out.multiset).isEqualTo(Map.of(Row.of(1), 2L, Row.of(2), -1L));
    assertThat(out.fold(ZSet.builder().add(Row.of(1), 1).add(Row.of(1), 1).build()))
        .contains("not consolidated", "appears twice");
    assertThat(out.fold(ZSet.builder().add(Row.of(3), 0).build())).contains("zero weight");
    assertThat(out.fold(ZSet.builder().add(Row.of(1), -2).add(Row.of(2), 1).build())).isNull();
    assertThat(out.multiset).isEmpty();
  }

  /** The changes of two runs of a top-3 by x, partitioned by p. */
  static List<ZSet> topKDeltas() {
    GraphBuilder b = Graph.builder();
    b.output("out", b.input("t", T).topK(List.of("p"), List.of(SortKey.asc("x")), 0, 3));
    Graph g = b.build();
    g.input("t").insert(Row.of(1, 5)).insert(Row.of(1, 3)).send(Row.of(1, 4), 2).insert(Row.of(2, 9));
    g.run();
    ZSet first = g.output("out").delta();
    g.input("t").delete(Row.of(1, 3)).insert(Row.of(2, 1));
    g.run();
    return List.of(first, g.output("out").delta());
  }

  @Test
  void positionedChangesSpliceIntoEachPartitionsWindow() {
    List<ZSet> deltas = topKDeltas();
    FoldedOutput out = new FoldedOutput("out", new int[] {0});
    assertThat(out.fold(deltas.get(0))).isNull();
    assertThat(out.windows).isEqualTo(Map.of(Row.of(1), List.of(Row.of(1, 3), Row.of(1, 4), Row.of(1, 4)),
        Row.of(2), List.of(Row.of(2, 9))));
    assertThat(out.fold(deltas.get(1))).isNull();
    assertThat(out.windows).isEqualTo(Map.of(Row.of(1), List.of(Row.of(1, 4), Row.of(1, 4), Row.of(1, 5)),
        Row.of(2), List.of(Row.of(2, 1), Row.of(2, 9))));
    assertThat(out.multiset).isEqualTo(Naive.multiset(out.windows));
  }

  @Test
  void misorderedOrMisplacedPositionsAreReported() {
    List<ZSet> deltas = topKDeltas();
    // Negated, the insertions become retractions in ascending position order.
    FoldedOutput a = new FoldedOutput("out", new int[] {0});
    assertThat(a.fold(deltas.get(0))).isNull();
    assertThat(a.fold(deltas.get(0).negate())).contains("not in descending position order");
    // The second change applied to a window it was not computed against.
    FoldedOutput b = new FoldedOutput("out", new int[] {0});
    assertThat(b.fold(deltas.get(1))).contains("does not splice");
    // A change without positions on a positioned output.
    FoldedOutput c = new FoldedOutput("out", new int[] {0});
    assertThat(c.fold(ZSet.of(Row.of(1, 1)))).contains("without a position");
  }
}
