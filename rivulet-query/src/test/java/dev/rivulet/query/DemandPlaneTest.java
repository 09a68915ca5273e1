package dev.rivulet.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.InvariantViolation;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The demand plane's temporal laws (seed 000, laws 6 "stale demand", 9 "initial demand", 10
 * "ownership"), driven by hand as the live-query wiring drives it: demand rows per plan, a flush,
 * and loads that a controllable source completes when and where the test says, on real threads.
 * The lazy collection itself is observed (its rows, status and events): a live query that read it
 * directly would demand all of it (see {@link DemandWiringTest}). Where the law is about a live
 * query, the test builds one whose include demands through the wiring.
 */
class DemandPlaneTest {
  static final Schema COMMENTS = Schema.parse("id INT NOT NULL, issue INT, body STRING");

  /** Comments 1..12, comment c on issue c % 4. */
  static List<Row> table() {
    List<Row> out = new ArrayList<>();
    for (long c = 1; c <= 12; c++) {
      out.add(Row.of(c, c % 4, "c" + c));
    }
    return out;
  }

  /** A database with a lazy comments collection over a controlled source. */
  static final class Fixture {
    final Rivulet db = Rivulet.create();
    final ControlledLazySource source = new ControlledLazySource(COMMENTS, table());
    final LazyCollection comments = db.lazyCollection("comments", COMMENTS, List.of("id"), source);

    void register(String plan, String column) {
      synchronized (db) {
        db.demand().register(plan, comments, List.of(column), List.of(), SubsetRequest.UNLIMITED);
      }
    }

    /** One run's demand: {@code weight} for each value, then a flush (as the wiring does). */
    void demand(String plan, long weight, long... values) {
      synchronized (db) {
        for (long v : values) {
          db.demand().change(plan, Row.of(v), weight);
        }
        db.demand().flush();
      }
      db.runDemand();
    }

    boolean settled() {
      synchronized (db) {
        return db.demand().settled();
      }
    }

    long stale() {
      synchronized (db) {
        return db.demand().ledger().staleSettlements();
      }
    }
  }

  static Set<Long> ids(LiveCollection c) {
    Set<Long> out = new TreeSet<>();
    for (Row r : c.rows()) {
      out.add(((Number) r.get(0)).longValue());
    }
    return out;
  }

  /** The ids of the table's comments on {@code issues} (computed from the table, naively). */
  static Set<Long> idsOn(long... issues) {
    Set<Long> out = new TreeSet<>();
    for (Row r : table()) {
      for (long i : issues) {
        if (((Number) r.get(1)).longValue() == i) {
          out.add(((Number) r.get(0)).longValue());
        }
      }
    }
    return out;
  }

  /** The ids of the rows {@code events} inserted. */
  static Set<Long> insertedIds(List<ChangeEvent> events) {
    Set<Long> out = new TreeSet<>();
    for (ChangeEvent e : events) {
      if (e.type() == ChangeEvent.Type.INSERT) {
        out.add(((Number) e.value().get(0)).longValue());
      }
    }
    return out;
  }

  // -- law 6: stale demand, completion orders ---------------------------------------------------

  @Test
  void staleDemand_completionOrderPermutationsOfThreeConcurrentRequestsConvergeAndAreReadyOnlyAfterTheLast()
      throws InterruptedException {
    int[][] orders = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    long[] issueOf = {1, 2, 3};
    Set<Set<Long>> finals = new java.util.HashSet<>();
    for (int[] order : orders) {
      Fixture f = new Fixture();
      List<ChangeEvent> events = new ArrayList<>();
      f.comments.subscribe(events::addAll);
      f.register("byIssue", "issue");
      for (long issue : issueOf) {
        f.demand("byIssue", 1, issue); // three runs, three flushes: three requests in flight
      }
      assertThat(f.source.calls()).hasSize(3);
      List<Long> completed = new ArrayList<>();
      for (int k = 0; k < 3; k++) {
        String at = "order " + java.util.Arrays.toString(order) + " after " + k + " completions";
        assertThat(f.comments.status()).as(at).isEqualTo(Status.LOADING);
        assertThat(f.comments.ready()).as(at).isNotDone();
        assertThat(f.settled()).as(at).isFalse();
        f.source.completeOnThread(order[k]);
        completed.add(issueOf[order[k]]);
        Set<Long> expected = idsOn(completed.stream().mapToLong(Long::longValue).toArray());
        assertThat(ids(f.comments)).as(at).isEqualTo(expected); // pending demand hides nothing
        assertThat(insertedIds(events)).as(at + ": loads arrive as inserts").isEqualTo(expected);
      }
      assertThat(f.comments.status()).isEqualTo(Status.READY);
      assertThat(f.comments.ready()).isCompleted();
      assertThat(f.settled()).isTrue();
      assertThat(events).extracting(ChangeEvent::type).containsOnly(ChangeEvent.Type.INSERT)
          .hasSize(idsOn(1, 2, 3).size());
      finals.add(ids(f.comments));
    }
    assertThat(finals).containsExactly(idsOn(1, 2, 3));
  }

