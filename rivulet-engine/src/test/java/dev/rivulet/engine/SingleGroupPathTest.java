package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The one-partition path of a partitioned top-K and the one-group path of a reduce (taken when
 * every change of a run has one partition or group, as a single-row update does) give what a
 * naive recomputation gives, as the general path (runs that touch several) does; so do window
 * walks, scanning a few candidates or mapping more. Each run's
 * output change is compared with the difference of the naive results before and after it. Fixed
 * seeds, named in every failure.
 */
class SingleGroupPathTest {
  private static final Schema S = Schema.parse("id INT NOT NULL, grp INT NOT NULL, score INT NOT NULL");
  private static final Schema OUT = Schema.parse("grp INT NOT NULL, ids STRING");
  private static final Comparator<Row> ORDER =
      Comparator.<Row>comparingLong(r -> -r.getLong(2)).thenComparingLong(r -> r.getLong(0));

  @Test
  void onePartitionTopKAgreesWithNaiveWindows() {
    for (long seed = 1; seed <= 30; seed++) {
      GraphBuilder b = Graph.builder();
      b.output("out", b.input("in", S).topK(List.of("grp"), List.of(SortKey.desc("score"), SortKey.asc("id")), 1, 3));
      Graph g = b.build();
      TopKOperator topK = only(g, TopKOperator.class);
      long general = run(g, seed, 5, rows -> windows(rows, true, 1, 3));
      assertThat(topK.onePartitionRuns).as("seed %d: one-partition runs", seed).isPositive();
      assertThat(general).as("seed %d: runs over several partitions", seed).isPositive();
      assertThat(topK.mappedWalks()).as("seed %d: window walks of at most 8 rows scan", seed).isZero();
    }
  }

  /** A whole top-K whose window walks meet more rows than a scan takes: they use the map. */
  @Test
  void largeWindowWalksAgreeWithNaiveWindows() {
    for (long seed = 1; seed <= 30; seed++) {
      GraphBuilder b = Graph.builder();
      b.output("out", b.input("in", S).topK(List.of(SortKey.desc("score"), SortKey.asc("id")), 2, 10));
      Graph g = b.build();
      TopKOperator topK = only(g, TopKOperator.class);
      run(g, seed, 1, rows -> windows(rows, false, 2, 10));
      assertThat(topK.mappedWalks()).as("seed %d: walks that went into the map", seed).isPositive();
    }
  }

  @Test
  void oneGroupReduceAgreesWithNaiveGroups() {
    for (long seed = 1; seed <= 30; seed++) {
      GraphBuilder b = Graph.builder();
      b.output("out", b.input("in", S).reduce(List.of("grp"), OUT, (key, group) -> {
        List<Row> rows = new ArrayList<>();
        for (ZSet.Entry e : group) {
          for (long w = 0; w < e.weight(); w++) {
            rows.add(e.row());
          }
        }
        rows.sort(ORDER);
        StringBuilder ids = new StringBuilder();
        rows.forEach(r -> ids.append(r.getLong(0)).append(','));
        return ZSet.of(Row.of(key.get(0), ids.toString()));
      }));
      Graph g = b.build();
      ReduceOperator reduce = only(g, ReduceOperator.class);
      long general = run(g, seed, 5, this::groups);
      assertThat(reduce.oneKeyRuns).as("seed %d: one-group runs", seed).isPositive();
      assertThat(general).as("seed %d: runs over several groups", seed).isPositive();
    }
  }

  /** What the graph's output should hold for the rows {@code rows}. */
  private interface Naive {
    Map<Row, Long> of(Set<Row> rows);
  }

  /**
   * Hydrates, then runs batches of inserts and deletes (most of one group, some of several),
   * checking each output change; returns how many touched several groups.
   */
  private static long run(Graph g, long seed, int groupCount, Naive naive) {
    Random rnd = new Random(seed);
    Set<Row> rows = new LinkedHashSet<>();
    long nextId = 0;
    for (int i = 0; i < 40; i++) {
      Row r = Row.of(nextId++, (long) rnd.nextInt(groupCount), (long) rnd.nextInt(10));
      rows.add(r);
      g.input("in").send(r, 1);
    }
    g.run();
    long general = 0;
    for (int run = 0; run < 300; run++) {
      Map<Row, Long> before = naive.of(rows);
      boolean several = rnd.nextInt(4) == 0;
      long grp = rnd.nextInt(groupCount);
      Set<Long> groups = new LinkedHashSet<>();
      for (int k = 1 + rnd.nextInt(groupCount == 1 ? 6 : 3); k > 0; k--) {
        long gk = several ? rnd.nextInt(groupCount) : grp;
        List<Row> inGroup = rows.stream().filter(r -> r.getLong(1) == gk).toList();
        if (!inGroup.isEmpty() && rnd.nextBoolean()) {
          Row gone = inGroup.get(rnd.nextInt(inGroup.size()));
          rows.remove(gone);
          g.input("in").send(gone, -1);
        } else {
          Row r = Row.of(nextId++, gk, (long) rnd.nextInt(10));
          rows.add(r);
          g.input("in").send(r, 1);
        }
        groups.add(gk);
      }
      general += groups.size() > 1 ? 1 : 0;
      g.run();
      Map<Row, Long> want = new HashMap<>(naive.of(rows));
      before.forEach((r, w) -> want.merge(r, -w, Long::sum));
      want.values().removeIf(w -> w == 0);
      assertThat(g.output("out").delta().toMap()).as("seed %d, run %d", seed, run).isEqualTo(want);
    }
    return general;
  }

  /** Ranks {@code offset .. offset + limit - 1} by score descending, then id, of each group or of all. */
  private static Map<Row, Long> windows(Set<Row> rows, boolean perGroup, int offset, int limit) {
    Map<Long, List<Row>> byGroup = new HashMap<>();
    rows.forEach(r -> byGroup.computeIfAbsent(perGroup ? r.getLong(1) : 0L, k -> new ArrayList<>()).add(r));
    Map<Row, Long> out = new HashMap<>();
    byGroup.values().forEach(l -> {
      l.sort(ORDER);
      l.subList(Math.min(offset, l.size()), Math.min(offset + limit, l.size())).forEach(r -> out.put(r, 1L));
    });
    return out;
  }

  /** Per group, its ids in order as one string. */
  private Map<Row, Long> groups(Set<Row> rows) {
    Map<Long, List<Row>> byGroup = new HashMap<>();
    rows.forEach(r -> byGroup.computeIfAbsent(r.getLong(1), k -> new ArrayList<>()).add(r));
    Map<Row, Long> out = new HashMap<>();
    byGroup.forEach((grp, l) -> {
      l.sort(ORDER);
      StringBuilder ids = new StringBuilder();
      l.forEach(r -> ids.append(r.getLong(0)).append(','));
      out.put(Row.of(grp, ids.toString()), 1L);
    });
    return out;
  }

  private static <T> T only(Graph g, Class<T> type) {
    return g.operators().stream().filter(type::isInstance).map(type::cast).findFirst().orElseThrow();
  }
}
