package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * An output sink takes its run's unpositioned batch over whole (counted in its {@code handOffs})
 * instead of copying it, and its change is still what the copying sink gave: entries as sent for
 * an insert-only change of a keyed output, the sums of equal rows (zeros dropped) otherwise, read
 * alike through {@link Output#delta} and the in-place readers; {@link Output#deltaInserts} gives
 * the rows exactly when every weight is one. A positioned output keeps copying. The expected
 * changes are summed here with a map. Fixed seeds, named in every failure.
 */
class OutputTakeOverTest {
  private static final Schema S = Schema.parse("id INT NOT NULL, v INT");

  @Test
  void takenOverChangesAreTheSentOnesConsolidatedAsBefore() {
    for (long seed = 1; seed <= 40; seed++) {
      Random rnd = new Random(seed);
      boolean keyed = rnd.nextBoolean();
      GraphBuilder b = Graph.builder();
      Stream kept = b.input("in", S).filter(r -> r.getLong(0) % 5 != 0);
      if (keyed) {
        b.keyedOutput("out", kept);
      } else {
        b.output("out", kept);
      }
      Graph g = b.build();
      Operator sink = g.operators().stream().filter(o -> o.kind.equals("output")).findFirst().orElseThrow();
      List<Row> held = new ArrayList<>(); // the input's rows: what a retraction may take back
      for (int run = 0; run < 4; run++) {
        boolean hydration = run == 0 && rnd.nextBoolean();
        int n = rnd.nextInt(run == 0 ? 2_000 : 40);
        List<Row> sent = new ArrayList<>();
        List<Long> weights = new ArrayList<>();
        Row[] all = new Row[n];
        for (int i = 0; i < n; i++) {
          boolean retract = !hydration && !held.isEmpty() && rnd.nextInt(3) == 0;
          all[i] = retract ? held.remove(rnd.nextInt(held.size())) : Row.of((long) rnd.nextInt(300), (long) rnd.nextInt(4));
          long w = retract ? -1 : 1;
          if (!retract) {
            held.add(all[i]);
          }
          sent.add(all[i]);
          weights.add(w);
          if (!hydration) {
            g.input("in").send(all[i], w);
          }
        }
        if (hydration) {
          g.input("in").sendAll(all, n, S);
        }
        long before = sink.handOffs;
        g.run();
        Output out = g.output("out");
        String at = "seed " + seed + " run " + run + (keyed ? " keyed" : "");
        List<Map.Entry<Row, Long>> expected = expected(sent, weights, keyed);
        assertThat(entries(out.delta())).as(at).isEqualTo(expected);
        List<Map.Entry<Row, Long>> inPlace = new ArrayList<>();
        for (int i = 0; i < out.deltaSize(); i++) {
          inPlace.add(Map.entry(out.deltaRow(i), out.deltaWeight(i)));
        }
        assertThat(inPlace).as(at).isEqualTo(expected);
        boolean insertOnly = expected.stream().allMatch(e -> e.getValue() == 1);
        Row[] inserts = out.deltaInserts();
        assertThat(inserts != null).as(at).isEqualTo(insertOnly);
        if (inserts != null) {
          assertThat(java.util.Arrays.asList(inserts).subList(0, out.deltaSize())).as(at)
              .isEqualTo(expected.stream().map(Map.Entry::getKey).toList());
        }
        // One batch a run reaches the sink (none when everything cancelled out upstream).
        assertThat(sink.handOffs - before).as(at).isBetween(expected.isEmpty() ? 0L : 1L, 1L);
      }
    }
  }

  @Test
  void aPositionedOutputIsCopiedWithItsPositions() {
    GraphBuilder b = Graph.builder();
    b.output("top", b.input("in", S).topK(List.of(SortKey.desc("v"), SortKey.asc("id")), 0, 3));
    Graph g = b.build();
    Operator sink = g.operators().stream().filter(o -> o.kind.equals("output")).findFirst().orElseThrow();
    for (long i = 0; i < 10; i++) {
      g.input("in").insert(Row.of(i, i * 7 % 10));
    }
    g.run();
    Output out = g.output("top");
    assertThat(sink.handOffs).isZero();
    assertThat(out.deltaInserts()).isNull();
    assertThat(out.deltaPosition(0)).isNotNegative();
    assertThat(entries(out.delta())).extracting(Map.Entry::getKey)
        .containsExactlyInAnyOrder(Row.of(7L, 9L), Row.of(4L, 8L), Row.of(1L, 7L));
  }

  /** As emitted for a keyed insert-only change; else summed per row in first-seen order, zeros dropped. */
  private static List<Map.Entry<Row, Long>> expected(List<Row> sent, List<Long> weights, boolean keyed) {
    List<Map.Entry<Row, Long>> kept = new ArrayList<>();
    boolean retracting = false;
    for (int i = 0; i < sent.size(); i++) {
      if (sent.get(i).getLong(0) % 5 != 0) {
        kept.add(Map.entry(sent.get(i), weights.get(i)));
        retracting |= weights.get(i) < 1;
      }
    }
    if (keyed && !retracting) {
      return kept;
    }
    Map<Row, Long> sums = new LinkedHashMap<>();
    for (Map.Entry<Row, Long> e : kept) {
      sums.merge(e.getKey(), e.getValue(), Long::sum);
    }
    Map<Row, Long> nonZero = new HashMap<>();
    List<Map.Entry<Row, Long>> out = new ArrayList<>();
    for (Map.Entry<Row, Long> e : sums.entrySet()) {
      if (e.getValue() != 0 && nonZero.put(e.getKey(), e.getValue()) == null) {
        out.add(Map.entry(e.getKey(), e.getValue()));
      }
    }
    return out;
  }

  private static List<Map.Entry<Row, Long>> entries(ZSet z) {
    List<Map.Entry<Row, Long>> out = new ArrayList<>();
    for (int i = 0; i < z.size(); i++) {
      out.add(Map.entry(z.row(i), z.weight(i)));
    }
    return out;
  }
}
