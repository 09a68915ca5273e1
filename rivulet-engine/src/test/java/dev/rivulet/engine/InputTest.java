package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An input rejects a change whole, at the call that sends it, when a row does not fit or a
 * retraction names a row it does not hold: nothing of it is queued, and the graph, its state and
 * the changes queued before it are as they were, so later runs work.
 */
class InputTest {
  private static final Schema S = Schema.parse("id INT NOT NULL, grp STRING, score INT");

  /** Stateful operators downstream of one input: distinct, group-by, a self join and a top-K. */
  private static Graph graph() {
    GraphBuilder b = Graph.builder();
    Stream in = b.input("in", S);
    b.output("distinct", in.map(Schema.parse("grp STRING"), r -> Row.of(r.get(1))).distinct());
    b.output("groups", in.groupBy(List.of("grp"), Aggregate.countRows("n"), Aggregate.sum("score", "total")));
    b.output("join", in.join(in, JoinType.INNER, "grp", "grp"));
    b.output("top", in.topK(List.of(SortKey.desc("score"), SortKey.asc("id")), 0, 2));
    return b.build();
  }

  private static Row row(long id, String grp, long score) {
    return Row.of(id, grp, score);
  }

  /** Every output's delta after one run. */
  private static List<Map<Row, Long>> run(Graph g) {
    g.run();
    List<Map<Row, Long>> out = new ArrayList<>();
    for (String o : List.of("distinct", "groups", "join", "top")) {
      out.add(g.output(o).delta().toMap());
    }
    return out;
  }

  /** The same history on a graph that never saw the rejected calls. */
  private static Graph twin() {
    Graph g = graph();
    g.input("in").insert(row(1, "a", 5)).insert(row(2, "a", 7)).insert(row(3, "b", 1));
    g.run();
    return g;
  }

  @Test
  void aRetractionOfARowTheInputDoesNotHoldIsRejectedAndTheGraphKeepsWorking() {
    Graph g = twin();
    Input in = g.input("in");
    assertThatThrownBy(() -> in.delete(row(9, "a", 5)))
        .isInstanceOf(RivuletException.class)
        .hasMessageContaining("input 'in'")
        .hasMessageContaining("[9, 'a', 5]")
        .hasMessageContaining("holds 0 copies")
        .hasMessageContaining("rejected");
    assertThatThrownBy(() -> in.send(row(1, "a", 5), -2)).hasMessageContaining("holds 1 copy of it");
    // An update whose old row is not there queues neither half.
    assertThatThrownBy(() -> in.update(row(3, "b", 2), row(3, "b", 9))).hasMessageContaining("[3, 'b', 2]");
    // A batch is rejected whole: its valid entries are not queued either.
    ZSet batch = ZSet.builder().insert(row(4, "c", 3)).delete(row(1, "a", 5)).delete(row(8, "z", 0)).build();
    assertThatThrownBy(() -> in.send(batch)).hasMessageContaining("[8, 'z', 0]");
    assertThat(g.runs()).isEqualTo(1);

    // Nothing was queued: the next run is exactly the twin's, and so are the ones after.
    Graph t = twin();
    List<Map<Row, Long>> empty = run(g);
    assertThat(empty).isEqualTo(run(t)).allMatch(Map::isEmpty);
    for (Graph x : List.of(g, t)) {
      x.input("in").delete(row(2, "a", 7)).insert(row(5, "b", 9)).update(row(1, "a", 5), row(1, "a", 6));
    }
    assertThat(run(g)).isEqualTo(run(t)).filteredOn(m -> !m.isEmpty()).hasSize(3);
    assertThat(g.stats()).isEqualTo(t.stats());
    assertThat(g.runs()).isEqualTo(3);
  }

