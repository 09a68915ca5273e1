package dev.rivulet.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.testkit.Seeds;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Random demand histories (runs that activate and release buckets of two plans, loads completed
 * in random order, some after their cancellation, some on other threads) against a model kept
 * from the public request and cancellation faces only. After every step: the rows are exactly
 * those of the settled requests still held (ownership), every demanded value is covered by
 * exactly one held request of its plan (sharing, no duplicate work), a request is cancelled only
 * when no demanded value needs it, each run makes at most one request (coalescing), and the
 * collection is ready exactly when every demanded value's request has settled (stale demand,
 * initial demand), and a subscriber's folded events equal its rows. The collection is observed
 * directly: a live query reading it would demand all of it.
 */
class DemandHistoryPropertyTest {
  private static final String[] PLANS = {"byIssue", "byId"};
  private static final String[] COLUMNS = {"issue", "id"};
  private static final int[] DOMAIN = {5, 14}; // issue 0..4, id 0..13 (0 and 13 match no comment)

  @Test
  void randomDemandHistoriesKeepOwnershipCoverageAndReadiness() throws InterruptedException {
    int steps = 0;
    for (long seed : Seeds.runs(40)) {
      History h = new History(seed);
      for (int step = 0; step < 60; step++) {
        String at = "seed " + seed + " step " + step + "; replay: " + Seeds.replayHint(seed);
        h.step(at);
        h.check(at);
        steps++;
      }
    }
    assertThat(steps).isEqualTo(60 * Seeds.runs(40).size());
  }

  private static final class History {
    final Random rnd;
    final DemandPlaneTest.Fixture f = new DemandPlaneTest.Fixture();
    final Map<Row, Row> folded = new HashMap<>(); // a subscriber's events, folded
    boolean everReady;
    final List<Map<Long, Integer>> demand = List.of(new HashMap<>(), new HashMap<>());
    final Map<Integer, Integer> planOfCall = new HashMap<>();
    final Set<Integer> completed = new HashSet<>();
    final Set<Integer> accepted = new HashSet<>(); // completed while current

    History(long seed) {
      rnd = new Random(seed);
      f.comments.subscribe(events -> events.forEach(e -> {
        if (e.type() == ChangeEvent.Type.DELETE) {
          folded.remove(e.key());
        } else {
          folded.put(e.key(), e.value());
        }
      }));
      for (int p = 0; p < PLANS.length; p++) {
        f.register(PLANS[p], COLUMNS[p]);
      }
      f.demand(PLANS[0], 1, new long[0]); // the first flush: nothing demanded yet
      everReady = f.comments.status() == Status.READY;
    }

    void step(String at) throws InterruptedException {
      int open = openCalls().size();
      if (open > 0 && rnd.nextInt(5) < 2) {
        complete(openCalls().get(rnd.nextInt(open)));
      } else {
        run(at);
      }
    }

    /** One run of one plan: a few buckets activated or released, then a flush. */
    void run(String at) {
      int p = rnd.nextInt(PLANS.length);
      Map<Long, Integer> counts = demand.get(p);
      List<Long> starts = new ArrayList<>();
      List<Long> stops = new ArrayList<>();
      Set<Long> before = new HashSet<>(counts.keySet());
      for (int k = 1 + rnd.nextInt(3); k > 0; k--) {
        if (!counts.isEmpty() && rnd.nextBoolean()) {
          List<Long> held = new ArrayList<>(new TreeSet<>(counts.keySet()));
          long v = held.get(rnd.nextInt(held.size()));
          counts.merge(v, -1, Integer::sum);
          counts.remove(v, 0);
          stops.add(v);
        } else {
          long v = rnd.nextInt(DOMAIN[p]);
          counts.merge(v, 1, Integer::sum);
          starts.add(v);
        }
      }
      int callsBefore = f.source.calls().size();
      Set<Long> coveredBefore = coveredBy(p, heldCalls());
      synchronized (f.db) {
        starts.forEach(v -> f.db.demand().change(PLANS[p], Row.of(v), 1));
        stops.forEach(v -> f.db.demand().change(PLANS[p], Row.of(v), -1));
        f.db.demand().flush();
      }
      f.db.runDemand();
      List<ControlledLazySource.Call> calls = f.source.calls();
      assertThat(calls.size() - callsBefore).as(at + ": one run makes at most one request").isLessThanOrEqualTo(1);
      for (int i = callsBefore; i < calls.size(); i++) {
        planOfCall.put(i, p);
        Set<Long> asked = longs(calls.get(i).request().values());
        assertThat(asked).as(at + ": a request asks only for newly demanded values").allMatch(v -> !before.contains(v));
        Set<Long> again = new HashSet<>(asked);
        again.retainAll(coveredBefore);
        assertThat(again).as(at + ": nor for values a held request covers").isEmpty();
      }
    }

