package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.lit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The demand plane driven by live queries themselves (seed 000, "Demand plane"): an include whose
 * child reads a lazy collection demands its active buckets, with no hand-registered plan. Initial
 * demand (law 9), stale demand (law 6), release on close, sharing between queries, the work law
 * and the source's later changes, each seen through the live query and the lazy collection.
 */
class DemandWiringTest {
  static final Schema COMMENTS = Schema.parse("id INT NOT NULL, issue INT, body STRING");

  private final Rivulet db = Rivulet.create();
  private final SourceCollection issues = db.collection("issues",
      Schema.parse("id INT NOT NULL, status STRING"), List.of("id"));

  /** The issues {@code which} selects, each with the ids of its comments. */
  private static Query issuesWithComments(SourceCollection issues, LazyCollection comments, Expr which) {
    Query ofIssue = Query.from("c", comments).where(eq(col("c.issue"), col("i.id")))
        .select(Query.as("cid", col("c.id")));
    return Query.from("i", issues).where(which)
        .select(Query.as("id", col("i.id")), Query.includeArray("comments", ofIssue));
  }

  private static Expr open() {
    return eq(col("i.status"), lit("open"));
  }

  /** Issue id to the ids of its nested comments. */
  @SuppressWarnings("unchecked")
  static Map<Long, Set<Long>> nested(LiveQuery q) {
    Map<Long, Set<Long>> out = new TreeMap<>();
    for (Row r : q.rows()) {
      Set<Long> ids = new TreeSet<>();
      ((List<Row>) r.get(1)).forEach(c -> ids.add(((Number) c.get(0)).longValue()));
      out.put(((Number) r.get(0)).longValue(), ids);
    }
    return out;
  }

  private static Set<Long> ids(long... ids) {
    Set<Long> out = new TreeSet<>();
    for (long id : ids) {
      out.add(id);
    }
    return out;
  }

  private void write(long issue, String status) {
    issues.beginSync().write(Row.of(issue, status)).markReady().commit();
  }

  /** Comments 100, 101 on issue 10, 110 on issue 11, 120 on 12, 130..139 on issue 99. */
  private static void fill(MemoryLazySource s) {
    s.put(Row.of(100L, 10L, "a"));
    s.put(Row.of(101L, 10L, "b"));
    s.put(Row.of(110L, 11L, "c"));
    s.put(Row.of(120L, 12L, "d"));
    for (long id = 130; id < 140; id++) {
      s.put(Row.of(id, 99L, "other"));
    }
    s.index(List.of("issue"), List.of());
  }

  // -- law 9: initial demand ------------------------------------------------------------------------

  /** A filled comments source served on the test's queue, and the lazy collection over it. */
  private record Queued(ArrayDeque<Runnable> queued, MemoryLazySource source, LazyCollection comments) {}

  private Queued queuedComments() {
    ArrayDeque<Runnable> queued = new ArrayDeque<>();
    MemoryLazySource source = new MemoryLazySource(COMMENTS, List.of("id"), queued::add);
    fill(source);
    return new Queued(queued, source, db.lazyCollection("comments", COMMENTS, List.of("id"), source));
  }

