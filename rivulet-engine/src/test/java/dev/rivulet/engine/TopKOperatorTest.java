package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Order-by with offset and limit, per partition, with positioned output deltas. */
class TopKOperatorTest {
  private static final Schema S = Schema.parse("id INT NOT NULL, grp STRING, score INT, name STRING");

  private static Row row(long id, String grp, Long score, String name) {
    return Row.of(id, grp, score, name);
  }

  /** A graph with one top-K and a client-side copy of its windows, kept by splicing deltas. */
  private static final class Harness {
    final Graph graph;
    final List<String> partitionBy;
    final List<SortKey> order;
    final long offset;
    final long limit;
    final int[] partitionCols;
    final Map<Row, List<Row>> windows = new HashMap<>();
    final Map<Row, Long> contents = new HashMap<>();

    Harness(List<String> partitionBy, List<SortKey> order, long offset, long limit) {
      this.partitionBy = partitionBy;
      this.order = order;
      this.offset = offset;
      this.limit = limit;
      GraphBuilder b = Graph.builder();
      b.output("out", b.input("in", S).topK(partitionBy, order, offset, limit));
      graph = b.build();
      partitionCols = S.indexesOf(partitionBy);
    }

    Harness send(Row r, long w) {
      graph.input("in").send(r, w);
      contents.merge(r, w, Long::sum);
      contents.values().removeIf(c -> c == 0);
      return this;
    }

    /** Runs, checks the delta's shape, splices it into the windows and returns it. */
    ZSet run() {
      graph.run();
      ZSet delta = graph.output("out").delta();
      Map<Row, List<ZSet.Entry>> byPartition = new LinkedHashMap<>();
      for (ZSet.Entry e : delta) {
        assertThat(e.position()).as("every entry is positioned: %s", delta).isNotNegative();
        assertThat(e.weight()).isNotZero();
        byPartition.computeIfAbsent(e.row().project(partitionCols), k -> new ArrayList<>()).add(e);
      }
      byPartition.forEach((p, entries) -> {
        // Retractions first in descending old position, then insertions in ascending new position.
        int firstInsert = 0;
        while (firstInsert < entries.size() && entries.get(firstInsert).weight() < 0) {
          firstInsert++;
        }
        for (int i = 0; i < entries.size(); i++) {
          if (i >= firstInsert) {
            assertThat(entries.get(i).weight()).as("insertions after retractions: %s", delta).isPositive();
          }
          if (i > 0 && i < firstInsert) {
            assertThat(entries.get(i).position()).as("retractions descend: %s", delta)
                .isLessThan(entries.get(i - 1).position());
          }
          if (i > firstInsert) {
            assertThat(entries.get(i).position()).as("insertions ascend: %s", delta)
                .isGreaterThan(entries.get(i - 1).position());
          }
        }
        List<Row> rows = new ArrayList<>();
        long[] weights = new long[entries.size()];
        int[] positions = new int[entries.size()];
        for (int i = 0; i < entries.size(); i++) {
          rows.add(entries.get(i).row());
          weights[i] = entries.get(i).weight();
          positions[i] = entries.get(i).position();
        }
        List<Row> window = windows.computeIfAbsent(p, k -> new ArrayList<>());
        ZSet.fromArrays(rows.toArray(new Row[0]), weights, positions).spliceInto(window);
        if (window.isEmpty()) {
          windows.remove(p);
        }
      });
      return delta;
    }

    Comparator<Row> comparator() {
      return (a, b) -> {
        for (SortKey k : order) {
          int c = S.indexOf(k.column());
          Object x = a.get(c);
          Object y = b.get(c);
          if (x == null && y == null) {
            continue;
          }
          if (x == null || y == null) {
            boolean xFirst = (x == null) == k.nullsFirst();
            return xFirst ? -1 : 1;
          }
          int cmp = Values.compare(x, y);
          if (cmp != 0) {
            return k.descending() ? -cmp : cmp;
          }
        }
        return a.compareTo(b);
      };
    }