    void complete(int call) throws InterruptedException {
      completed.add(call);
      if (!f.source.call(call).cancelled()) {
        accepted.add(call);
      }
      if (rnd.nextBoolean()) {
        f.source.completeOnThread(call);
      } else {
        f.source.complete(call);
      }
    }

    List<Integer> openCalls() {
      List<Integer> out = new ArrayList<>();
      for (int i = 0; i < f.source.calls().size(); i++) {
        if (!completed.contains(i)) {
          out.add(i);
        }
      }
      return out;
    }

    List<Integer> heldCalls() {
      List<Integer> out = new ArrayList<>();
      List<ControlledLazySource.Call> calls = f.source.calls();
      for (int i = 0; i < calls.size(); i++) {
        if (!calls.get(i).cancelled()) {
          out.add(i);
        }
      }
      return out;
    }

    Set<Long> coveredBy(int plan, List<Integer> calls) {
      Set<Long> out = new HashSet<>();
      for (int i : calls) {
        if (planOfCall.get(i) == plan) {
          out.addAll(longs(f.source.call(i).request().values()));
        }
      }
      return out;
    }

    void check(String at) {
      List<Integer> held = heldCalls();
      Set<Long> expectedRows = new TreeSet<>();
      for (int i : held) {
        if (accepted.contains(i)) {
          for (Row r : f.source.select(f.source.call(i).request())) {
            expectedRows.add(((Number) r.get(0)).longValue());
          }
        }
      }
      assertThat(DemandPlaneTest.ids(f.comments)).as(at + ": rows of the settled requests held").isEqualTo(expectedRows);
      synchronized (f.db) {
        assertThat(new HashSet<>(folded.values())).as(at + ": the subscriber's events fold to them")
            .isEqualTo(new HashSet<>(f.comments.rows()));
      }
      boolean allSettled = true;
      for (int p = 0; p < PLANS.length; p++) {
        for (long v : demand.get(p).keySet()) {
          List<Integer> covering = new ArrayList<>();
          for (int i : held) {
            if (planOfCall.get(i) == p && longs(f.source.call(i).request().values()).contains(v)) {
              covering.add(i);
            }
          }
          assertThat(covering).as(at + ": held requests covering " + PLANS[p] + " " + v).hasSize(1);
          allSettled &= accepted.contains(covering.get(0));
        }
      }
      for (int i : held) {
        int p = planOfCall.get(i);
        assertThat(longs(f.source.call(i).request().values())).as(at + ": request " + i + " is held by a demand")
            .containsAnyElementsOf(demand.get(p).keySet());
      }
      Status expected = allSettled ? Status.READY : Status.LOADING;
      assertThat(f.comments.status()).as(at).isEqualTo(expected);
      everReady |= allSettled;
      assertThat(f.comments.ready().isDone()).as(at + ": first ready once all settled").isEqualTo(everReady);
      assertThat(f.settled()).as(at).isEqualTo(allSettled);
      synchronized (f.db) {
        assertThat(f.db.demand().ledger().activeRequests()).as(at).isEqualTo(held.size());
        assertThat(f.db.demand().ledger().demandedValues()).as(at)
            .isEqualTo(demand.get(0).size() + demand.get(1).size());
      }
    }

    static Set<Long> longs(List<Row> values) {
      Set<Long> out = new HashSet<>();
      values.forEach(v -> out.add(((Number) v.get(0)).longValue()));
      return out;
    }
  }
}