  @Test
  void initialDemand_theQueryIsLoadingUntilEveryRequestOfItsReachableBucketsSettledAndReadyAfter() {
    Queued lazy = queuedComments();
    ArrayDeque<Runnable> queued = lazy.queued();
    MemoryLazySource source = lazy.source();
    LazyCollection comments = lazy.comments();
    write(10, "open");
    write(11, "open");
    LiveQuery q = db.liveQuery("q", issuesWithComments(issues, comments, open()));
    assertThat(queued).as("one flush, one request for issues 10 and 11").hasSize(1);
    assertThat(q.status()).isEqualTo(Status.LOADING);
    assertThat(q.ready()).isNotDone();
    assertThat(nested(q)).as("pending demand hides no parent").isEqualTo(Map.of(10L, ids(), 11L, ids()));

    write(12, "open"); // reachable before the first request settled: a second request
    assertThat(queued).hasSize(2);
    queued.pollLast().run(); // issue 12's request settles first
    assertThat(nested(q)).isEqualTo(Map.of(10L, ids(), 11L, ids(), 12L, ids(120)));
    assertThat(q.status()).isEqualTo(Status.LOADING);
    assertThat(comments.status()).isEqualTo(Status.LOADING);
    assertThat(q.ready()).isNotDone();

    queued.poll().run();
    assertThat(q.status()).isEqualTo(Status.READY);
    assertThat(comments.status()).isEqualTo(Status.READY);
    assertThat(q.ready()).isCompleted();
    assertThat(nested(q)).isEqualTo(Map.of(10L, ids(100, 101), 11L, ids(110), 12L, ids(120)));
    assertThat(source.requestsServed()).isEqualTo(2);
  }

  @Test
  void initialDemand_anEmptyOuterRelationIsReadyAtOnceWithNoRequest() {
    Queued lazy = queuedComments();
    ArrayDeque<Runnable> queued = lazy.queued();
    MemoryLazySource source = lazy.source();
    LazyCollection comments = lazy.comments();
    write(10, "closed"); // a row the filter drops: no parent
    LiveQuery q = db.liveQuery("q", issuesWithComments(issues, comments, open()));
    assertThat(q.status()).isEqualTo(Status.READY);
    assertThat(q.ready()).isCompleted();
    assertThat(q.rows()).isEmpty();
    assertThat(queued).as("no request made").isEmpty();
    assertThat(source.requestsServed()).isZero();
    assertThat(comments.rows()).isEmpty();

    write(11, "open"); // a first parent: demand, LOADING until it settles
    assertThat(q.status()).isEqualTo(Status.LOADING);
    queued.poll().run();
    assertThat(q.status()).isEqualTo(Status.READY);
    assertThat(nested(q)).isEqualTo(Map.of(11L, ids(110)));
  }

  // -- law 6: stale demand ----------------------------------------------------------------------------

  /** Comments 1..12 of a non-conforming source, comment c on issue c % 4. */
  private LazyCollection controlled(ControlledLazySource source) {
    return db.lazyCollection("comments", COMMENTS, List.of("id"), source);
  }

  @Test
  void staleDemand_aParentLeavingWhileItsRequestIsPendingCancelsItAndItsLateRowsAreNotInstalled() throws Exception {
    ControlledLazySource source = new ControlledLazySource(COMMENTS, DemandPlaneTest.table());
    LazyCollection comments = controlled(source);
    write(1, "open");
    LiveQuery q = db.liveQuery("q", issuesWithComments(issues, comments, open()));
    List<ChangeEvent> events = new ArrayList<>();
    q.subscribe(events::addAll);
    AtomicInteger fired = new AtomicInteger();
    source.call(0).cancellation().onCancel(fired::incrementAndGet);
    write(2, "open");
    assertThat(source.calls()).hasSize(2);
    assertThat(source.call(1).request().values()).containsExactly(Row.of(2L));

    write(1, "closed"); // the parent of the pending request #0 leaves
    assertThat(source.call(0).cancelled()).isTrue();
    assertThat(fired).as("the cancellation fired once").hasValue(1);
    assertThat(source.call(1).cancelled()).isFalse();
    assertThat(q.status()).isEqualTo(Status.LOADING);
    int before = events.size();

    source.completeOnThread(0); // the source completes it anyway
    assertThat(comments.rows()).as("its rows are not installed").isEmpty();
    assertThat(events).as("the query saw nothing").hasSize(before);
    assertThat(q.status()).as("it cannot settle readiness").isEqualTo(Status.LOADING);
    assertThat(q.ready()).isNotDone();
    synchronized (db) {
      assertThat(db.demand().ledger().staleSettlements()).isEqualTo(1);
    }

    source.completeOnThread(1);
    assertThat(q.status()).isEqualTo(Status.READY);
    assertThat(nested(q)).isEqualTo(Map.of(2L, DemandPlaneTest.idsOn(2)));
    assertThat(DemandPlaneTest.ids(comments)).isEqualTo(DemandPlaneTest.idsOn(2));
  }

