package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Window lists ({@link Stream#windowLists}) give, run by run, the same change as the general
 * path they replace for an array include: a reduce of the same top-K's rows per partition that
 * sorts each group and lists its element rows. Over random histories with hydration-sized and
 * update-sized runs, retractions, moves between partitions, rows of multiplicity two, null
 * partitions, one and two partition columns, offsets and limits (none too); the splice path is
 * proven taken (its operator in the graph, and a kept row's element row is the same instance in
 * the next list). Seeds: {@code -Drivulet.seed} replays one, {@code -Drivulet.runs} multiplies
 * the runs.
 */
class WindowListTest {
  private static final long BASE_SEED = Long.getLong("rivulet.seed", 0x3D11L);
  private static final int RUNS = 12 * Integer.getInteger("rivulet.runs", 1);
  private static final Schema C = Schema.parse("id INT NOT NULL, p ANY, p2 STRING, score INT, body STRING");
  private static final int[] ELEMENT = {4, 0}; // body, id
  private static final List<SortKey> ORDER = List.of(SortKey.desc("score"), SortKey.asc("id"));

  private static Graph graph(List<String> partitionBy, long offset, long limit) {
    GraphBuilder b = Graph.builder();
    Stream window = b.input("c", C).topK(partitionBy, ORDER, offset, limit);
    List<Column> cols = new ArrayList<>();
    for (String p : partitionBy) {
      cols.add(C.column(C.indexOf(p)));
    }
    cols.add(Column.of("list", ColumnType.ANY));
    Schema out = Schema.of(cols);
    b.output("spliced", window.windowLists(partitionBy, ELEMENT, out));
    int k = partitionBy.size();
    b.output("reduced", window.reduce(partitionBy, out, (key, group) -> {
      List<Row> rows = new ArrayList<>();
      for (int i = 0; i < group.size(); i++) {
        for (long w = group.weight(i); w > 0; w--) {
          rows.add(group.row(i));
        }
      }
      rows.sort(Comparator.<Row>comparingLong(r -> -(Long) r.get(3)).thenComparingLong(r -> (Long) r.get(0))
          .thenComparing(Comparator.naturalOrder()));
      List<Row> elements = new ArrayList<>();
      for (Row r : rows) {
        elements.add(Row.of(r.get(4), r.get(0)));
      }
      Object[] values = new Object[k + 1];
      for (int i = 0; i < k; i++) {
        values[i] = key.get(i);
      }
      values[k] = RowList.of(elements);
      return ZSet.of(Row.of(values));
    }));
    return b.build();
  }

  @Test
  void aKeptRowKeepsItsElementRowAndAnEmptiedPartitionHasNoRow() {
    Graph g = graph(List.of("p"), 0, 3);
    assertThat(g.stats().stream().map(OperatorStats::kind).toList()).contains("window-list");
    g.input("c").send(Row.of(1, 7, "a", 10, "x"), 1).send(Row.of(2, 7, "a", 20, "y"), 1);
    g.run();
    RowList first = list(g);
    assertThat((List<Row>) first).containsExactly(Row.of("y", 2), Row.of("x", 1));
    g.input("c").send(Row.of(3, 7, "a", 30, "z"), 1);
    g.run();
    RowList second = list(g);
    assertThat((List<Row>) second).containsExactly(Row.of("z", 3), Row.of("y", 2), Row.of("x", 1));
    assertThat(second.get(1)).isSameAs(first.get(0));
    assertThat(second.get(2)).isSameAs(first.get(1));
    assertThat(g.output("spliced").delta().toMap()).isEqualTo(g.output("reduced").delta().toMap());
    g.input("c").send(Row.of(1, 7, "a", 10, "x"), -1).send(Row.of(2, 7, "a", 20, "y"), -1)
        .send(Row.of(3, 7, "a", 30, "z"), -1);
    g.run();
    assertThat(g.output("spliced").delta().toMap()).containsOnly(Map.entry(Row.of(7, second), -1L));
    assertThat(g.output("spliced").delta().toMap()).isEqualTo(g.output("reduced").delta().toMap());
  }

  @Test
  void needsTheOutputOfATopKPartitionedByTheSameColumns() {
    GraphBuilder b = Graph.builder();
    Stream c = b.input("c", C);
    Schema out = Schema.of(List.of(C.column(1), Column.of("list", ColumnType.ANY)));
    assertThatThrownBy(() -> c.windowLists(List.of("p"), ELEMENT, out)).isInstanceOf(WiringException.class)
        .hasMessageContaining("top-k partitioned by [p]");
    Stream byOther = c.topK(List.of("p2"), ORDER, 0, 3);
    assertThatThrownBy(() -> byOther.windowLists(List.of("p"), ELEMENT, out)).isInstanceOf(WiringException.class);
    Stream whole = c.topK(ORDER, 0, 3);
    assertThatThrownBy(() -> whole.windowLists(List.of("p"), ELEMENT, out)).isInstanceOf(WiringException.class);
  }

  @Test
  void randomRunsAgreeWithAReduceThatSortsEachGroup() {
    for (int run = 0; run < RUNS; run++) {
      long seed = BASE_SEED + run;
      Random rnd = new Random(seed);
      List<String> partitionBy = rnd.nextBoolean() ? List.of("p", "p2") : List.of("p");
      long offset = rnd.nextInt(3) == 0 ? rnd.nextInt(3) : 0;
      long limit = rnd.nextInt(4) == 0 ? Long.MAX_VALUE : 1 + rnd.nextInt(4);
      Graph g = graph(partitionBy, offset, limit);
      Map<Row, Long> live = new HashMap<>();
      for (int step = 0; step < 30; step++) {
        int n = step == 0 ? 500 + rnd.nextInt(500) : 1 + rnd.nextInt(step % 5 == 0 ? 40 : 3);
        for (int i = 0; i < n; i++) {
          List<Row> present = new ArrayList<>(live.keySet());
          if (!present.isEmpty() && rnd.nextInt(3) == 0) {
            Row gone = present.get(rnd.nextInt(present.size()));
            long w = live.remove(gone);
            g.input("c").send(gone, -w);
            if (rnd.nextBoolean()) { // a move: the same id elsewhere
              Row moved = Row.of(gone.get(0), partition(rnd), "s" + rnd.nextInt(2), rnd.nextInt(8), gone.get(4));
              if (!live.containsKey(moved)) {
                live.put(moved, w);
                g.input("c").send(moved, w);
              }
            }
            continue;
          }
          Row row = Row.of(rnd.nextInt(2000), partition(rnd), "s" + rnd.nextInt(2), rnd.nextInt(8), "b" + rnd.nextInt(4));
          if (!live.containsKey(row)) {
            long w = rnd.nextInt(10) == 0 ? 2 : 1;
            live.put(row, w);
            g.input("c").send(row, w);
          }
        }
        g.run();
        assertThat(g.output("spliced").delta().toMap()).as("seed %d step %d", seed, step)
            .isEqualTo(g.output("reduced").delta().toMap());
      }
    }
  }

  private static Object partition(Random rnd) {
    return rnd.nextInt(25) == 0 ? null : (Object) (long) rnd.nextInt(12);
  }

  private static RowList list(Graph g) {
    for (Map.Entry<Row, Long> e : g.output("spliced").delta().toMap().entrySet()) {
      if (e.getValue() > 0) {
        return (RowList) e.getKey().get(1);
      }
    }
    throw new AssertionError("no list inserted");
  }
}