    /** The windows a fresh evaluation gives. */
    Map<Row, List<Row>> expected() {
      Map<Row, List<Row>> parts = new HashMap<>();
      contents.forEach((r, w) -> {
        for (long i = 0; i < w; i++) {
          parts.computeIfAbsent(r.project(partitionCols), k -> new ArrayList<>()).add(r);
        }
      });
      Map<Row, List<Row>> out = new HashMap<>();
      parts.forEach((p, rows) -> {
        rows.sort(comparator());
        long from = Math.min(offset, rows.size());
        long to = limit == Long.MAX_VALUE ? rows.size() : Math.min(rows.size(), offset + limit);
        if (from < to) {
          out.put(p, new ArrayList<>(rows.subList((int) from, (int) to)));
        }
      });
      return out;
    }

    void check(String what) {
      assertThat(windows).as(what).isEqualTo(expected());
    }

    List<Row> window() {
      return windows.getOrDefault(Row.of(), List.of());
    }
  }

  @Test
  void tiesAreBrokenByTheWholeRow() {
    Harness h = new Harness(List.of(), List.of(SortKey.asc("score")), 0, 10);
    h.send(row(3, "g", 10L, "c"), 1).send(row(1, "g", 10L, "z"), 1).send(row(2, "g", 5L, "a"), 1).run();
    assertThat(h.window()).containsExactly(row(2, "g", 5L, "a"), row(1, "g", 10L, "z"), row(3, "g", 10L, "c"));

    Harness desc = new Harness(List.of(), List.of(SortKey.desc("score")), 0, 10);
    desc.send(row(3, "g", 10L, "c"), 1).send(row(1, "g", 10L, "z"), 1).send(row(2, "g", 5L, "a"), 1).run();
    assertThat(desc.window()).as("ties still ascend by whole row under a descending key")
        .containsExactly(row(1, "g", 10L, "z"), row(3, "g", 10L, "c"), row(2, "g", 5L, "a"));

    Harness two = new Harness(List.of(), List.of(SortKey.desc("name"), SortKey.asc("score")), 0, 10);
    two.send(row(1, "g", 2L, "b"), 1).send(row(2, "g", 1L, "b"), 1).send(row(3, "g", 9L, "c"), 1).run();
    assertThat(two.window()).containsExactly(row(3, "g", 9L, "c"), row(2, "g", 1L, "b"), row(1, "g", 2L, "b"));
  }

  @Test
  void nullPlacementFollowsTheSortKey() {
    Row n = row(1, "g", null, "n");
    Row lo = row(2, "g", 1L, "lo");
    Row hi = row(3, "g", 9L, "hi");
    Map<SortKey, List<Row>> cases = new LinkedHashMap<>();
    cases.put(SortKey.asc("score"), List.of(lo, hi, n));
    cases.put(SortKey.desc("score"), List.of(n, hi, lo));
    cases.put(SortKey.asc("score").withNullsFirst(), List.of(n, lo, hi));
    cases.put(SortKey.desc("score").withNullsLast(), List.of(hi, lo, n));
    cases.forEach((key, expected) -> {
      Harness h = new Harness(List.of(), List.of(key), 0, Long.MAX_VALUE);
      h.send(hi, 1).send(n, 1).send(lo, 1).run();
      assertThat(h.window()).as(key.toString()).containsExactlyElementsOf(expected);
    });
  }

  @Test
  void insertAboveAFullWindowEmitsOnlyTheEdges() {
    Harness h = new Harness(List.of(), List.of(SortKey.asc("score")), 0, 3);
    for (long i = 1; i <= 5; i++) {
      h.send(row(i, "g", i * 10, "r"), 1);
    }
    h.run();
    ZSet d = h.send(row(9, "g", 5L, "top"), 1).run();
    // Rows 1 and 2 shift down but are not emitted; row 3 leaves from position 2.
    assertThat(d.entries()).containsExactly(
        new ZSet.Entry(row(3, "g", 30L, "r"), -1, 2), new ZSet.Entry(row(9, "g", 5L, "top"), 1, 0));
    assertThat(d.hasPositions()).isTrue();
    // A row sorting below the window changes nothing.
    assertThat(h.send(row(10, "g", 99L, "low"), 1).run().isEmpty()).isTrue();
    h.check("after edits");
  }