  @Test
  void aRejectedCallKeepsTheChangesQueuedBeforeIt() {
    Graph g = twin();
    g.input("in").insert(row(4, "c", 3));
    assertThatThrownBy(() -> g.input("in").delete(row(4, "c", 4))).isInstanceOf(RivuletException.class);
    // Within a run, rows are counted as they are queued: what was inserted may be retracted.
    g.input("in").delete(row(4, "c", 3)).insert(row(4, "c", 4));
    assertThatThrownBy(() -> g.input("in").delete(row(4, "c", 3))).hasMessageContaining("holds 0 copies");
    List<Map<Row, Long>> d = run(g);
    assertThat(d.get(1)).containsOnly(Map.entry(Row.of("c", 1, 4), 1L));
  }

  @Test
  void aBatchIsCountedAsAWhole() {
    Graph g = twin();
    // Retracting a row the same batch inserts nets out, whatever the order of its entries.
    ZSet netZero = ZSet.builder().delete(row(7, "x", 1)).insert(row(7, "x", 1)).build();
    g.input("in").send(netZero);
    assertThat(run(g)).allMatch(Map::isEmpty);
    ZSet twice = ZSet.builder().delete(row(3, "b", 1)).delete(row(3, "b", 1)).build();
    assertThatThrownBy(() -> g.input("in").send(twice)).hasMessageContaining("x2").hasMessageContaining("holds 1 copy");
    g.input("in").send(ZSet.builder().delete(row(3, "b", 1)).build());
    assertThat(run(g).get(1)).containsOnly(Map.entry(Row.of("b", 1, 1), -1L));
  }

  @Test
  void badRowsAreRejectedAtTheCall() {
    Graph g = twin();
    assertThatThrownBy(() -> g.input("in").insert(null))
        .isInstanceOf(SchemaException.class).hasMessageContaining("input 'in'").hasMessageContaining("null");
    assertThatThrownBy(() -> g.input("in").insert(Row.of(null, "a", 1)))
        .isInstanceOf(SchemaException.class).hasMessageContaining("'id' is NOT NULL");
    assertThatThrownBy(() -> g.input("in").update(row(1, "a", 5), Row.of(1, "a")))
        .isInstanceOf(SchemaException.class);
    assertThat(run(g)).allMatch(Map::isEmpty);
  }

  @Test
  void theInputRetainsItsDistinctRows() {
    Graph g = twin();
    g.input("in").send(row(1, "a", 5), 2);
    g.run();
    OperatorStats input = g.stats().get(0);
    assertThat(input.kind()).isEqualTo("input");
    assertThat(input.retained()).isEqualTo(3);
    g.input("in").send(row(1, "a", 5), -3).delete(row(3, "b", 1));
    g.run();
    assertThat(g.stats().get(0).retained()).isEqualTo(1);
  }

  @Test
  void theQueryLayersShortcutCountsNothingAndAgreesWithTheCheckedPath() {
    // The shortcut (Input.send with the schema the rows were checked against) is the query
    // layer's: it keeps no contents, and a graph fed through it computes what a checked one does.
    Graph checked = graph();
    Graph trusted = graph();
    List<Row> rows = List.of(row(1, "a", 5), row(2, "a", 7), row(3, "b", 1), row(4, "b", 9));
    for (Row r : rows) {
      checked.input("in").insert(r);
      trusted.input("in").send(r, 1, S);
    }
    assertThat(run(trusted)).isEqualTo(run(checked));
    checked.input("in").delete(rows.get(1)).insert(row(2, "b", 3));
    trusted.input("in").send(rows.get(1), -1, S).send(row(2, "b", 3), 1, S);
    assertThat(run(trusted)).isEqualTo(run(checked));
    long inputRetained = trusted.stats().stream().filter(st -> st.kind().equals("input")).findFirst().orElseThrow()
        .retained();
    long checkedRetained = checked.stats().stream().filter(st -> st.kind().equals("input")).findFirst().orElseThrow()
        .retained();
    assertThat(inputRetained).as("the shortcut keeps no contents").isZero();
    assertThat(checkedRetained).as("the checked path holds every row").isEqualTo(4);
  }
}