  @Test
  void staleDemand_threeRequestsCompletedAtOnceFromThreeThreadsConverge() throws Exception {
    for (int round = 0; round < 25; round++) {
      Fixture f = new Fixture();
      f.register("byIssue", "issue");
      f.demand("byIssue", 1, 1);
      f.demand("byIssue", 1, 2);
      f.demand("byIssue", 1, 3);
      CountDownLatch go = new CountDownLatch(1);
      List<Thread> threads = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        int call = i;
        Thread t = new Thread(() -> {
          try {
            go.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          f.source.complete(call);
        });
        t.start();
        threads.add(t);
      }
      go.countDown();
      f.comments.ready().get(10, TimeUnit.SECONDS); // first ready: after the last of the three settled
      assertThat(ids(f.comments)).as("round " + round + ", when first ready").isEqualTo(idsOn(1, 2, 3));
      for (Thread t : threads) {
        t.join(10_000);
      }
      assertThat(ids(f.comments)).as("round " + round).isEqualTo(idsOn(1, 2, 3));
      assertThat(f.comments.status()).isEqualTo(Status.READY);
      assertThat(f.settled()).isTrue();
    }
  }

  // -- law 6: stale demand, obsolete generations -------------------------------------------------

  @Test
  void staleDemand_aStaleGenerationSettlingLateInstallsNothingAndCannotSettleReadiness() throws InterruptedException {
    Fixture f = new Fixture();
    List<ChangeEvent> events = new ArrayList<>();
    f.comments.subscribe(events::addAll);
    f.register("byIssue", "issue");
    f.demand("byIssue", 1, 1); // request #1
    f.demand("byIssue", -1, 1); // its only owner leaves: cancelled, obsolete
    assertThat(f.source.call(0).cancelled()).isTrue();
    f.demand("byIssue", 1, 1); // request #2 for the same value: the current generation
    assertThat(f.source.calls()).hasSize(2);
    assertThat(f.source.call(1).cancelled()).isFalse();

    f.source.completeOnThread(0); // the source ignores its cancellation and settles late
    assertThat(ids(f.comments)).isEmpty();
    assertThat(events).as("nothing was installed").isEmpty();
    assertThat(f.comments.status()).isEqualTo(Status.LOADING);
    assertThat(f.settled()).isFalse();
    assertThat(f.stale()).isEqualTo(1);

    f.source.completeOnThread(1);
    assertThat(ids(f.comments)).isEqualTo(idsOn(1));
    assertThat(insertedIds(events)).isEqualTo(idsOn(1));
    assertThat(f.comments.status()).isEqualTo(Status.READY);
    assertThat(f.stale()).isEqualTo(1);
  }