  @Test
  void offsetSkipsRowsAndOffsetPastTheEndIsEmpty() {
    Harness h = new Harness(List.of(), List.of(SortKey.asc("score")), 2, 2);
    h.send(row(1, "g", 1L, "a"), 1).send(row(2, "g", 2L, "b"), 1).run();
    assertThat(h.window()).as("offset past the end").isEmpty();
    assertThat(h.graph.output("out").delta().isEmpty()).isTrue();
    h.send(row(3, "g", 3L, "c"), 1).run();
    assertThat(h.window()).containsExactly(row(3, "g", 3L, "c"));
    h.send(row(0, "g", 0L, "z"), 1).run();
    assertThat(h.window()).containsExactly(row(2, "g", 2L, "b"), row(3, "g", 3L, "c"));
    h.send(row(4, "g", 4L, "d"), 1).run();
    assertThat(h.window()).as("window is full; row 4 is past it").containsExactly(row(2, "g", 2L, "b"), row(3, "g", 3L, "c"));
    h.send(row(0, "g", 0L, "z"), -1).run();
    assertThat(h.window()).containsExactly(row(3, "g", 3L, "c"), row(4, "g", 4L, "d"));
    h.check("offset 2");

    Harness far = new Harness(List.of(), List.of(SortKey.asc("score")), 100, 5);
    for (long i = 0; i < 50; i++) {
      far.send(row(i, "g", i, "x"), 1);
    }
    assertThat(far.run().isEmpty()).isTrue();
    assertThat(far.send(row(99, "g", -1L, "x"), 1).run().isEmpty()).isTrue();
  }

  @Test
  void limitZeroIsAlwaysEmpty() {
    Harness h = new Harness(List.of(), List.of(SortKey.asc("score")), 0, 0);
    for (long i = 0; i < 20; i++) {
      h.send(row(i, "g", i, "x"), 1);
    }
    assertThat(h.run().isEmpty()).isTrue();
    assertThat(h.send(row(3, "g", 3L, "x"), -1).send(row(30, "g", -3L, "x"), 2).run().isEmpty()).isTrue();
    assertThat(h.windows).isEmpty();
  }

  @Test
  void duplicatesOccupyConsecutivePositions() {
    Harness h = new Harness(List.of(), List.of(SortKey.asc("score")), 0, 3);
    Row a = row(1, "g", 1L, "a");
    Row b = row(2, "g", 2L, "b");
    ZSet d = h.send(b, 1).send(a, 3).run();
    assertThat(d.entries()).containsExactly(new ZSet.Entry(a, 3, 0));
    assertThat(h.window()).containsExactly(a, a, a);
    d = h.send(a, -1).run();
    // One copy of a leaves (copies are interchangeable, so from the first position) and b enters.
    assertThat(d.entries()).containsExactly(new ZSet.Entry(a, -1, 0), new ZSet.Entry(b, 1, 2));
    assertThat(h.window()).containsExactly(a, a, b);
    d = h.send(a, 5).run();
    assertThat(d.entries()).containsExactly(new ZSet.Entry(b, -1, 2), new ZSet.Entry(a, 1, 0));
    assertThat(h.window()).containsExactly(a, a, a);
    h.check("duplicates");
  }

  @Test
  void aRowWhoseCopiesSpanBothWindowEdgesIsEmittedOnce() {
    // Row a fills ranks 0..11 of a window [0, 10): it lies near both edges at once.
    Harness h = new Harness(List.of(), List.of(SortKey.asc("score")), 0, 10);
    Row a = row(1, "g", 0L, "a");
    h.send(a, 12).send(row(2, "g", 5L, "b"), 1).send(row(3, "g", 6L, "c"), 1).run();
    Row z = row(4, "g", -1L, "z");
    ZSet d = h.send(z, 1).run();
    assertThat(d.entries()).containsExactly(new ZSet.Entry(a, -1, 0), new ZSet.Entry(z, 1, 0));
    assertThat(h.window()).hasSize(10).startsWith(z);
    h.check("spanning row");
  }

  @Test
  void partitionsHaveTheirOwnWindowsAndPositions() {
    Harness h = new Harness(List.of("grp"), List.of(SortKey.desc("score")), 0, 2);
    h.send(row(1, "x", 5L, "a"), 1).send(row(2, "x", 7L, "b"), 1).send(row(3, "x", 6L, "c"), 1)
        .send(row(4, "y", 1L, "d"), 1).send(row(5, null, 0L, "e"), 1).run();
    assertThat(h.windows).containsOnly(
        Map.entry(Row.of("x"), List.of(row(2, "x", 7L, "b"), row(3, "x", 6L, "c"))),
        Map.entry(Row.of("y"), List.of(row(4, "y", 1L, "d"))),
        Map.entry(Row.of((Object) null), List.of(row(5, null, 0L, "e"))));
    ZSet d = h.send(row(6, "y", 9L, "f"), 1).run();
    assertThat(d.entries()).as("position relative to partition y").containsExactly(new ZSet.Entry(row(6, "y", 9L, "f"), 1, 0));
    h.send(row(4, "y", 1L, "d"), -1).send(row(6, "y", 9L, "f"), -1).run();
    assertThat(h.windows).doesNotContainKey(Row.of("y"));
    h.check("partitions");
  }