  @Test
  void staleDemand_aPendingRequestWhoseOnlyParentLeftDoesNotHoldReadinessAndLandsAsNothing() throws Exception {
    ControlledLazySource source = new ControlledLazySource(COMMENTS, DemandPlaneTest.table());
    LazyCollection comments = controlled(source);
    write(1, "open");
    LiveQuery q = db.liveQuery("q", issuesWithComments(issues, comments, open()));
    assertThat(q.status()).isEqualTo(Status.LOADING);
    List<ChangeEvent> events = new ArrayList<>();
    q.subscribe(events::addAll);

    write(1, "closed");
    assertThat(source.call(0).cancelled()).isTrue();
    assertThat(q.status()).as("nothing current is pending").isEqualTo(Status.READY);
    assertThat(q.rows()).isEmpty();
    int before = events.size();

    source.completeOnThread(0);
    assertThat(comments.rows()).isEmpty();
    assertThat(events).hasSize(before);
    assertThat(q.status()).isEqualTo(Status.READY);
    assertThat(comments.status()).isEqualTo(Status.READY);
  }

  // -- release on close, sharing between queries ------------------------------------------------------

  @Test
  void closingALiveQueryReleasesItsPlansAndTheRowsOnlyItHeldGo() {
    MemoryLazySource source = new MemoryLazySource(COMMENTS, List.of("id"));
    fill(source);
    LazyCollection comments = db.lazyCollection("comments", COMMENTS, List.of("id"), source);
    write(10, "open");
    write(11, "open");
    LiveQuery only11 = db.liveQuery("only11", issuesWithComments(issues, comments, eq(col("i.id"), lit(11L))));
    LiveQuery open = db.liveQuery("open", issuesWithComments(issues, comments, open())); // 11 covered: asks for 10
    assertThat(source.requestsServed()).isEqualTo(2);
    assertThat(DemandPlaneTest.ids(comments)).isEqualTo(ids(100, 101, 110));
    assertThat(nested(open)).isEqualTo(Map.of(10L, ids(100, 101), 11L, ids(110)));

    open.close();
    db.runDemand(); // LiveQuery.close queues the release but does not run it (reported): run it here
    assertThat(DemandPlaneTest.ids(comments)).as("issue 10's rows were held by the closed query only")
        .isEqualTo(ids(110));
    assertThat(nested(only11)).isEqualTo(Map.of(11L, ids(110)));
    assertThat(only11.status()).isEqualTo(Status.READY);

    only11.close();
    db.runDemand(); // LiveQuery.close queues the release but does not run it (reported): run it here
    assertThat(comments.rows()).isEmpty();
    synchronized (db) {
      assertThat(db.demand().ledger().activeRequests()).isZero();
      assertThat(db.demand().ledger().demandedValues()).isZero();
    }
    write(12, "open");
    assertThat(source.requestsServed()).as("closed queries demand nothing more").isEqualTo(2);
  }

