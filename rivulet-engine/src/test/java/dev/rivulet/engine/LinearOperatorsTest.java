package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The stateless operators: map, filter, flatMap, negate, concat and consolidate. */
class LinearOperatorsTest {
  private static final Schema ITEMS = Schema.parse("id INT NOT NULL, name STRING, qty INT");
  private static final Schema NAME_QTY = Schema.parse("name STRING, qty INT");

  private static Row item(long id, String name, Long qty) {
    return Row.of(id, name, qty);
  }

  /**
   * Builds input "in" -> pipeline -> output "out". The pipeline reads {@code in - minus} (with
   * {@code in}'s schema): an input refuses to retract rows it does not hold, and these operators
   * are tested on arbitrary Z-sets, negative weights included.
   */
  private static Graph graph(Function<Stream, Stream> pipeline) {
    GraphBuilder b = Graph.builder();
    Stream signed = b.input("in", ITEMS).concat(b.input("minus", ITEMS).negate()).map(ITEMS, r -> r);
    b.output("out", pipeline.apply(signed));
    return b.build();
  }

  /** Sends {@code batch}'s positive entries to "in" and its negative ones, negated, to "minus". */
  private static Map<Row, Long> step(Graph g, ZSet batch) {
    ZSet.Builder plus = ZSet.builder();
    ZSet.Builder minus = ZSet.builder();
    for (ZSet.Entry e : batch) {
      if (e.weight() > 0) {
        plus.add(e.row(), e.weight());
      } else if (e.weight() < 0) {
        minus.add(e.row(), -e.weight());
      }
    }
    g.input("in").send(plus.build());
    g.input("minus").send(minus.build());
    g.run();
    return g.output("out").delta().toMap();
  }

  private static ZSet randomBatch(Random rnd, int n) {
    ZSet.Builder b = ZSet.builder();
    for (int i = 0; i < n; i++) {
      long id = rnd.nextInt(6);
      b.add(item(id, "n" + rnd.nextInt(3), rnd.nextBoolean() ? null : (long) rnd.nextInt(4)), rnd.nextInt(5) - 2);
    }
    return b.build();
  }

  /** The sum of outputs over split batches equals the output of the whole batch in one run. */
  private static void assertLinear(Function<Stream, Stream> pipeline) {
    Random rnd = new Random(99);
    for (int trial = 0; trial < 20; trial++) {
      ZSet a = randomBatch(rnd, 1 + rnd.nextInt(12));
      ZSet b = randomBatch(rnd, 1 + rnd.nextInt(12));
      Graph split = graph(pipeline);
      Map<Row, Long> sum = new LinkedHashMap<>(step(split, a));
      step(split, b).forEach((r, w) -> sum.merge(r, w, Long::sum));
      sum.values().removeIf(w -> w == 0);
      Map<Row, Long> whole = step(graph(pipeline), a.plus(b));
      assertThat(whole).as("trial %d", trial).isEqualTo(sum);
    }
  }

  @Test
  void mapKeepsWeightsAndConsolidatesCollisions() {
    Graph g = graph(s -> s.map(NAME_QTY, r -> Row.of(r.get(1), r.get(2))));
    ZSet batch = ZSet.builder()
        .add(item(1, "a", 5L), 3)
        .add(item(2, "b", 1L), -1)
        .add(item(3, "a", 5L), 2) // maps to the same row as id 1
        .build();
    assertThat(step(g, batch)).containsOnly(Map.entry(Row.of("a", 5), 5L), Map.entry(Row.of("b", 1), -1L));
    // An insert and a delete that map to the same row cancel.
    assertThat(step(g, ZSet.builder().add(item(7, "z", 0L), 1).add(item(8, "z", 0L), -1).build())).isEmpty();
    assertThat(g.output("out").schema()).isEqualTo(NAME_QTY);
  }

  @Test
  void filterKeepsAcceptedRowsWithTheirWeights() {
    Graph g = graph(s -> s.filter(r -> !r.isNull(2) && r.getLong(2) > 1));
    ZSet batch = ZSet.builder()
        .add(item(1, "a", 5L), 2)
        .add(item(2, "b", 1L), 1)
        .add(item(3, "c", null), 1)
        .add(item(4, "d", 9L), -3)
        .build();
    assertThat(step(g, batch)).containsOnly(Map.entry(item(1, "a", 5L), 2L), Map.entry(item(4, "d", 9L), -3L));
    assertThat(step(g, ZSet.builder().delete(item(2, "b", 1L)).build())).isEmpty();
  }

