package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.state.KeyIndex;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Which index a join builds: a one-column join keys its indexes by the value, integer values in
 * the primitive table ({@link KeyIndex#longKeys}) and others beside it; a several-column join by
 * the projected row. A hydration-sized batch is loaded in bulk or packed (a retraction under a
 * packed key stays packed), and a negative multiplicity is reported the same way on both paths.
 */
class JoinIndexPathTest {
  private static final Schema L = Schema.parse("id INT NOT NULL, k DECIMAL, c INT");
  private static final Schema R = Schema.parse("rid INT NOT NULL, k DECIMAL, c INT");

  private static JoinOperator join(GraphBuilder b, Stream left, Stream right, List<String> keys) {
    Stream out = left.join(right, JoinType.INNER, keys, keys);
    b.output("out", out);
    return (JoinOperator) out.op;
  }

  @Test
  void oneColumnKeysGoToThePrimitiveTableUnlessTheyAreNotIntegers() {
    GraphBuilder b = Graph.builder();
    JoinOperator op = join(b, b.input("l", L), b.input("r", R), List.of("k"));
    Graph g = b.build();
    g.input("l").send(Row.of(1, Long.MIN_VALUE, 0), 1).send(Row.of(2, Long.MAX_VALUE, 0), 1)
        .send(Row.of(3, new BigDecimal("7.000"), 0), 1).send(Row.of(4, 1.5, 0), 1).send(Row.of(5, null, 0), 1);
    g.input("r").send(Row.of(10, 7, 0), 2).send(Row.of(11, 1.5, 0), 1).send(Row.of(12, null, 0), 1);
    g.run();
    assertThat(op.keyKind()).isEqualTo("value");
    assertThat(op.index(true).longKeys()).isEqualTo(3); // MIN, MAX and 7.000 (canonically the integer 7)
    assertThat(op.index(true).otherKeys()).isEqualTo(1); // 1.5; the null key is not retained
    assertThat(op.index(false).longKeys()).isEqualTo(1);
    assertThat(op.index(false).otherKeys()).isEqualTo(1);
    assertThat(g.output("out").delta().toMap()).containsOnly(
        Map.entry(Row.of(3, 7, 0, 10, 7, 0), 2L),
        Map.entry(Row.of(4, 1.5, 0, 11, 1.5, 0), 1L));
  }

  @Test
  void severalColumnKeysUseTheRowIndex() {
    GraphBuilder b = Graph.builder();
    JoinOperator op = join(b, b.input("l", L), b.input("r", R), List.of("k", "c"));
    Graph g = b.build();
    g.input("l").send(Row.of(1, 7, 0), 1);
    g.input("r").send(Row.of(10, 7, 0), 1).send(Row.of(11, 7, 1), 1);
    g.run();
    assertThat(op.keyKind()).isEqualTo("row");
    assertThat(op.index(true).longKeys()).isZero();
    assertThat(op.index(true).otherKeys()).isEqualTo(1);
    assertThat(op.index(false).otherKeys()).isEqualTo(2);
    assertThat(g.output("out").delta().toMap()).containsOnly(Map.entry(Row.of(1, 7, 0, 10, 7, 0), 1L));
  }

  @Test
  void aHydrationSizedBatchIsPackedAndOnlyTheKeysLookedUpGetBags() {
    GraphBuilder b = Graph.builder();
    JoinOperator op = join(b, b.input("l", L), b.input("r", R), List.of("k"));
    Graph g = b.build();
    int n = KeyIndex.BULK_AT * 2;
    for (int i = 0; i < n; i++) {
      g.input("r").send(Row.of(i, i % 1000, 0), 1 + (i / 1000) % 2);
    }
    g.input("l").send(Row.of(1, 999, 0), 1);
    g.run();
    KeyIndex<Row> right = op.index(false);
    assertThat(right.packs()).isEqualTo(1);
    assertThat(right.bulkLoads()).isZero();
    assertThat(right.longKeys()).as("the left rows met the right ones before they were packed").isZero();
    assertThat(right.packed()).isEqualTo(n);
    assertThat(right.entries()).isEqualTo(n);
    Map<Row, Long> out = g.output("out").delta().toMap();
    assertThat(out).hasSize(n / 1000);
    assertThat(out).containsEntry(Row.of(1, 999, 0, 999, 999, 0), 1L).containsEntry(Row.of(1, 999, 0, 1999, 999, 0), 2L);

    g.resetCounters();
    g.input("l").send(Row.of(2, 5, 0), 1); // a new key: its packed rows get a bag, counted as examined
    g.run();
    int five = (n - 5 + 999) / 1000; // the right rows of key 5: 5, 1005, ..., 8005
    assertThat(g.output("out").delta().toMap()).hasSize(five)
        .containsEntry(Row.of(2, 5, 0, 5, 5, 0), 1L).containsEntry(Row.of(2, 5, 0, 1005, 5, 0), 2L);
    assertThat(right.longKeys()).as("only key 5 has a bag").isEqualTo(1);
    assertThat(right.packed()).isEqualTo(n - five);
    assertThat(op.stats().examined()).as("the row, key 5's packed rows moved, then met").isEqualTo(1 + 2L * five);
  }

  @Test
  void aRetractionUnderAPackedKeyStaysPackedAndCountsTheEntriesItComparedAsExamined() {
    GraphBuilder b = Graph.builder();
    JoinOperator op = join(b, b.input("l", L), b.input("r", R), List.of("k"));
    Graph g = b.build();
    int n = KeyIndex.BULK_AT * 2;
    Row[] rows = new Row[n];
    for (int i = 0; i < n; i++) {
      rows[i] = Row.of(i, i % 1000, 0);
      g.input("r").send(rows[i], 1);
    }
    g.run();
    KeyIndex<Row> right = op.index(false);
    assertThat(right.packed()).isEqualTo(n);
    int five = (n - 5 + 999) / 1000; // the right rows of key 5: 5, 1005, ..., 8005

    g.resetCounters();
    g.input("r").send(rows[1005], -1); // the stored row itself: found second in key 5's chain
    g.run();
    assertThat(right.longKeys()).as("no bag made for key 5").isZero();
    assertThat(right.packed()).isEqualTo(n - 1);
    assertThat(op.stats().examined()).as("the row, then entries 5 and 1005 compared").isEqualTo(1 + 2);

    g.resetCounters();
    g.input("r").send(Row.of(3005, 5, 0), -1); // an equal copy: all by identity, then up to it by equals
    g.run();
    assertThat(right.longKeys()).isZero();
    assertThat(right.packed()).isEqualTo(n - 2);
    assertThat(op.stats().examined()).as("the row, then " + (five - 1) + " + 3 entries").isEqualTo(1 + (five - 1) + 3);

    g.resetCounters();
    g.input("l").send(Row.of(1, 5, 0), 1);
    g.run();
    assertThat(g.output("out").delta().toMap()).hasSize(five - 2)
        .doesNotContainKey(Row.of(1, 5, 0, 1005, 5, 0)).doesNotContainKey(Row.of(1, 5, 0, 3005, 5, 0));
    assertThat(right.opened()).isEqualTo(five - 2);
    assertThat(op.stats().examined()).as("the row, key 5's packed rows left moved, then met").isEqualTo(1 + 2L * (five - 2));
  }

  @Test
  void aNegativeMultiplicityNamesTheRowOnTheSingleAndTheBulkPath() {
    for (int n : new int[] {1, KeyIndex.BULK_AT}) {
      GraphBuilder b = Graph.builder();
      join(b, b.input("l", L), b.input("r", R).concat(b.input("minus", R).negate()), List.of("k"));
      Graph g = b.build();
      for (int i = 0; i < n - 1; i++) {
        g.input("r").send(Row.of(i, i, 0), 1);
      }
      g.input("minus").send(Row.of(-5, 3, 0), 2);
      assertThatThrownBy(g::run)
          .isInstanceOf(InvariantViolation.class)
          .hasMessageContaining("inner-join")
          .hasMessageContaining(Row.of(-5, 3, 0).toString())
          .hasMessageContaining("-2");
    }
  }
}