  @Test
  void sharing_twoLiveQueriesShowingOneBucketShareOneRequestAndItsRowsStayWhileEitherHoldsIt() {
    ControlledLazySource source = new ControlledLazySource(COMMENTS, DemandPlaneTest.table());
    LazyCollection comments = controlled(source);
    write(3, "open");
    LiveQuery a = db.liveQuery("a", issuesWithComments(issues, comments, open()));
    LiveQuery b = db.liveQuery("b", issuesWithComments(issues, comments, eq(col("i.id"), lit(3L))));
    assertThat(source.calls()).as("one request for issue 3").hasSize(1);
    assertThat(a.status()).isEqualTo(Status.LOADING);
    assertThat(b.status()).isEqualTo(Status.LOADING);
    source.complete(0);
    assertThat(a.status()).isEqualTo(Status.READY);
    assertThat(b.status()).isEqualTo(Status.READY);
    assertThat(nested(a)).isEqualTo(Map.of(3L, DemandPlaneTest.idsOn(3)));
    assertThat(nested(b)).isEqualTo(nested(a));

    a.close();
    db.runDemand(); // LiveQuery.close queues the release but does not run it (reported): run it here
    assertThat(source.call(0).cancelled()).as("b still holds it").isFalse();
    assertThat(DemandPlaneTest.ids(comments)).isEqualTo(DemandPlaneTest.idsOn(3));
    assertThat(nested(b)).isEqualTo(Map.of(3L, DemandPlaneTest.idsOn(3)));
    LiveQuery c = db.liveQuery("c", issuesWithComments(issues, comments, open()));
    assertThat(source.calls()).as("a third query reuses it too").hasSize(1);
    assertThat(c.status()).isEqualTo(Status.READY);
    b.close();
    c.close();
    db.runDemand(); // LiveQuery.close queues the release but does not run it (reported): run it here
    assertThat(source.call(0).cancelled()).isTrue();
    assertThat(comments.rows()).isEmpty();
  }

  // -- the work law -------------------------------------------------------------------------------------

  /** Rows scanned to hydrate three shown issues (five comments each) beside {@code others} other rows. */
  private static long scannedToHydrate(int others) {
    Rivulet db = Rivulet.create();
    SourceCollection issues = db.collection("issues", Schema.parse("id INT NOT NULL, status STRING"), List.of("id"));
    MemoryLazySource source = new MemoryLazySource(COMMENTS, List.of("id"));
    long id = 0;
    for (long issue = 1; issue <= 3; issue++) {
      for (int k = 0; k < 5; k++) {
        source.put(Row.of(id++, issue, "shown"));
      }
    }
    for (int k = 0; k < others; k++) {
      source.put(Row.of(id++, 1000L + k % 500, "other"));
    }
    source.index(List.of("issue"), List.of());
    LazyCollection comments = db.lazyCollection("comments", COMMENTS, List.of("id"), source);
    issues.beginSync().write(Row.of(1L, "open")).write(Row.of(2L, "open")).write(Row.of(3L, "open"))
        .write(Row.of(1001L, "closed")).markReady().commit();
    LiveQuery q = db.liveQuery("q", issuesWithComments(issues, comments, open()));
    assertThat(q.status()).isEqualTo(Status.READY);
    assertThat(q.rows()).hasSize(3);
    assertThat(comments.size()).isEqualTo(15);
    return source.rowsScanned();
  }

  @Test
  void work_hydrationScansTheVisibleParentsBucketsIndependentOfTableSize() {
    assertThat(scannedToHydrate(1_000)).isEqualTo(15);
    assertThat(scannedToHydrate(100_000)).isEqualTo(15);
  }

  // -- the source's later changes -----------------------------------------------------------------------

  @Test
  void laterChanges_reachOnlyCoveredRowsAndStopWhenTheParentLeaves() {
    MemoryLazySource source = new MemoryLazySource(COMMENTS, List.of("id"));
    fill(source);
    LazyCollection comments = db.lazyCollection("comments", COMMENTS, List.of("id"), source);
    write(10, "open");
    write(11, "open");
    LiveQuery q = db.liveQuery("q", issuesWithComments(issues, comments, open()));
    long scanned = source.rowsScanned();
    source.put(Row.of(111L, 11L, "new")); // covered
    source.put(Row.of(140L, 99L, "new")); // issue 99 is not shown
    source.put(Row.of(130L, 10L, "moved in")); // from 99 into 10
    assertThat(nested(q)).isEqualTo(Map.of(10L, ids(100, 101, 130), 11L, ids(110, 111)));
    assertThat(DemandPlaneTest.ids(comments)).isEqualTo(ids(100, 101, 110, 111, 130));

    write(10, "closed");
    assertThat(DemandPlaneTest.ids(comments)).as("the request of 10 and 11 is still held by 11")
        .isEqualTo(ids(100, 101, 110, 111, 130));
    write(11, "closed");
    assertThat(comments.rows()).as("the adopted rows go with their request").isEmpty();
    source.put(Row.of(112L, 11L, "after")); // nobody demands issue 11 now
    source.put(Row.of(102L, 10L, "after"));
    assertThat(comments.rows()).isEmpty();
    assertThat(q.rows()).isEmpty();
    assertThat(source.rowsScanned()).as("changes are pushed, not scanned").isEqualTo(scanned);
  }