  @Test
  void staleDemand_aRequestOfAReplacedPlanSettlingLateIsIgnored() throws InterruptedException {
    Fixture f = new Fixture();
    f.register("byIssue.v1", "issue");
    f.demand("byIssue.v1", 1, 2);
    synchronized (f.db) { // the graph is rebuilt: its plan is replaced by a new generation
      f.db.demand().unregister("byIssue.v1");
      f.db.demand().register("byIssue.v2", f.comments, List.of("issue"), List.of(), SubsetRequest.UNLIMITED);
      f.db.demand().change("byIssue.v2", Row.of(2L), 1);
      f.db.demand().flush();
    }
    f.db.runDemand();
    assertThat(f.source.call(0).cancelled()).isTrue();
    f.source.completeOnThread(0);
    assertThat(ids(f.comments)).isEmpty();
    assertThat(f.comments.status()).isEqualTo(Status.LOADING);
    f.source.completeOnThread(1);
    assertThat(ids(f.comments)).isEqualTo(idsOn(2));
    assertThat(f.comments.status()).isEqualTo(Status.READY);
  }

  @Test
  void staleDemand_aSettledRequestReleasedRemovesItsRowsAndALateDuplicateSettlementChangesNothing() {
    Fixture f = new Fixture();
    f.register("byIssue", "issue");
    f.demand("byIssue", 1, 3);
    f.source.complete(0);
    assertThat(ids(f.comments)).isEqualTo(idsOn(3));
    f.demand("byIssue", -1, 3);
    assertThat(ids(f.comments)).isEmpty();
    assertThat(f.source.call(0).cancelled()).isTrue();
    f.source.call(0).future().complete(List.of(Row.of(99L, 3L, "late"))); // ignored: already completed
    assertThat(ids(f.comments)).isEmpty();
    assertThat(f.comments.status()).isEqualTo(Status.READY);
  }

  // -- cancellation and sharing ------------------------------------------------------------------

  @Test
  void cancellation_aConformingSourceAbortingInsideAFlushRunsNoTransactionInsideIt() {
    Rivulet db = Rivulet.create();
    java.util.ArrayDeque<Runnable> queued = new java.util.ArrayDeque<>();
    MemoryLazySource source = new MemoryLazySource(COMMENTS, List.of("id"), queued::add);
    table().forEach(source::put);
    LazyCollection comments = db.lazyCollection("comments", COMMENTS, List.of("id"), source);
    synchronized (db) {
      db.demand().register("byIssue", comments, List.of("issue"), List.of(), SubsetRequest.UNLIMITED);
      db.demand().change("byIssue", Row.of(1L), 1);
      db.demand().flush();
    }
    db.runDemand();
    long before = db.lastTxId();
    synchronized (db) {
      db.demand().change("byIssue", Row.of(1L), -1);
      db.demand().flush(); // the source completes the aborted load on this thread, inside the flush
      assertThat(db.lastTxId()).as("no transaction inside the flush").isEqualTo(before);
    }
    db.runDemand();
    queued.poll().run(); // the aborted request is not served
    assertThat(source.requestsServed()).isZero();
    assertThat(comments.rows()).isEmpty();
    assertThat(comments.status()).isEqualTo(Status.READY);
    synchronized (db) {
      assertThat(db.demand().ledger().staleSettlements()).isEqualTo(1);
    }
  }

  @Test
  void cancellation_releasingTheLastOwnerCancelsTheRequestAndASharedRequestSurvivesOneOwnersRelease() {
    Fixture f = new Fixture();
    f.register("byIssue", "issue");
    f.demand("byIssue", 1, 1, 2); // one run activates two buckets: one request covers both
    assertThat(f.source.calls()).hasSize(1);
    assertThat(f.source.call(0).request().values()).containsExactly(Row.of(1L), Row.of(2L));
    f.demand("byIssue", -1, 1);
    assertThat(f.source.call(0).cancelled()).as("bucket 2 still owns the request").isFalse();
    f.source.complete(0);
    assertThat(ids(f.comments)).as("the request is held: all its rows stay").isEqualTo(idsOn(1, 2));
    assertThat(f.comments.status()).isEqualTo(Status.READY);
    f.demand("byIssue", -1, 2);
    assertThat(f.source.call(0).cancelled()).as("its last owner left").isTrue();
    assertThat(ids(f.comments)).isEmpty();
  }