  @Test
  void mapAfterTopKKeepsPositions() {
    GraphBuilder b = Graph.builder();
    Schema names = Schema.parse("name STRING");
    b.output("out", b.input("in", S).orderBy(SortKey.asc("score")).map(names, r -> Row.of(r.get(3))));
    Graph g = b.build();
    g.input("in").insert(row(1, "g", 2L, "two")).insert(row(2, "g", 1L, "one"));
    g.run();
    List<Row> list = new ArrayList<>();
    g.output("out").delta().spliceInto(list);
    assertThat(list).containsExactly(Row.of("one"), Row.of("two"));
    g.input("in").insert(row(3, "g", 0L, "zero")).delete(row(1, "g", 2L, "two"));
    g.run();
    g.output("out").delta().spliceInto(list);
    assertThat(list).containsExactly(Row.of("zero"), Row.of("one"));
  }

  // ---- spliced windows always equal a fresh evaluation --------------------------------------

  private static void randomHistory(Harness h, long seed, int steps) {
    Random rnd = new Random(seed);
    List<Row> universe = new ArrayList<>();
    for (long id = 0; id < 40; id++) {
      Long score = rnd.nextInt(8) == 0 ? null : (long) rnd.nextInt(10);
      String grp = rnd.nextInt(10) == 0 ? null : "g" + rnd.nextInt(3);
      universe.add(row(id, grp, score, "n" + rnd.nextInt(3)));
    }
    for (int step = 0; step < steps; step++) {
      int changes = rnd.nextInt(10) == 0 ? 10 + rnd.nextInt(30) : 1 + rnd.nextInt(3);
      Map<Row, Long> pending = new HashMap<>(h.contents);
      for (int i = 0; i < changes; i++) {
        Row r = universe.get(rnd.nextInt(universe.size()));
        long have = pending.getOrDefault(r, 0L);
        long w = have > 0 && rnd.nextInt(5) < 2 ? -1 - rnd.nextInt((int) have) : 1 + (rnd.nextInt(4) == 0 ? 1 : 0);
        pending.merge(r, w, Long::sum);
        h.send(r, w);
      }
      h.run();
      h.check("seed " + seed + " step " + step);
    }
  }

  @Test
  void splicedWindowsMatchAFreshEvaluationAfterEveryStep() {
    List<SortKey> byScore = List.of(SortKey.asc("score"));
    List<SortKey> mixed = List.of(SortKey.desc("score"), SortKey.asc("name").withNullsFirst());
    long seed = 100;
    for (long[] window : new long[][] {{0, 3}, {0, 10}, {2, 10}, {5, 1}, {0, Long.MAX_VALUE}, {3, Long.MAX_VALUE},
        {30, 5}, {0, 0}}) {
      for (List<SortKey> order : List.of(byScore, mixed)) {
        randomHistory(new Harness(List.of(), order, window[0], window[1]), seed++, 150);
        randomHistory(new Harness(List.of("grp"), order, window[0], window[1]), seed++, 150);
      }
    }
  }

  @Test
  void largeWindowSingleUpdatesMatchAFreshEvaluation() {
    // A bulk load, then single-row updates: the path that visits only the window edges.
    Harness h = new Harness(List.of(), List.of(SortKey.asc("score")), 10, 50);
    Random rnd = new Random(4);
    for (long i = 0; i < 300; i++) {
      h.send(row(i, "g", (long) rnd.nextInt(100), "x"), 1);
    }
    h.run();
    h.check("bulk load");
    for (int step = 0; step < 300; step++) {
      List<Row> present = new ArrayList<>(h.contents.keySet());
      Row old = present.get(rnd.nextInt(present.size()));
      Row updated = old.with(2, (long) rnd.nextInt(100));
      if (!updated.equals(old)) {
        h.send(old, -1).send(updated, 1);
      } else {
        h.send(old, 1);
      }
      h.run();
      h.check("update " + step);
    }
  }
}