  @Test
  void flatMapFansOutWithTheInputWeight() {
    Schema one = Schema.parse("n INT NOT NULL");
    Graph g = graph(s -> s.flatMap(one, r -> {
      List<Row> out = new ArrayList<>();
      long q = r.isNull(2) ? 0 : r.getLong(2);
      for (long i = 0; i < q; i++) {
        out.add(Row.of(i));
      }
      return out;
    }));
    ZSet batch = ZSet.builder()
        .add(item(1, "a", 3L), 2) // 0,1,2 each x2
        .add(item(2, "b", 2L), -1) // 0,1 each x-1
        .add(item(3, "c", null), 5) // nothing
        .build();
    assertThat(step(g, batch)).containsOnly(
        Map.entry(Row.of(0), 1L), Map.entry(Row.of(1), 1L), Map.entry(Row.of(2), 2L));
  }

  @Test
  void flatMapOfDuplicatesAddsUp() {
    Schema one = Schema.parse("n INT NOT NULL");
    Graph g = graph(s -> s.flatMap(one, r -> List.of(Row.of(1), Row.of(1), Row.of(1))));
    assertThat(step(g, ZSet.builder().add(item(1, "a", 1L), 2).build())).containsOnly(Map.entry(Row.of(1), 6L));
  }

  @Test
  void negateFlipsEveryWeight() {
    Graph g = graph(Stream::negate);
    ZSet batch = ZSet.builder().add(item(1, "a", 1L), 2).add(item(2, "b", null), -1).build();
    assertThat(step(g, batch)).containsOnly(Map.entry(item(1, "a", 1L), -2L), Map.entry(item(2, "b", null), 1L));
    assertThat(g.output("out").schema()).isEqualTo(ITEMS);
    // Negating twice is the identity.
    assertThat(step(graph(s -> s.negate().negate()), batch)).isEqualTo(batch.toMap());
  }

  @Test
  void concatWithItsNegationIsEmpty() {
    Graph g = graph(s -> s.concat(s.negate()));
    assertThat(step(g, ZSet.builder().add(item(1, "a", 1L), 4).add(item(2, "b", 2L), -1).build())).isEmpty();
  }

  @Test
  void concatIsTheMultisetSum() {
    GraphBuilder b = Graph.builder();
    Stream x = b.input("x", NAME_QTY);
    Stream y = b.input("y", Schema.parse("label STRING NOT NULL, amount INT NOT NULL"));
    Stream z = b.input("z", NAME_QTY);
    Stream all = x.concat(y, z);
    b.output("out", all);
    Graph g = b.build();
    assertThat(all.schema().names()).containsExactly("name", "qty");
    assertThat(all.schema().columns()).allMatch(Column::nullable);
    g.input("x").insert(Row.of("a", 1)).insert(Row.of("b", 2));
    g.input("y").send(Row.of("a", 1), 2);
    g.input("z").insert(Row.of("b", 2));
    g.run();
    assertThat(g.output("out").delta().toMap()).containsOnly(Map.entry(Row.of("a", 1), 3L), Map.entry(Row.of("b", 2), 2L));
    // Only one input changes in the next run; its retraction and insertion add up with nothing else.
    g.input("z").delete(Row.of("b", 2)).insert(Row.of("c", null));
    g.run();
    assertThat(g.output("out").delta().toMap())
        .containsOnly(Map.entry(Row.of("b", 2), -1L), Map.entry(Row.of("c", null), 1L));
  }

  @Test
  void concatRejectsMismatchedSchemas() {
    GraphBuilder b = Graph.builder();
    Stream x = b.input("x", NAME_QTY);
    Stream wide = b.input("wide", ITEMS);
    Stream swapped = b.input("swapped", Schema.parse("qty INT, name STRING"));
    assertThatThrownBy(() -> x.concat(wide))
        .isInstanceOf(WiringException.class)
        .hasMessageContaining("input:x")
        .hasMessageContaining("input:wide")
        .hasMessageContaining("widths differ");
    assertThatThrownBy(() -> x.concat(swapped))
        .isInstanceOf(WiringException.class)
        .hasMessageContaining("input:swapped")
        .hasMessageContaining("column 0");
  }