  @Test
  void sharing_aValueDemandedAgainReusesTheLiveRequestThatCoversIt() {
    Fixture f = new Fixture();
    f.register("byIssue", "issue");
    f.demand("byIssue", 1, 1, 2);
    f.source.complete(0);
    f.demand("byIssue", -1, 1);
    f.demand("byIssue", 1, 1);
    assertThat(f.source.calls()).as("no new load: request #1 still covers issue 1").hasSize(1);
    assertThat(f.comments.status()).isEqualTo(Status.READY);
    assertThat(ids(f.comments)).isEqualTo(idsOn(1, 2));
    f.demand("byIssue", -1, 2);
    assertThat(f.source.call(0).cancelled()).as("issue 1 owns it again").isFalse();
    assertThat(ids(f.comments)).isEqualTo(idsOn(1, 2));
  }

  @Test
  void sharing_equalPlansOfTwoQueriesShareARequestAndItIsCancelledOnlyWhenBothReleased() {
    Fixture f = new Fixture();
    f.register("a.byIssue", "issue");
    f.register("b.byIssue", "issue"); // the same include in another query: same target, columns, order, limit
    synchronized (f.db) {
      f.db.demand().register("c.firstTwo", f.comments, List.of("issue"), List.of(), 2); // a limit: not equal
    }
    f.demand("a.byIssue", 1, 1, 2);
    f.demand("b.byIssue", 1, 2);
    assertThat(f.source.calls()).as("b reuses a's request for issue 2").hasSize(1);
    f.demand("c.firstTwo", 1, 2);
    assertThat(f.source.calls()).as("a plan with another limit asks for itself").hasSize(2);
    f.source.complete(0);
    f.source.complete(1);
    f.demand("a.byIssue", -1, 1, 2);
    assertThat(f.source.call(0).cancelled()).as("b still holds issue 2").isFalse();
    assertThat(ids(f.comments)).as("the request is held: all its rows stay").isEqualTo(idsOn(1, 2));
    f.demand("b.byIssue", -1, 2);
    assertThat(f.source.call(0).cancelled()).isTrue();
    assertThat(ids(f.comments)).as("the limited plan's request still holds issue 2's rows").isEqualTo(idsOn(2));
    assertThat(f.comments.status()).isEqualTo(Status.READY);
    synchronized (f.db) {
      assertThat(f.db.demand().ledger().activeRequests()).isEqualTo(1);
    }
  }

  @Test
  void coalescing_valuesActivatedInOneFlushShareOneRequestAndADemandCountedTwiceNeedsTwoReleases() {
    Fixture f = new Fixture();
    f.register("byIssue", "issue");
    f.demand("byIssue", 1, 0, 1, 2, 3, 1); // issue 1 twice: two buckets with one correlation value
    assertThat(f.source.calls()).hasSize(1);
    assertThat(f.source.call(0).request().values()).hasSize(4);
    f.source.complete(0);
    f.demand("byIssue", -1, 0, 2, 3, 1);
    assertThat(f.source.call(0).cancelled()).isFalse();
    f.demand("byIssue", -1, 1);
    assertThat(f.source.call(0).cancelled()).isTrue();
    assertThat(ids(f.comments)).isEmpty();
  }

  // -- law 10: ownership --------------------------------------------------------------------------

  @Test
  void ownership_aRowExistsExactlyWhileASettledRequestThatLoadedItIsHeld() {
    Fixture f = new Fixture();
    f.register("byIssue", "issue");
    f.register("byId", "id");
    f.demand("byIssue", 1, 1); // comments 1, 5, 9
    f.demand("byId", 1, 5, 6); // comment 5 again, and 6 (issue 2)
    assertThat(ids(f.comments)).as("nothing settled yet").isEmpty();
    f.source.complete(1);
    assertThat(ids(f.comments)).isEqualTo(Set.of(5L, 6L));
    f.source.complete(0);
    assertThat(ids(f.comments)).isEqualTo(Set.of(1L, 5L, 6L, 9L));
    synchronized (f.db) {
      assertThat(f.comments.owners(Row.of(5L))).isEqualTo(2);
      assertThat(f.comments.owners(Row.of(1L))).isEqualTo(1);
    }
    f.demand("byIssue", -1, 1);
    assertThat(ids(f.comments)).as("5 is still held by the request by id").isEqualTo(Set.of(5L, 6L));
    f.demand("byId", -1, 5);
    assertThat(ids(f.comments)).as("the request by id is held by 6").isEqualTo(Set.of(5L, 6L));
    f.demand("byId", -1, 6);
    assertThat(ids(f.comments)).isEmpty();
    synchronized (f.db) {
      assertThat(f.comments.owners(Row.of(5L))).isZero();
      assertThat(f.db.demand().ledger().activeRequests()).isZero();
    }
  }