  @Test
  void laterChanges_arrivingWhileTheCoveringRequestIsPendingEndCorrectOnceItSettles() {
    Queued lazy = queuedComments();
    ArrayDeque<Runnable> queued = lazy.queued();
    MemoryLazySource source = lazy.source();
    LazyCollection comments = lazy.comments();
    write(10, "open");
    LiveQuery q = db.liveQuery("q", issuesWithComments(issues, comments, open()));
    assertThat(queued).hasSize(1);
    source.put(Row.of(102L, 10L, "added while pending"));
    source.delete(Row.of(100L));
    source.put(Row.of(101L, 10L, "edited while pending"));
    source.put(Row.of(131L, 10L, "moved in while pending"));
    assertThat(q.status()).isEqualTo(Status.LOADING);
    queued.poll().run();
    assertThat(q.status()).isEqualTo(Status.READY);
    assertThat(nested(q)).isEqualTo(Map.of(10L, ids(101, 102, 131)));
    assertThat(comments.get(Row.of(101L))).contains(Row.of(101L, 10L, "edited while pending"));
  }

  /**
   * A source that computes a request's rows when it is made (a snapshot, as a database query
   * does) and delivers them when the test says, after changes it pushed meanwhile.
   */
  private static final class SnapshotThenDeliver implements LazySource {
    final MemoryLazySource rows;
    final ArrayDeque<Runnable> deliveries = new ArrayDeque<>();

    SnapshotThenDeliver(MemoryLazySource rows) {
      this.rows = rows;
    }

    @Override
    public CompletableFuture<List<Row>> load(SubsetRequest request, Cancellation cancellation) {
      List<Row> snapshot = rows.load(request, cancellation).join();
      CompletableFuture<List<Row>> out = new CompletableFuture<>();
      deliveries.add(() -> out.complete(snapshot));
      return out;
    }

    @Override
    public void onChange(java.util.function.Consumer<List<SourceChange>> listener) {
      rows.onChange(listener);
    }
  }

  @Test
  void laterChanges_madeAfterAPendingRequestsSnapshotWinOverItsOlderBaseline() {
    MemoryLazySource memory = new MemoryLazySource(COMMENTS, List.of("id"));
    fill(memory);
    SnapshotThenDeliver source = new SnapshotThenDeliver(memory);
    LazyCollection comments = db.lazyCollection("comments", COMMENTS, List.of("id"), source);
    write(10, "open");
    LiveQuery q = db.liveQuery("q", issuesWithComments(issues, comments, open()));
    assertThat(source.deliveries).hasSize(1); // the snapshot holds 100 and 101 as they were
    memory.put(Row.of(101L, 10L, "edited after the snapshot"));
    memory.delete(Row.of(100L));
    memory.put(Row.of(102L, 10L, "added after the snapshot"));
    source.deliveries.poll().run(); // the older baseline lands last
    assertThat(q.status()).isEqualTo(Status.READY);
    assertThat(nested(q)).isEqualTo(Map.of(10L, ids(101, 102)));
    assertThat(comments.get(Row.of(101L))).contains(Row.of(101L, 10L, "edited after the snapshot"));
    assertThat(comments.get(Row.of(100L))).as("deleted after the snapshot").isEmpty();
  }

