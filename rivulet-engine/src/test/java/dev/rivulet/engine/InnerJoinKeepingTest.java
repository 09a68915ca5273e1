package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.state.KeyIndex;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A projecting inner join ({@link Stream#innerJoinKeeping}) gives, run by run, the same change as
 * the plain inner join followed by the projection to the kept columns: on update-sized runs (row
 * by row) and hydration-sized ones (bulk), with retractions, repeated keys and null keys, on one
 * and on two key columns. Seeds: {@code -Drivulet.seed} replays one, {@code -Drivulet.runs}
 * multiplies the runs.
 */
class InnerJoinKeepingTest {
  private static final long BASE_SEED = Long.getLong("rivulet.seed", 0x101AEEL);
  private static final int RUNS = 12 * Integer.getInteger("rivulet.runs", 1);
  private static final Schema L = Schema.parse("id INT NOT NULL, k INT, k2 STRING, a STRING");
  private static final Schema R = Schema.parse("id INT NOT NULL, k INT, k2 STRING, b STRING");
  private static final int[] KEEP_L = {3, 0};
  private static final int[] KEEP_R = {0, 3, 1};

  private static Graph graph(List<String> lk, List<String> rk) {
    GraphBuilder b = Graph.builder();
    Stream l = b.input("l", L);
    Stream r = b.input("r", R);
    b.output("keeping", l.innerJoinKeeping(r, lk, rk, KEEP_L, KEEP_R));
    Stream plain = l.join(r, JoinType.INNER, lk, rk);
    int[] cols = {KEEP_L[0], KEEP_L[1], L.width() + KEEP_R[0], L.width() + KEEP_R[1], L.width() + KEEP_R[2]};
    b.output("plain", plain.map(Schema.parse("a STRING, id INT NOT NULL, right_id INT NOT NULL, b STRING, k INT"),
        row -> row.project(cols)));
    return b.build();
  }

  @Test
  void keepsTheNamedColumnsUnderTheJoinsNames() {
    Graph g = graph(List.of("k"), List.of("k"));
    assertThat(g.output("keeping").schema().names()).containsExactly("a", "id", "right_id", "b", "k");
    assertThat(g.stats().stream().map(OperatorStats::kind).toList()).contains("inner-join-keeping", "inner-join");
    g.input("l").send(Row.of(1, 7, "x", "la"), 1);
    g.input("r").send(Row.of(2, 7, "y", "rb"), 1);
    g.run();
    assertThat(g.output("keeping").delta().toMap()).containsOnly(Map.entry(Row.of("la", 1, 2, "rb", 7), 1L));
  }

  @Test
  void aKeptColumnOutOfRangeIsAWiringError() {
    GraphBuilder b = Graph.builder();
    Stream l = b.input("l", L);
    Stream r = b.input("r", R);
    assertThatThrownBy(() -> l.innerJoinKeeping(r, List.of("k"), List.of("k"), new int[] {4}, new int[] {0}))
        .isInstanceOf(WiringException.class).hasMessageContaining("no left column 4");
    assertThatThrownBy(() -> l.innerJoinKeeping(r, List.of("k"), List.of("k"), new int[] {0}, new int[] {-1}))
        .isInstanceOf(WiringException.class).hasMessageContaining("no right column -1");
  }

  @Test
  void randomRunsAgreeWithTheJoinThenTheProjection() {
    for (int run = 0; run < RUNS; run++) {
      long seed = BASE_SEED + run;
      Random rnd = new Random(seed);
      boolean two = rnd.nextBoolean();
      Graph g = two ? graph(List.of("k", "k2"), List.of("k", "k2")) : graph(List.of("k"), List.of("k"));
      Map<Row, Long> liveL = new HashMap<>();
      Map<Row, Long> liveR = new HashMap<>();
      for (int step = 0; step < 6; step++) {
        int n = step == 0 ? KeyIndex.BULK_AT + rnd.nextInt(2000) : rnd.nextInt(40);
        send(g.input("l"), liveL, rnd, n, "la");
        send(g.input("r"), liveR, rnd, step == 0 ? n / 4 : rnd.nextInt(10), "rb");
        g.run();
        assertThat(g.output("keeping").delta().toMap()).as("seed %d step %d", seed, step)
            .isEqualTo(g.output("plain").delta().toMap());
      }
    }
  }

  private static void send(Input in, Map<Row, Long> live, Random rnd, int n, String prefix) {
    List<Row> present = new ArrayList<>(live.keySet());
    for (int i = 0; i < n; i++) {
      if (!present.isEmpty() && rnd.nextInt(4) == 0) {
        Row gone = present.remove(rnd.nextInt(present.size()));
        in.send(gone, -1);
        live.remove(gone);
        continue;
      }
      Integer k = rnd.nextInt(30) == 0 ? null : rnd.nextInt(50);
      Row row = Row.of(rnd.nextInt(1_000_000), k, "s" + rnd.nextInt(2), prefix + rnd.nextInt(5));
      if (live.containsKey(row)) {
        continue;
      }
      in.send(row, 1);
      live.put(row, 1L);
      present.add(row);
    }
  }
}
