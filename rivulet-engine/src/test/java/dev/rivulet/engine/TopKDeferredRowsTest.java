package dev.rivulet.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The deferred path of an unpartitioned top-K (a large first batch: its first rows sorted into the
 * tree, the others left unsorted beyond a boundary, moved over when a run needs them, consolidated
 * when crowded) gives, run after run, the same positioned changes as the whole sort it replaces,
 * and windows equal to a naive sort of the rows. Fixed seeds, named in every failure; the counters
 * prove each path ran.
 */
class TopKDeferredRowsTest {
  private static final Schema S = Schema.parse("id INT NOT NULL, score INT, name STRING");
  /** score descending (nulls first), then id: the naive order, written without the engine's. */
  private static final Comparator<Row> BY_SCORE = Comparator.<Row, Boolean>comparing(r -> r.get(1) != null)
      .thenComparing(r -> r.get(1) == null ? 0L : -r.getLong(1))
      .thenComparingLong(r -> r.getLong(0));
  /** name ascending (nulls last; many names share their first three characters), then id. */
  private static final Comparator<Row> BY_NAME = Comparator.<Row, Boolean>comparing(r -> r.get(2) == null)
      .thenComparing(r -> r.get(2) == null ? "" : r.getString(2))
      .thenComparingLong(r -> r.getLong(0));

  private static Row randomRow(Random rnd, long id) {
    Long score = rnd.nextInt(9) == 0 ? null : (long) rnd.nextInt(40);
    String name = rnd.nextInt(9) == 0 ? null : (char) ('a' + rnd.nextInt(8)) + "xy" + rnd.nextInt(30);
    return Row.of(id, score, name);
  }

  private static Graph graph(boolean byName, long offset, long limit) {
    GraphBuilder b = Graph.builder();
    List<SortKey> order = byName ? List.of(SortKey.asc("name"), SortKey.asc("id"))
        : List.of(SortKey.desc("score"), SortKey.asc("id"));
    b.output("out", b.input("in", S).topK(order, offset, limit));
    return b.build();
  }

  @Test
  void deferredRowsAgreeWithTheWholeSortAndANaiveWindow() {
    long refills = 0;
    long compactions = 0;
    long splits = 0;
    for (long seed = 1; seed <= 40; seed++) {
      Random rnd = new Random(seed);
      boolean byName = seed % 2 == 0;
      long offset = rnd.nextInt(3);
      long limit = 1 + rnd.nextInt(6);
      Graph deferred = graph(byName, offset, limit);
      Graph whole = graph(byName, offset, limit);
      TopKOperator d = only(deferred);
      TopKOperator w = only(whole);
      d.slack = 1 + rnd.nextInt(6);
      d.compactSlack = 8;
      d.splitAt = seed % 3 == 0 ? Integer.MAX_VALUE : 4 + (int) (seed % 5) * 8; // ranges, or one log
      w.slack = Integer.MAX_VALUE / 4; // never defers
      List<Row> held = new ArrayList<>();
      long nextId = 0;
      int n = 60 + rnd.nextInt(200);
      boolean bulk = seed % 4 < 2; // the deferred graph hydrates through sendAll: unit weights
      Row[] batch = new Row[n];
      for (int i = 0; i < n; i++) {
        Row r = i > 0 && rnd.nextInt(10) == 0 ? held.get(rnd.nextInt(held.size())) : randomRow(rnd, nextId++);
        held.add(r); // some rows twice: multiplicities
        batch[i] = r;
        if (!bulk) {
          deferred.input("in").send(r, 1);
        }
        whole.input("in").send(r, 1);
      }
      if (bulk) {
        deferred.input("in").sendAll(batch, n, S);
      }
      List<Row> window = new ArrayList<>();
      step(deferred, whole, window, held, byName, offset, limit, seed, -1);
      assertThat(d.deferredHydrations).as("seed %d: the hydration deferred rows", seed).isEqualTo(1);
      assertThat(d.unitWeightHydrations).as("seed %d: with unit weights after sendAll", seed).isEqualTo(bulk ? 1 : 0);
      assertThat(d.selectingHydrations).as("seed %d: unit weights selected in one pass", seed).isEqualTo(bulk ? 1 : 0);
      assertThat(d.deferred()).as("seed %d: rows left unsorted", seed).isPositive();
      assertThat(w.deferredHydrations).isZero();
      for (int run = 0; run < 500; run++) {
        for (int k = 1 + (rnd.nextInt(5) == 0 ? rnd.nextInt(8) : 0); k > 0; k--) {
          int kind = rnd.nextInt(3);
          if (kind == 0 && !held.isEmpty()) {
            // mostly a row of the window or near it leaves: the tree runs short and is refilled
            Row gone = window.isEmpty() || rnd.nextInt(3) == 0 ? held.get(rnd.nextInt(held.size()))
                : window.get(rnd.nextInt(window.size()));
            if (held.remove(gone)) { // a window row may have left earlier in the same run
              deferred.input("in").send(gone, -1);
              whole.input("in").send(gone, -1);
            }
          } else {
            Row r = kind == 1 && !held.isEmpty() && rnd.nextInt(4) == 0 ? held.get(rnd.nextInt(held.size()))
                : randomRow(rnd, nextId++);
            held.add(r);
            deferred.input("in").send(r, 1);
            whole.input("in").send(r, 1);
          }
        }
        step(deferred, whole, window, held, byName, offset, limit, seed, run);
      }
      assertThat(d.treeRefills).as("seed %d: refills, the hydration's first", seed).isPositive();
      assertThat(d.retained()).as("seed %d: held entries", seed).isGreaterThanOrEqualTo(w.retained());
      refills += d.treeRefills - 1;
      compactions += d.deferredCompactions;
      splits += d.deferredSplits;
    }
    assertThat(refills).as("refills after the hydrations").isGreaterThan(100);
    assertThat(splits).as("deferred rows split into ranges").isGreaterThan(10);
    assertThat(compactions).as("consolidations of the deferred rows").isGreaterThan(10);
  }