  // -- law 9: initial demand -----------------------------------------------------------------------

  /**
   * Through the wiring (a hand-registered plan beside the query's own would double the demand): the
   * live query's root read of the lazy projects demands all of them, its include of issues per
   * project demands the projects' ids, of which there are none.
   */
  @Test
  void initialDemand_anEmptyOuterRelationIsReadyOnceTheRootDemandSettles() throws InterruptedException {
    Rivulet db = Rivulet.create();
    Schema projectSchema = Schema.parse("id INT NOT NULL, name STRING");
    ControlledLazySource projectSource = new ControlledLazySource(projectSchema, List.of()); // no projects
    ControlledLazySource issueSource = new ControlledLazySource(COMMENTS, table());
    LazyCollection projects = db.lazyCollection("projects", projectSchema, List.of("id"), projectSource);
    LazyCollection issues = db.lazyCollection("issues", COMMENTS, List.of("id"), issueSource);
    Query issuesOfProject = Query.from("i", issues).where(Exprs.eq(Exprs.col("i.issue"), Exprs.col("p.id")))
        .select(Query.as("body", Exprs.col("i.body")));
    LiveQuery q = db.liveQuery("projectIssues", Query.from("p", projects)
        .select(Query.as("id", Exprs.col("p.id")), Query.includeArray("issues", issuesOfProject)));
    assertThat(issues.status()).as("no project, no demand: covered").isEqualTo(Status.READY);
    assertThat(projects.status()).isEqualTo(Status.LOADING);
    assertThat(q.status()).isEqualTo(Status.LOADING);
    assertThat(q.ready()).isNotDone();
    assertThat(projectSource.calls()).hasSize(1);
    assertThat(projectSource.call(0).request()).isEqualTo(SubsetRequest.all());

    projectSource.completeOnThread(0);
    assertThat(projects.status()).isEqualTo(Status.READY);
    assertThat(q.status()).isEqualTo(Status.READY);
    assertThat(q.ready()).isCompleted();
    assertThat(q.rows()).isEmpty();
    assertThat(issueSource.calls()).as("an empty outer relation demands nothing").isEmpty();
  }

  @Test
  void initialDemand_obsoleteDemandDoesNotBlockReadiness() {
    Fixture f = new Fixture();
    f.register("byIssue", "issue");
    f.demand("byIssue", 1, 1, 2);
    f.demand("byIssue", 1, 3);
    assertThat(f.comments.status()).isEqualTo(Status.LOADING);
    f.source.complete(1); // issue 3 settles
    assertThat(f.comments.status()).isEqualTo(Status.LOADING);
    assertThat(f.comments.ready()).isNotDone();
    f.demand("byIssue", -1, 1, 2); // the first request is no longer reachable
    assertThat(f.comments.status()).isEqualTo(Status.READY);
    assertThat(f.comments.ready()).isCompleted();
    assertThat(ids(f.comments)).isEqualTo(idsOn(3));
  }

  @Test
  void pendingDemand_readinessReturnsToLoadingForNewDemandAndTheRowsLoadedSoFarStayVisible() {
    Fixture f = new Fixture();
    List<ChangeEvent> events = new ArrayList<>();
    f.comments.subscribe(events::addAll);
    f.register("byIssue", "issue");
    f.demand("byIssue", 1, 1);
    f.source.complete(0);
    assertThat(f.comments.status()).isEqualTo(Status.READY);
    assertThat(events).extracting(ChangeEvent::type).containsOnly(ChangeEvent.Type.INSERT).hasSize(3);
    f.demand("byIssue", 1, 2);
    assertThat(f.comments.status()).isEqualTo(Status.LOADING);
    assertThat(ids(f.comments)).isEqualTo(idsOn(1));
    f.source.complete(1);
    assertThat(f.comments.status()).isEqualTo(Status.READY);
    assertThat(ids(f.comments)).isEqualTo(idsOn(1, 2));
    assertThat(events).extracting(ChangeEvent::type).containsOnly(ChangeEvent.Type.INSERT).hasSize(6);
    assertThat(insertedIds(events)).isEqualTo(idsOn(1, 2));
  }

