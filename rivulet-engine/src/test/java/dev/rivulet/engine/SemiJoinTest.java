package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The semi-join ({@link Stream#semiJoin}) gives, run by run, the same change as the inner join
 * with the right side followed by the projection to the left columns: with the left rows
 * hydrated through its input or handed over by a {@link RowSource} when the graph first runs,
 * on update-sized and hydration-sized runs, with retractions, repeated right keys, null keys,
 * one and two key columns, and integer keys mixed with others (the index's switch from primitive
 * keys). Seeds: {@code -Drivulet.seed} replays one, {@code -Drivulet.runs} multiplies the runs.
 */
class SemiJoinTest {
  private static final long BASE_SEED = Long.getLong("rivulet.seed", 0x5E31L);
  private static final int RUNS = 12 * Integer.getInteger("rivulet.runs", 1);
  private static final Schema L = Schema.parse("id INT NOT NULL, k ANY, k2 STRING, a STRING");
  private static final Schema R = Schema.parse("k ANY, k2 STRING, n INT");

  /** The rows a source hands over, counted. */
  private static final class Rows implements RowSource {
    final List<Row> rows = new ArrayList<>();
    int reads;

    @Override
    public int size() {
      return rows.size();
    }

    @Override
    public void forEachRow(Consumer<Row> sink) {
      reads++;
      rows.forEach(sink);
    }
  }

  private static Graph graph(List<String> keys, Rows initial) {
    GraphBuilder b = Graph.builder();
    Stream semiLeft = b.input("semiL", L);
    Stream l = b.input("l", L);
    Stream r = b.input("r", R);
    b.output("semi", semiLeft.semiJoin(r, keys, keys, initial == null ? null : () -> initial));
    int[] own = {0, 1, 2, 3};
    b.output("plain", l.join(r, JoinType.INNER, keys, keys).map(L, row -> row.project(own)));
    return b.build();
  }

  @Test
  void emitsTheLeftRowsOfEachRightKey() {
    Graph g = graph(List.of("k"), null);
    assertThat(g.stats().stream().map(OperatorStats::kind).toList()).contains("semi-join");
    g.input("semiL").send(Row.of(1, 7, "x", "a"), 1).send(Row.of(2, 8, "x", "b"), 1);
    g.input("r").send(Row.of(7, "y", 0), 1);
    g.run();
    assertThat(g.output("semi").delta().toMap()).containsOnly(Map.entry(Row.of(1, 7, "x", "a"), 1L));
    g.input("r").send(Row.of(7, "y", 0), -1).send(Row.of(8, "z", 0), 1);
    g.run();
    assertThat(g.output("semi").delta().toMap()).containsOnly(Map.entry(Row.of(1, 7, "x", "a"), -1L),
        Map.entry(Row.of(2, 8, "x", "b"), 1L));
  }

  @Test
  void takesTheInitialRowsFromTheSourceOnceWhenTheGraphFirstRuns() {
    Rows initial = new Rows();
    initial.rows.add(Row.of(1, 7, "x", "a"));
    initial.rows.add(Row.of(2, 7, "x", "b"));
    initial.rows.add(Row.of(3, null, "x", "c"));
    Graph g = graph(List.of("k"), initial);
    g.input("r").send(Row.of(7, "y", 0), 1);
    g.run();
    assertThat(initial.reads).isEqualTo(1);
    assertThat(g.output("semi").delta().toMap()).containsOnly(Map.entry(Row.of(1, 7, "x", "a"), 1L),
        Map.entry(Row.of(2, 7, "x", "b"), 1L));
    g.input("semiL").send(Row.of(2, 7, "x", "b"), -1, L); // the query layer's (uncounted) path
    g.run();
    assertThat(initial.reads).isEqualTo(1);
    assertThat(g.output("semi").delta().toMap()).containsOnly(Map.entry(Row.of(2, 7, "x", "b"), -1L));
  }

  @Test
  void aHeavyLeftRowIsOneEntryNotOnePerUnit() {
    Graph g = graph(List.of("k"), null);
    long heavy = 1L << 40; // a loop per unit would not finish
    g.input("semiL").send(Row.of(1, 7, "x", "a"), heavy);
    g.input("r").send(Row.of(7, "y", 0), 3);
    g.run();
    assertThat(g.output("semi").delta().toMap()).containsOnly(Map.entry(Row.of(1, 7, "x", "a"), 3 * heavy));
    assertThat(semiJoin(g).retained()).isEqualTo(2); // the left entry and the right key
    g.input("semiL").send(Row.of(1, 7, "x", "a"), 1 - heavy);
    g.run();
    assertThat(g.output("semi").delta().toMap()).containsOnly(Map.entry(Row.of(1, 7, "x", "a"), 3 * (1 - heavy)));
    g.input("r").send(Row.of(7, "y", 0), -3);
    g.run();
    assertThat(g.output("semi").delta().toMap()).containsOnly(Map.entry(Row.of(1, 7, "x", "a"), -3L));
  }

  private static OperatorStats semiJoin(Graph g) {
    return g.stats().stream().filter(s -> s.kind().equals("semi-join")).findFirst().orElseThrow();
  }

  @Test
  void retractingALeftRowThatIsNotThereIsAViolation() {
    Graph g = graph(List.of("k"), null);
    g.input("semiL").send(Row.of(1, 7, "x", "a"), -1, L); // trusted, as the query layer sends
    assertThatThrownBy(g::run).isInstanceOf(InvariantViolation.class).hasMessageContaining("would become negative");
  }

  @Test
  void randomRunsAgreeWithTheJoinThenTheProjection() {
    for (int run = 0; run < RUNS; run++) {
      long seed = BASE_SEED + run;
      Random rnd = new Random(seed);
      List<String> keys = rnd.nextBoolean() ? List.of("k", "k2") : List.of("k");
      boolean mixed = rnd.nextInt(3) == 0;
      Rows initial = rnd.nextBoolean() ? new Rows() : null;
      Graph g = graph(keys, initial);
      Map<Row, Long> liveL = new HashMap<>();
      Map<Row, Long> liveR = new HashMap<>();
      for (int step = 0; step < 8; step++) {
        int n = step == 0 ? 3000 + rnd.nextInt(2000) : rnd.nextInt(40);
        List<Row> changes = new ArrayList<>();
        List<Long> weights = new ArrayList<>();
        change(liveL, rnd, n, mixed, false, changes, weights);
        for (int i = 0; i < changes.size(); i++) {
          g.input("l").send(changes.get(i), weights.get(i));
          if (step == 0 && initial != null) {
            for (long w = weights.get(i); w != 0; w -= Long.signum(w)) { // the net rows: handed over, not sent
              if (w > 0) {
                initial.rows.add(changes.get(i));
              } else {
                initial.rows.remove(changes.get(i));
              }
            }
          } else {
            g.input("semiL").send(changes.get(i), weights.get(i), L);
          }
        }
        changes.clear();
        weights.clear();
        change(liveR, rnd, step == 0 ? 20 : rnd.nextInt(6), mixed, true, changes, weights);
        for (int i = 0; i < changes.size(); i++) {
          g.input("r").send(changes.get(i), weights.get(i));
        }
        g.run();
        assertThat(g.output("semi").delta().toMap()).as("seed %d step %d", seed, step)
            .isEqualTo(g.output("plain").delta().toMap());
      }
    }
  }

  /** {@code n} random insertions and retractions of the rows of {@code live} (right rows may repeat a key). */
  private static void change(Map<Row, Long> live, Random rnd, int n, boolean mixed, boolean isRight, List<Row> rows,
      List<Long> weights) {
    List<Row> present = new ArrayList<>(live.keySet());
    for (int i = 0; i < n; i++) {
      if (!present.isEmpty() && rnd.nextInt(4) == 0) {
        Row gone = present.remove(rnd.nextInt(present.size()));
        rows.add(gone);
        weights.add(-live.remove(gone));
        continue;
      }
      Object k = rnd.nextInt(30) == 0 ? null : mixed && rnd.nextInt(3) == 0 ? "t" + rnd.nextInt(20) : rnd.nextInt(50);
      Row row = isRight ? Row.of(k, "s" + rnd.nextInt(2), rnd.nextInt(2))
          : Row.of(rnd.nextInt(1_000_000), k, "s" + rnd.nextInt(2), "v" + rnd.nextInt(5));
      if (live.containsKey(row)) {
        continue;
      }
      long w = isRight ? 1 : 1 + rnd.nextInt(2);
      rows.add(row);
      weights.add(w);
      live.put(row, w);
      present.add(row);
    }
  }
}