  /** Runs both graphs and checks the deferred one's change against the whole one's and its window against a naive one. */
  private static void step(Graph deferred, Graph whole, List<Row> window, List<Row> held, boolean byName,
      long offset, long limit, long seed, int run) {
    deferred.run();
    whole.run();
    TopKOperator d = only(deferred);
    assertThat(d.deferredRows() == null || !d.deferredRows().holdsPrefixes())
        .as("seed %d, run %d: no prefixes kept between runs", seed, run).isTrue();
    ZSet got = deferred.output("out").delta();
    assertThat(got).as("seed %d, run %d: positioned change", seed, run).isEqualTo(whole.output("out").delta());
    got.spliceInto(window);
    List<Row> sorted = new ArrayList<>(held);
    sorted.sort(byName ? BY_NAME : BY_SCORE);
    List<Row> want = sorted.subList((int) Math.min(offset, sorted.size()), (int) Math.min(offset + limit, sorted.size()));
    assertThat(window).as("seed %d, run %d: window", seed, run).isEqualTo(want);
  }

  /**
   * A hydration of unit weights whose rows all share their prefixes (a NULL score is a sentinel
   * prefix with no second one) is selected whole into the tree, nothing deferred; later runs agree
   * with the whole sort and the naive window.
   */
  @Test
  void aHydrationOfEqualPrefixesIsTakenWhole() {
    Graph deferred = graph(false, 1, 3);
    Graph whole = graph(false, 1, 3);
    TopKOperator d = only(deferred);
    d.slack = 4;
    only(whole).slack = Integer.MAX_VALUE / 4;
    List<Row> held = new ArrayList<>();
    Row[] batch = new Row[300];
    for (int i = 0; i < batch.length; i++) {
      batch[i] = Row.of((long) i, null, "n");
      held.add(batch[i]);
      whole.input("in").send(batch[i], 1);
    }
    deferred.input("in").sendAll(batch, batch.length, S);
    List<Row> window = new ArrayList<>();
    step(deferred, whole, window, held, false, 1, 3, 0, -1);
    assertThat(d.selectingHydrations).isEqualTo(1);
    assertThat(d.deferredRows()).as("nothing deferred").isNull();
    assertThat(d.retained()).as("every row in the tree").isEqualTo(batch.length);
    Random rnd = new Random(3);
    for (int run = 0; run < 50; run++) {
      Row gone = held.remove(rnd.nextInt(held.size()));
      deferred.input("in").send(gone, -1);
      whole.input("in").send(gone, -1);
      Row r = randomRow(rnd, 1000 + run);
      held.add(r);
      deferred.input("in").send(r, 1);
      whole.input("in").send(r, 1);
      step(deferred, whole, window, held, false, 1, 3, 0, run);
    }
  }

  /**
   * A retraction of a row it never held (from a negated input), after the boundary, is found when
   * the deferred rows reach it, and fails that run as the whole sort fails the hydration.
   */
  @Test
  void aBadRetractionBeyondTheBoundaryFailsTheRunThatReachesIt() {
    GraphBuilder b = Graph.builder();
    Stream both = b.input("in", S).concat(b.input("gone", S).negate());
    b.output("out", both.topK(List.of(SortKey.desc("score"), SortKey.asc("id")), 0, 2));
    Graph g = b.build();
    TopKOperator t = only(g);
    t.slack = 2;
    for (long i = 0; i < 100; i++) {
      g.input("in").send(Row.of(i, 100 - i, "x"), 1);
    }
    g.input("gone").send(Row.of(500L, -5L, "never"), 1); // reaches the top-K as a retraction, last in order
    g.run();
    assertThat(t.deferredHydrations).isEqualTo(1);
    assertThat(t.deferred()).isPositive();
    assertThatThrownBy(() -> {
      for (long i = 0; i < 100; i++) {
        g.input("in").send(Row.of(i, 100 - i, "x"), -1);
        g.run();
      }
    }).isInstanceOf(InvariantViolation.class).hasMessageContaining("multiplicity of [500, -5, 'never']");
  }