  @Test
  void laterChanges_aRowAddedUnderAPendingRequestGoesWhenThatRequestIsCancelled() {
    Queued lazy = queuedComments();
    ArrayDeque<Runnable> queued = lazy.queued();
    MemoryLazySource source = lazy.source();
    LazyCollection comments = lazy.comments();
    write(10, "open");
    LiveQuery q = db.liveQuery("q", issuesWithComments(issues, comments, open()));
    source.put(Row.of(102L, 10L, "added while pending"));
    write(10, "closed"); // the pending request is cancelled
    queued.poll().run(); // a conforming source: not served
    assertThat(q.rows()).isEmpty();
    assertThat(q.status()).isEqualTo(Status.READY);
    assertThat(comments.rows()).as("no held request covers 102").isEmpty();
    synchronized (db) {
      assertThat(comments.owners(Row.of(102L))).isZero();
    }
  }

  /**
   * Races: a pool of two threads serves the loads (reading the source, then completing outside
   * its monitor) while the test's thread opens and closes parents and puts and deletes comments.
   * Once quiet, each shown issue's nested comments are the source's rows of that issue, and every
   * row the lazy collection holds is the source's current row (no older baseline, no deleted row).
   */
  @Test
  void laterChanges_racingLoadsOnAPoolEndOnTheSourcesCurrentRows() throws Exception {
    for (long seed : dev.rivulet.testkit.Seeds.runs(5)) {
      String at = "seed " + seed + "; replay: " + dev.rivulet.testkit.Seeds.replayHint(seed);
      java.util.Random rnd = new java.util.Random(seed);
      java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
      try {
        Rivulet db = Rivulet.create();
        SourceCollection parents = db.collection("issues", Schema.parse("id INT NOT NULL, status STRING"), List.of("id"));
        MemoryLazySource source = new MemoryLazySource(COMMENTS, List.of("id"), pool);
        Map<Long, Row> model = new TreeMap<>(); // the source's rows by id, kept by this thread
        for (long id = 0; id < 40; id++) {
          Row r = Row.of(id, id % 6, "v0");
          source.put(r);
          model.put(id, r);
        }
        source.index(List.of("issue"), List.of());
        LazyCollection comments = db.lazyCollection("comments", COMMENTS, List.of("id"), source);
        Set<Long> shown = new TreeSet<>();
        LiveQuery q = db.liveQuery("q", issuesWithComments(parents, comments, open()));
        for (int step = 0; step < 200; step++) {
          int what = rnd.nextInt(3);
          if (what == 0) {
            long issue = rnd.nextInt(6);
            boolean opened = shown.add(issue) || !shown.remove(issue);
            parents.beginSync().write(Row.of(issue, opened ? "open" : "closed")).markReady().commit();
          } else if (what == 1) {
            long id = rnd.nextInt(50);
            Row r = Row.of(id, (long) rnd.nextInt(6), "v" + step);
            source.put(r);
            model.put(id, r);
          } else {
            long id = rnd.nextInt(50);
            source.delete(Row.of(id));
            model.remove(id);
          }
          if (rnd.nextInt(8) == 0) {
            Thread.sleep(1);
          }
        }
        q.ready().get(10, java.util.concurrent.TimeUnit.SECONDS);
        pool.shutdown();
        assertThat(pool.awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS)).as(at).isTrue();
        Map<Long, Set<Long>> expected = new TreeMap<>();
        shown.forEach(i -> expected.put(i, new TreeSet<>()));
        model.values().forEach(r -> {
          Set<Long> of = expected.get(((Number) r.get(1)).longValue());
          if (of != null) {
            of.add(((Number) r.get(0)).longValue());
          }
        });
        assertThat(q.status()).as(at).isEqualTo(Status.READY);
        assertThat(nested(q)).as(at).isEqualTo(expected);
        for (Row r : comments.rows()) {
          assertThat(r).as(at + ": a held row is the source's current row").isEqualTo(model.get(((Number) r.get(0)).longValue()));
        }
      } finally {
        pool.shutdownNow();
      }
    }
  }
}
