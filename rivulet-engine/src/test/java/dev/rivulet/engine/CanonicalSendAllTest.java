package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@code Input.sendAll} with {@code canonical} (the query layer's hydration of a collection's
 * stored rows): rows that need no check are queued without a pass over them, and the graph's
 * output is the same as the general path's, which makes every typed row canonical. Rows checked
 * against another schema are still read and checked.
 */
class CanonicalSendAllTest {
  private static final Schema S = Schema.parse("id INT NOT NULL, score DOUBLE, tag STRING");

  private static Graph graph() {
    GraphBuilder b = Graph.builder();
    Stream in = b.input("in", S);
    b.output("all", in);
    b.output("top", in.filter(r -> r.get(1) != null).topK(List.of(SortKey.desc("score"), SortKey.asc("id")), 0, 20));
    return b.build();
  }

  private static Row[] rows(long seed, int n) {
    Random rnd = new Random(seed);
    Row[] rows = new Row[n];
    for (int i = 0; i < n; i++) {
      rows[i] = Row.of((long) i, rnd.nextInt(6) == 0 ? null : (Object) (long) rnd.nextInt(50), "t" + rnd.nextInt(9));
    }
    return rows;
  }

  @Test
  void canonicalRowsAreQueuedUnreadAndGiveTheGeneralPathsOutput() {
    for (long seed = 1; seed <= 8; seed++) {
      int n = seed < 3 ? (int) seed : 300 * (int) seed; // one or two rows, then hydration-sized
      Row[] canonical = rows(seed, n);
      Row[] typed = new Row[n]; // the same rows as users see them: the DOUBLE column's values as Doubles
      for (int i = 0; i < n; i++) {
        typed[i] = S.present(canonical[i]);
      }
      assertThat(n > 2 ? typed[n - 1].isTyped() || typed[n - 1].get(1) == null : true).isTrue();
      Graph fast = graph();
      Graph general = graph();
      Input fastIn = fast.input("in");
      Input generalIn = general.input("in");
      fastIn.sendAll(canonical, n, S, true);
      generalIn.sendAll(typed, n, S, false);
      assertThat(fastIn.preparedRows).as("seed %d: not read", seed).isZero();
      assertThat(generalIn.preparedRows).as("seed %d", seed).isEqualTo(n);
      fast.run();
      general.run();
      for (String out : List.of("all", "top")) {
        assertThat(fast.output(out).delta().toMap()).as("seed %d %s", seed, out)
            .isEqualTo(general.output(out).delta().toMap()).hasSizeLessThanOrEqualTo(n);
      }
      assertThat(fast.output("all").delta().toMap()).hasSize(n);
      for (Row r : general.output("all").delta().toMap().keySet()) {
        assertThat(r.isTyped()).as("the general path made the typed rows canonical").isFalse();
      }
    }
  }

  @Test
  void rowsCheckedAgainstAnotherSchemaAreStillChecked() {
    Schema other = Schema.parse("id INT NOT NULL, score DOUBLE, tag STRING, extra INT");
    Row[] rows = rows(3, 10);
    Graph g = graph();
    Input in = g.input("in");
    in.sendAll(rows.clone(), rows.length, other, true);
    assertThat(in.preparedRows).isEqualTo(rows.length);
    Row[] bad = rows.clone();
    bad[4] = Row.of(4L, "not a number", "t");
    assertThatThrownBy(() -> graph().input("in").sendAll(bad, bad.length, other, true))
        .isInstanceOf(SchemaException.class);
  }
}