  /**
   * Titles as W6's (a word, " in module ", a number: thousands share their first nine characters,
   * few their first eighteen): the hydration's tree takes only the titles it needs, since the
   * prefixes hold eighteen characters, not a whole word's group; the window is the naive one.
   */
  @Test
  void aHydrationByRepeatedTitlesSortsOnlyTheTitlesItNeeds() {
    String[] words = {"crash", "cache", "slow", "timeout"};
    Random rnd = new Random(6);
    Graph g = graph(true, 0, 50);
    TopKOperator t = only(g);
    t.slack = 64;
    List<Row> held = new ArrayList<>();
    int n = 8_000;
    for (long id = 0; id < n; id++) {
      Row r = Row.of(id, (long) rnd.nextInt(40), words[rnd.nextInt(words.length)] + " in module " + id % 97);
      held.add(r);
      g.input("in").send(r, 1);
    }
    g.run();
    ZSet got = g.output("out").delta();
    List<Row> window = new ArrayList<>();
    got.spliceInto(window);
    held.sort(BY_NAME);
    assertThat(window).isEqualTo(held.subList(0, 50));
    assertThat(t.deferredHydrations).isEqualTo(1);
    // each title holds about 20 rows; a word's group is about 2,000
    assertThat(n - t.deferred()).as("rows sorted into the tree").isBetween(50 + 64, 50 + 64 + 200);
  }

  /**
   * W1's edge updates (a row among the first 150 gets a new score, mostly one far beyond the
   * window): the tree runs short again and again; the first refill after the hydration splits the
   * deferred rows into ranges, and each later refill looks at a range or two, not at all of them,
   * while the positioned changes stay the whole sort's and the window the naive one.
   */
  @Test
  void edgeUpdatesRefillFromTheFirstRangesOnly() {
    Random rnd = new Random(11);
    int n = 30_000;
    Graph deferred = graph(false, 0, 50);
    Graph whole = graph(false, 0, 50);
    TopKOperator d = only(deferred);
    d.slack = 32; // refills of 64 to 256 rows: many of them
    only(whole).slack = Integer.MAX_VALUE / 4; // never defers
    java.util.TreeSet<Row> held = new java.util.TreeSet<>(BY_SCORE);
    Row[] batch = new Row[n];
    for (int i = 0; i < n; i++) {
      batch[i] = Row.of((long) i, (long) rnd.nextInt(100), "x");
      held.add(batch[i]);
    }
    deferred.input("in").sendAll(batch, n, S);
    for (Row r : batch) {
      whole.input("in").send(r, 1);
    }
    List<Row> window = new ArrayList<>();
    for (int run = 0; run < 4_000; run++) {
      if (run > 0) {
        java.util.Iterator<Row> it = held.iterator();
        Row r = it.next();
        for (int k = rnd.nextInt(150); k > 0; k--) {
          r = it.next();
        }
        Row moved = Row.of(r.getLong(0), (r.getLong(1) + 1 + rnd.nextInt(99)) % 100, "x");
        held.remove(r);
        held.add(moved);
        for (Graph g : List.of(deferred, whole)) {
          g.input("in").send(r, -1);
          g.input("in").send(moved, 1);
        }
      }
      deferred.run();
      whole.run();
      ZSet got = deferred.output("out").delta();
      assertThat(got).as("run %d: positioned change", run).isEqualTo(whole.output("out").delta());
      got.spliceInto(window);
    }
    assertThat(window).isEqualTo(new ArrayList<>(held).subList(0, 50));
    assertThat(d.deferredSplits).as("splits: the first refill after the hydration's").isEqualTo(1);
    long later = d.treeRefills - 2; // after the hydration's and the splitting one
    assertThat(later).as("refills after the split").isGreaterThan(3);
    assertThat(d.refillScanned).as("entries the refills after the hydration's looked at")
        .isLessThan(n + later * (n / 8));
  }

  private static TopKOperator only(Graph g) {
    return g.operators().stream().filter(TopKOperator.class::isInstance).map(TopKOperator.class::cast)
        .findFirst().orElseThrow();
  }
}