  @Test
  void consolidateCancelsWithinARunBeforeDownstreamWork() {
    AtomicInteger calls = new AtomicInteger();
    Graph g = graph(s -> s.consolidate().map(ITEMS, r -> {
      calls.incrementAndGet();
      return r;
    }));
    ZSet batch = ZSet.builder()
        .add(item(1, "a", 1L), 1).add(item(1, "a", 1L), -1)
        .add(item(2, "b", 1L), 1).add(item(2, "b", 1L), 1)
        .build();
    assertThat(step(g, batch)).containsOnly(Map.entry(item(2, "b", 1L), 2L));
    assertThat(calls.get()).as("the map sees one consolidated entry").isEqualTo(1);

    AtomicInteger unconsolidated = new AtomicInteger();
    Graph h = graph(s -> s.map(ITEMS, r -> {
      unconsolidated.incrementAndGet();
      return r;
    }));
    assertThat(step(h, batch)).containsOnly(Map.entry(item(2, "b", 1L), 2L));
    assertThat(unconsolidated.get()).isEqualTo(4);
  }

  @Test
  void linearOperatorsAreLinear() {
    assertLinear(s -> s.map(NAME_QTY, r -> Row.of(r.get(1), r.get(2))));
    assertLinear(s -> s.filter(r -> r.getLong(0) % 2 == 0));
    assertLinear(s -> s.flatMap(ITEMS, r -> List.of(r, r.with(0, r.getLong(0) + 1))));
    assertLinear(Stream::negate);
    assertLinear(Stream::consolidate);
    assertLinear(s -> s.concat(s.filter(r -> r.isNull(2))));
  }

  @Test
  void mapReturningAWrongTypeFailsTheRunNamingOperatorAndColumn() {
    GraphBuilder b = Graph.builder();
    Stream bad = b.input("in", ITEMS).map(NAME_QTY, r -> Row.of(r.get(1), "not a number")).named("badMap");
    b.output("out", bad);
    Graph g = b.build();
    g.input("in").insert(item(1, "a", 1L));
    assertThatThrownBy(g::run)
        .isInstanceOf(SchemaException.class)
        .hasMessageContaining("badMap")
        .hasMessageContaining("'qty'")
        .hasMessageContaining("INT");
    // The graph is failed from now on, with the original cause.
    g.input("in").insert(item(2, "b", 2L));
    assertThatThrownBy(g::run)
        .isInstanceOf(IllegalStateException.class)
        .hasCauseInstanceOf(SchemaException.class);
  }

  @Test
  void mapReturningAWrongWidthOrANullInANotNullColumnFails() {
    Schema strict = Schema.parse("name STRING NOT NULL, qty INT");
    Graph wide = graph(s -> s.map(strict, r -> Row.of("x", 1, 2)));
    wide.input("in").insert(item(1, "a", 1L));
    assertThatThrownBy(wide::run)
        .isInstanceOf(SchemaException.class)
        .hasMessageContaining("map#")
        .hasMessageContaining("3 values but the schema has 2 columns");

    Graph nulls = graph(s -> s.map(strict, r -> Row.of(r.get(1), r.get(2))));
    nulls.input("in").insert(item(1, "ok", 1L));
    nulls.run();
    assertThat(nulls.output("out").delta().toMap()).containsOnly(Map.entry(Row.of("ok", 1), 1L));
    nulls.input("in").insert(item(2, null, 1L));
    assertThatThrownBy(nulls::run)
        .isInstanceOf(SchemaException.class)
        .hasMessageContaining("'name' is NOT NULL");
  }

  @Test
  void flatMapReturningABadRowFailsNamingTheOperator() {
    Graph g = graph(s -> s.flatMap(NAME_QTY, r -> List.of(Row.of("fine", 1), Row.of(1, 1))));
    g.input("in").insert(item(1, "a", 1L));
    assertThatThrownBy(g::run)
        .isInstanceOf(SchemaException.class)
        .hasMessageContaining("flatMap#")
        .hasMessageContaining("'name' expects STRING");
    assertThatThrownBy(g::run).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void exceptionFromAUserFunctionFailsTheGraph() {
    Graph g = graph(s -> s.filter(r -> {
      throw new ArithmeticException("boom");
    }));
    g.input("in").insert(item(1, "a", 1L));
    assertThatThrownBy(g::run).isInstanceOf(ArithmeticException.class).hasMessage("boom");
    assertThatThrownBy(g::run)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("failed in an earlier run")
        .hasCauseInstanceOf(ArithmeticException.class);
    assertThat(g.runs()).isZero();
  }
}
