package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A top-K's update paths against its general path, run by run and entry by entry (row, weight,
 * position), with the same changes fed to a twin whose paths are switched off: a row replaced by
 * one that keeps its rank (a payload the order reads only in its final tie-break) is swapped in
 * its tree slot without walking a window; the changes of a few partitions are gathered in a
 * reused batch without a map. Over partitioned and whole top-Ks, with and without offset and
 * limit, trees of one leaf and of several levels, and updates that move rows (which the replace
 * path refuses); both paths are proven taken, and the window spliced from the changes equals a
 * fresh ordering after every run.
 */
class TopKUpdatePathsTest {
  private static final long BASE_SEED = Long.getLong("rivulet.seed", 0x70BBL);
  private static final int RUNS = 8 * Integer.getInteger("rivulet.runs", 1);
  private static final Schema S = Schema.parse("id INT NOT NULL, grp INT NOT NULL, score INT NOT NULL, payload STRING");
  private static final List<SortKey> ORDER = List.of(SortKey.desc("score"), SortKey.asc("id"));

  @Test
  void replacedRowsAndFewPartitionsAgreeWithTheGeneralPath() {
    long replaced = 0;
    long pairs = 0;
    long gathered = 0;
    for (int run = 0; run < RUNS; run++) {
      long seed = BASE_SEED + run;
      Random rnd = new Random(seed);
      boolean partitioned = run % 2 == 0;
      long offset = run % 4 < 2 ? 0 : 2;
      long limit = run % 3 == 0 ? Long.MAX_VALUE : 5 + rnd.nextInt(60);
      int rows = run % 3 == 1 ? 30 : 600; // one leaf, or several levels
      Graph fast = graph(partitioned, offset, limit);
      Graph general = graph(partitioned, offset, limit);
      TopKOperator slow = only(general);
      slow.replaceInPlace = false;
      slow.gatherFew = false;
      Map<Long, Row> live = new LinkedHashMap<>();
      for (long id = 0; id < rows; id++) {
        Row r = Row.of(id, (long) rnd.nextInt(4), (long) rnd.nextInt(50), "p" + rnd.nextInt(3));
        live.put(id, r);
        send(fast, general, r, 1);
      }
      run(fast, general, seed, -1);
      List<Row> window = new ArrayList<>(); // the whole-top-K's window, spliced (partitioned: not kept)
      if (!partitioned) {
        fast.output("out").delta().spliceInto(window);
      }
      for (int step = 0; step < 300; step++) {
        int changes = rnd.nextInt(3) == 0 ? 2 + rnd.nextInt(3) : 1;
        for (int c = 0; c < changes; c++) {
          long id = rnd.nextInt(rows);
          Row old = live.get(id);
          Row now = switch (rnd.nextInt(4)) {
            case 0 -> Row.of(id, old.get(1), old.get(2), old.get(3) + "x"); // the payload only: same rank
            case 1 -> Row.of(id, old.get(1), (long) rnd.nextInt(50), old.get(3)); // another score
            case 2 -> Row.of(id, (long) rnd.nextInt(4), old.get(2), old.get(3)); // another partition
            default -> Row.of(id, old.get(1), old.get(2), "q" + rnd.nextInt(5));
          };
          if (!now.equals(old)) {
            send(fast, general, old, -1);
            send(fast, general, now, 1);
            live.put(id, now);
          }
        }
        run(fast, general, seed, step);
        if (!partitioned) {
          fast.output("out").delta().spliceInto(window);
          List<Row> fresh = new ArrayList<>(live.values());
          fresh.sort((a, b) -> a.getLong(2) != b.getLong(2) ? Long.compare(b.getLong(2), a.getLong(2))
              : Long.compare(a.getLong(0), b.getLong(0)));
          List<Row> want = fresh.subList((int) Math.min(offset, fresh.size()),
              (int) Math.min(fresh.size(), offset + Math.min(limit, fresh.size())));
          assertThat(window).as("seed %d step %d", seed, step).isEqualTo(want);
        }
      }
      assertThat(slow.replacements).isZero();
      assertThat(slow.fewPartitionRuns).isZero();
      replaced += only(fast).replacements;
      pairs += only(fast).replacedPairs;
      gathered += only(fast).fewPartitionRuns;
    }
    assertThat(replaced).as("runs that replaced a row in its slot").isPositive();
    assertThat(pairs).as("rows replaced: some runs replaced several").isGreaterThan(replaced);
    assertThat(gathered).as("runs over a few partitions gathered without a map").isPositive();
  }