  // -- failures and misuse -----------------------------------------------------------------------

  /** Through the wiring: the request is the include's, for the one shown issue. */
  @Test
  void aFailedLoadPutsTheCollectionInErrorNamingTheRequest() {
    Fixture f = new Fixture();
    List<LiveCollection> reported = new ArrayList<>();
    f.db.onError((c, e) -> reported.add(c));
    SourceCollection issues = f.db.collection("issues", Schema.parse("id INT NOT NULL"), List.of("id"));
    issues.beginSync().write(Row.of(2L)).markReady().commit();
    Query bodies = Query.from("c", f.comments).where(Exprs.eq(Exprs.col("c.issue"), Exprs.col("i.id")))
        .select(Query.as("body", Exprs.col("c.body")));
    LiveQuery q = f.db.liveQuery("issuesWithComments", Query.from("i", issues)
        .select(Query.as("id", Exprs.col("i.id")), Query.includeArray("comments", bodies)));
    assertThat(f.source.calls()).hasSize(1);
    assertThat(q.status()).isEqualTo(Status.LOADING);
    f.source.call(0).future().completeExceptionally(new IllegalStateException("backend down"));
    assertThat(f.comments.status()).isEqualTo(Status.ERROR);
    assertThat(f.comments.error()).hasMessageContaining("comments").hasMessageContaining("backend down")
        .hasMessageContaining("[issue] IN [[2]]");
    assertThat(q.status()).isEqualTo(Status.ERROR);
    assertThat(reported).containsExactly(q);
  }

  @Test
  void rowsOutsideTheRequestFailItNamingTheRow() {
    Fixture f = new Fixture();
    f.register("byIssue", "issue");
    f.demand("byIssue", 1, 2);
    f.source.call(0).future().complete(List.of(Row.of(3L, 3L, "c3")));
    assertThat(f.comments.status()).isEqualTo(Status.ERROR);
    assertThat(f.comments.error()).hasMessageContaining("[3, 3, 'c3']").hasMessageContaining("[issue]");
    assertThat(f.comments.rows()).isEmpty();
  }

  @Test
  void badDemandIsRefusedNamingThePlan() {
    Fixture f = new Fixture();
    f.register("byIssue", "issue");
    synchronized (f.db) {
      DemandAdapter d = f.db.demand();
      assertThatThrownBy(() -> d.change("byIssue", Row.of(1L), -1)).isInstanceOf(InvariantViolation.class)
          .hasMessageContaining("byIssue").hasMessageContaining("[1]");
      assertThatThrownBy(() -> d.change("nope", Row.of(1L), 1)).hasMessageContaining("'nope'");
      assertThatThrownBy(() -> d.change("byIssue", Row.of(1L, 2L), 1)).hasMessageContaining("byIssue")
          .hasMessageContaining("2 values");
      assertThatThrownBy(() -> d.register("byIssue", f.comments, List.of("issue"), List.of(), 1))
          .hasMessageContaining("already registered");
      assertThatThrownBy(() -> d.register("x", f.comments, List.of("nope"), List.of(), 1))
          .isInstanceOf(QueryException.class).hasMessageContaining("comments").hasMessageContaining("nope");
    }
  }

  @Test
  void aNullCorrelationValueDemandsNothing() {
    Fixture f = new Fixture();
    f.register("byIssue", "issue");
    f.demand("byIssue", 1, new long[0]);
    synchronized (f.db) {
      f.db.demand().change("byIssue", Row.of((Object) null), 1);
      f.db.demand().flush();
    }
    f.db.runDemand();
    assertThat(f.source.calls()).isEmpty();
    assertThat(f.comments.status()).isEqualTo(Status.READY);
  }
}
