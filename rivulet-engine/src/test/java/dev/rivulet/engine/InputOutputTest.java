package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The input and output handles: every way of sending (checked unless the caller checked against
 * this very schema), and every way of reading the last change in place.
 */
class InputOutputTest {
  private static final Schema S = Schema.parse("id INT NOT NULL, name STRING");

  private static Graph passThrough() {
    GraphBuilder b = Graph.builder();
    b.output("out", b.input("in", S));
    b.output("ordered", b.input("other", S).orderBy(SortKey.asc("id")));
    return b.build();
  }

  @Test
  void handlesKnowTheirNamesAndSchemas() {
    Graph g = passThrough();
    assertThat(g.input("in").name()).isEqualTo("in");
    assertThat(g.input("in").schema()).isEqualTo(S);
    assertThat(g.output("ordered").name()).isEqualTo("ordered");
    assertThat(g.output("ordered").schema()).isEqualTo(S);
  }

  @Test
  void batchesAreCheckedUnlessCheckedAgainstThisSchema() {
    Graph g = passThrough();
    Input in = g.input("in");
    ZSet bad = ZSet.of(Row.of(1, "a"), Row.of(null, "b"));
    assertThatThrownBy(() -> in.send(bad)).isInstanceOf(SchemaException.class).hasMessageContaining("input 'in'");
    assertThatThrownBy(() -> in.send(bad, Schema.parse("id INT, name STRING")))
        .as("checked against another schema: checked again").isInstanceOf(SchemaException.class);
    assertThatThrownBy(() -> in.send(Row.of(null, "b"), 1, Schema.parse("id INT, name STRING")))
        .isInstanceOf(SchemaException.class);
    g.run();
    assertThat(g.output("out").delta().isEmpty()).as("rejected batches queue nothing").isTrue();

    assertThat(in.send(ZSet.of(Row.of(1, "a"), Row.of(2, "b")), Schema.parse("id INT NOT NULL, name STRING")))
        .isSameAs(in);
    assertThat(in.send(ZSet.of(Row.of(3, "c")), Schema.parse("id INT, name STRING"))).isSameAs(in);
    assertThat(in.send(Row.of(4, "d"), 2, S)).isSameAs(in);
    assertThat(in.send(Row.of(5, "e"), 1, Schema.parse("id INT, name STRING"))).isSameAs(in);
    g.run();
    assertThat(g.output("out").delta().toMap()).containsOnly(
        java.util.Map.entry(Row.of(1, "a"), 1L), java.util.Map.entry(Row.of(2, "b"), 1L),
        java.util.Map.entry(Row.of(3, "c"), 1L), java.util.Map.entry(Row.of(4, "d"), 2L),
        java.util.Map.entry(Row.of(5, "e"), 1L));
  }

  @Test
  void anUpdateChecksBothRowsAndQueuesNeitherOnFailure() {
    Graph g = passThrough();
    g.input("in").insert(Row.of(1, "a"));
    g.run();
    assertThatThrownBy(() -> g.input("in").update(Row.of(null, "a"), Row.of(1, "b")))
        .isInstanceOf(SchemaException.class);
    assertThatThrownBy(() -> g.input("in").update(Row.of(1, "a"), Row.of(1, 2)))
        .isInstanceOf(SchemaException.class);
    g.run();
    assertThat(g.output("out").delta().isEmpty()).isTrue();
    g.input("in").update(Row.of(1, "a"), Row.of(1, "b"));
    g.run();
    assertThat(g.output("out").delta().toMap())
        .containsOnly(java.util.Map.entry(Row.of(1, "a"), -1L), java.util.Map.entry(Row.of(1, "b"), 1L));
  }