  /**
   * Two retractions and two insertions whose first pairing fits the first slot but leaves the
   * second row no slot: the pair is swapped back and the general path gives the change.
   */
  @Test
  void aPairingThatCannotBeCompletedIsSwappedBack() {
    Graph fast = graph(false, 0, Long.MAX_VALUE);
    Graph general = graph(false, 0, Long.MAX_VALUE);
    TopKOperator slow = only(general);
    slow.replaceInPlace = false;
    Row a = Row.of(1L, 0L, 10L, "a");
    Row b = Row.of(2L, 0L, 10L, "b");
    for (Row r : List.of(Row.of(0L, 0L, 20L, "z"), a, b, Row.of(3L, 0L, 5L, "c"))) {
      send(fast, general, r, 1);
    }
    run(fast, general, 0, -1);
    Row bFirst = Row.of(2L, 0L, 10L, "a"); // fits a's slot (after a, before b) ...
    Row aNext = Row.of(1L, 0L, 10L, "a2"); // ... and then a's new row fits neither
    send(fast, general, a, -1);
    send(fast, general, b, -1);
    send(fast, general, bFirst, 1);
    send(fast, general, aNext, 1);
    run(fast, general, 0, 0);
    assertThat(only(fast).slots().swappedBack).isEqualTo(1);
    assertThat(only(fast).replacements).isZero();
    send(fast, general, aNext, -1);
    send(fast, general, Row.of(1L, 0L, 10L, "a3"), 1);
    run(fast, general, 0, 1);
    assertThat(only(fast).replacements).isEqualTo(1);
  }

  /**
   * The few rows of a run sorted by insertion (the changed rows by old rank, the copies leaving
   * and entering the window by position) against a twin that sorts them all with the JDK's sort:
   * the same entries run by run, and the spliced window equals a fresh ordering. Runs of a few
   * changes and runs of more than {@link WindowDiff#SMALL_SORT} rows moved across the window's
   * edges, so that both kinds of sort are taken.
   */
  @Test
  void fewRowsSortedByInsertionAgreeWithTheGeneralSort() {
    long fastGeneral = 0;
    long slowGeneral = 0;
    for (int run = 0; run < RUNS; run++) {
      long seed = BASE_SEED + 100 + run;
      Random rnd = new Random(seed);
      long offset = run % 2 == 0 ? 0 : 7;
      long limit = 150 + rnd.nextInt(100);
      Graph fast = graph(false, offset, limit);
      Graph general = graph(false, offset, limit);
      TopKOperator slow = only(general);
      slow.diff().insertionSorts = false;
      Map<Long, Row> live = new LinkedHashMap<>();
      for (long id = 0; id < 1000; id++) {
        Row r = Row.of(id, 0L, (long) rnd.nextInt(200), "p");
        live.put(id, r);
        send(fast, general, r, 1);
      }
      run(fast, general, seed, -1);
      List<Row> window = new ArrayList<>();
      fast.output("out").delta().spliceInto(window);
      for (int step = 0; step < 60; step++) {
        boolean many = step % 3 == 0;
        int changes = many ? 34 + rnd.nextInt(10) : 1 + rnd.nextInt(3);
        java.util.Set<Long> touched = new java.util.HashSet<>();
        for (int c = 0; c < changes; c++) {
          // Many: half push a row of the window out, half pull another row in.
          long id = many && c % 2 == 0 ? window.get(rnd.nextInt(window.size())).getLong(0) : rnd.nextInt(1000);
          if (!touched.add(id)) {
            continue;
          }
          Row old = live.get(id);
          long score = !many ? rnd.nextInt(200) : c % 2 == 0 ? rnd.nextInt(50) : 200 + rnd.nextInt(100);
          Row now = Row.of(id, 0L, score, "p");
          if (!now.equals(old)) {
            send(fast, general, old, -1);
            send(fast, general, now, 1);
            live.put(id, now);
          }
        }
        run(fast, general, seed, step);
        fast.output("out").delta().spliceInto(window);
        List<Row> fresh = new ArrayList<>(live.values());
        fresh.sort((a, b) -> a.getLong(2) != b.getLong(2) ? Long.compare(b.getLong(2), a.getLong(2))
            : Long.compare(a.getLong(0), b.getLong(0)));
        assertThat(window).as("seed %d step %d", seed, step)
            .isEqualTo(fresh.subList((int) offset, (int) (offset + limit)));
      }
      fastGeneral += only(fast).diff().generalSorts + only(fast).generalRankSorts;
      slowGeneral += slow.diff().generalSorts + slow.generalRankSorts;
      assertThat(only(fast).generalRankSorts).as("many changed rows sorted by the general sort").isPositive();
      assertThat(only(fast).diff().generalSorts).as("many entries sorted by the general sort").isPositive();
    }
    assertThat(fastGeneral).as("the twin sorted the few rows with the general sort as well").isLessThan(slowGeneral);
  }

  private static Graph graph(boolean partitioned, long offset, long limit) {
    GraphBuilder b = Graph.builder();
    Stream in = b.input("in", S);
    b.output("out", partitioned ? in.topK(List.of("grp"), ORDER, offset, limit) : in.topK(ORDER, offset, limit));
    return b.build();
  }

  private static void send(Graph a, Graph b, Row row, long weight) {
    a.input("in").send(row, weight);
    b.input("in").send(row, weight);
  }

  private static void run(Graph fast, Graph general, long seed, int step) {
    fast.run();
    general.run();
    assertThat(entries(fast)).as("seed %d step %d", seed, step).isEqualTo(entries(general));
  }

  private static List<ZSet.Entry> entries(Graph g) {
    List<ZSet.Entry> out = new ArrayList<>();
    g.output("out").delta().forEach(out::add);
    return out;
  }

  private static TopKOperator only(Graph g) {
    return g.operators().stream().filter(TopKOperator.class::isInstance).map(TopKOperator.class::cast).findFirst()
        .orElseThrow();
  }
}
