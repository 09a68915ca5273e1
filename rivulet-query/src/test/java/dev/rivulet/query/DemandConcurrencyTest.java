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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/**
 * Demand changes on the test's thread while a pool of two threads serves the loads and applies
 * their results concurrently (each completion runs its transaction on the pool thread). Once
 * quiet, the state is the one the held requests define, and a subscriber's folded events equal
 * the lazy collection's rows (every transaction published whole, whichever thread ran it). The
 * collection is observed directly: a live query reading it would demand all of it.
 */
class DemandConcurrencyTest {
  /** Records every request (with its cancellation) on the way to the real source. */
  private static final class Recording implements LazySource {
    final LazySource inner;
    final List<Object[]> calls = new ArrayList<>();

    Recording(LazySource inner) {
      this.inner = inner;
    }

    @Override
    public synchronized CompletableFuture<List<Row>> load(SubsetRequest request, Cancellation cancellation) {
      calls.add(new Object[] {request, cancellation});
      return inner.load(request, cancellation);
    }

    synchronized List<Object[]> calls() {
      return List.copyOf(calls);
    }
  }

  @Test
  void concurrentLoadsAndDemandChangesSettleOnTheStateTheHeldRequestsDefine() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      for (long seed : Seeds.runs(6)) {
        run(seed, pool);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private static void run(long seed, ExecutorService pool) throws InterruptedException {
    String at = "seed " + seed + "; replay: " + Seeds.replayHint(seed);
    Random rnd = new Random(seed);
    MemoryLazySource memory = new MemoryLazySource(DemandPlaneTest.COMMENTS, List.of("id"), pool);
    DemandPlaneTest.table().forEach(memory::put);
    memory.index(List.of("issue"), List.of());
    Recording source = new Recording(memory);
    Rivulet db = Rivulet.create();
    LazyCollection comments = db.lazyCollection("comments", DemandPlaneTest.COMMENTS, List.of("id"), source);
    Map<Row, Row> folded = new HashMap<>();
    comments.subscribe(events -> events.forEach(e -> {
      if (e.type() == ChangeEvent.Type.DELETE) {
        folded.remove(e.key());
      } else {
        folded.put(e.key(), e.value());
      }
    }));
    synchronized (db) {
      db.demand().register("byIssue", comments, List.of("issue"), List.of(), SubsetRequest.UNLIMITED);
    }
    Map<Long, Integer> demand = new HashMap<>();
    for (int step = 0; step < 150; step++) {
      synchronized (db) {
        for (int k = 1 + rnd.nextInt(3); k > 0; k--) {
          long v = rnd.nextInt(5);
          if (demand.getOrDefault(v, 0) > 0 && rnd.nextBoolean()) {
            demand.merge(v, -1, Integer::sum);
            db.demand().change("byIssue", Row.of(v), -1);
          } else {
            demand.merge(v, 1, Integer::sum);
            db.demand().change("byIssue", Row.of(v), 1);
          }
        }
        db.demand().flush();
      }
      db.runDemand();
      if (rnd.nextInt(10) == 0) {
        Thread.sleep(1); // let some loads land between runs
      }
    }
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (!(comments.status() == Status.READY && settled(db)) && System.nanoTime() < deadline) {
      Thread.sleep(2);
    }
    assertThat(comments.status()).as(at).isEqualTo(Status.READY);
    Set<Long> demanded = new TreeSet<>();
    demand.forEach((v, n) -> {
      if (n > 0) {
        demanded.add(v);
      }
    });
    Set<Long> heldValues = new HashSet<>();
    int held = 0;
    for (Object[] c : source.calls()) {
      if (!((Cancellation) c[1]).isCancelled()) {
        held++;
        for (Row v : ((SubsetRequest) c[0]).values()) {
          assertThat(heldValues.add(((Number) v.get(0)).longValue())).as(at + ": one held request per value").isTrue();
        }
      }
    }
    assertThat(heldValues).as(at + ": every demanded value is covered").containsAll(demanded);
    long[] heldArray = heldValues.stream().mapToLong(Long::longValue).toArray();
    assertThat(DemandPlaneTest.ids(comments)).as(at).isEqualTo(DemandPlaneTest.idsOn(heldArray));
    synchronized (db) {
      assertThat(db.demand().ledger().activeRequests()).as(at).isEqualTo(held);
      assertThat(new HashSet<>(folded.values())).as(at + ": the events fold to the rows")
          .isEqualTo(new HashSet<>(comments.rows()));
    }
  }

  private static boolean settled(Rivulet db) {
    synchronized (db) {
      return db.demand().settled();
    }
  }
}