  @Test
  void theLastChangeReadsInPlaceLikeItsCopy() {
    Graph g = passThrough();
    g.input("other").insert(Row.of(2, "b")).insert(Row.of(1, "a")).insert(Row.of(3, "c"));
    g.input("in").send(Row.of(7, "x"), 3);
    g.run();
    Output ordered = g.output("ordered");
    ZSet delta = ordered.delta();
    assertThat(ordered.deltaSize()).isEqualTo(delta.size()).isEqualTo(3);
    for (int i = 0; i < delta.size(); i++) {
      assertThat(ordered.deltaRow(i)).isEqualTo(delta.row(i));
      assertThat(ordered.deltaWeight(i)).isEqualTo(delta.weight(i)).isEqualTo(1);
      assertThat(ordered.deltaPosition(i)).isEqualTo(delta.position(i));
    }
    assertThat(List.of(ordered.deltaPosition(0), ordered.deltaPosition(1), ordered.deltaPosition(2)))
        .containsExactlyInAnyOrder(0, 1, 2);
    List<Row> window = new ArrayList<>();
    ordered.spliceDeltaInto(window);
    assertThat(window).containsExactly(Row.of(1, "a"), Row.of(2, "b"), Row.of(3, "c"));

    Output out = g.output("out");
    assertThat(out.deltaSize()).isEqualTo(1);
    assertThat(out.deltaRow(0)).isEqualTo(Row.of(7, "x"));
    assertThat(out.deltaWeight(0)).isEqualTo(3);
    assertThat(out.deltaPosition(0)).as("not positioned").isEqualTo(-1);
    assertThatThrownBy(() -> out.deltaRow(1)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> out.deltaWeight(-1)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> ordered.deltaPosition(3)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> out.spliceDeltaInto(new ArrayList<>())).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("has no position");
  }

  @Test
  void aRunWithoutChangesLeavesEmptyChanges() {
    Graph g = passThrough();
    g.input("other").insert(Row.of(1, "a"));
    g.run();
    g.run();
    assertThat(g.output("ordered").deltaSize()).isZero();
    assertThat(g.output("ordered").delta().isEmpty()).isTrue();
    assertThat(g.runs()).isEqualTo(2);
  }

  @Test
  void concatWidensNumericColumnsAndAny() {
    GraphBuilder b = Graph.builder();
    Stream i = b.input("i", Schema.parse("v INT"));
    Stream d = b.input("d", Schema.parse("v DOUBLE"));
    Stream m = b.input("m", Schema.parse("v DECIMAL"));
    Stream a = b.input("a", Schema.parse("v ANY"));
    Stream s = b.input("s", Schema.parse("v STRING NOT NULL"));
    assertThat(i.concat(d).schema().column(0).type()).isEqualTo(ColumnType.DOUBLE);
    assertThat(d.concat(i).schema().column(0).type()).isEqualTo(ColumnType.DOUBLE);
    assertThat(i.concat(m).schema().column(0).type()).isEqualTo(ColumnType.DECIMAL);
    assertThat(m.concat(d).schema().column(0).type()).isEqualTo(ColumnType.DECIMAL);
    assertThat(i.concat(d, m).schema().column(0).type()).isEqualTo(ColumnType.DECIMAL);
    assertThat(a.concat(i).schema().column(0).type()).isEqualTo(ColumnType.ANY);
    assertThat(s.concat(a).schema().column(0).type()).isEqualTo(ColumnType.ANY);
    assertThat(s.concat(s).schema().column(0)).as("nullable").isEqualTo(Column.of("v", ColumnType.STRING));
    assertThatThrownBy(() -> s.concat(i)).isInstanceOf(WiringException.class).hasMessageContaining("column 0");
    assertThatThrownBy(() -> i.concat(b.input("w", Schema.parse("v INT, x INT"))))
        .isInstanceOf(WiringException.class).hasMessageContaining("widths differ");
  }

  @Test
  void aChangeThatCancelsWithinOneRunLeavesAnEmptyChange() {
    Graph g = passThrough();
    g.input("in").insert(Row.of(1, "a")).insert(Row.of(2, "b")).delete(Row.of(1, "a"));
    g.run();
    assertThat(g.output("out").deltaSize()).isEqualTo(1);
    assertThat(g.output("out").delta().entries()).extracting(ZSet.Entry::row).containsExactly(Row.of(2, "b"));
    g.input("in").update(Row.of(2, "b"), Row.of(2, "c")).update(Row.of(2, "c"), Row.of(2, "b"));
    g.run();
    assertThat(g.output("out").deltaSize()).isZero();
    assertThat(g.output("out").delta().isEmpty()).isTrue();
  }
}
