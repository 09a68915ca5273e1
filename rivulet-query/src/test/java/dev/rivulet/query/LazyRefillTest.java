package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Query.as;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The push-down of a child's order and limit into its lazy requests, step by step: a bucket loads
 * its first rows only; a row that leaves it (deleted, moved to another issue or past the
 * boundary) is refilled by a keyset request after the last loaded row, for the missing count,
 * while the result shows its current partial value and the collection is LOADING; a row added
 * before the boundary comes without a request, one added past it is not loaded; with a filter,
 * only passing rows count toward the limit, and a row the filter drops is refilled; a refill
 * whose bucket goes is cancelled and its late settlement changes nothing.
 */
class LazyRefillTest {
  private static final Schema COMMENTS = Schema.parse("id INT NOT NULL, issue INT, created INT NOT NULL, body STRING");

  private final Rivulet db = Rivulet.create();
  private final SourceCollection issues = db.collection("issues", Schema.parse("id INT NOT NULL, open BOOL"),
      List.of("id"));
  private final ArrayDeque<Runnable> queued = new ArrayDeque<>(); // the source's executor, run by the test
  private final MemoryLazySource memory = new MemoryLazySource(COMMENTS, List.of("id"), queued::add);
  private final List<SubsetRequest> requests = new ArrayList<>();
  private final LazyCollection comments = db.lazyCollection("comments", COMMENTS, List.of("id"), new LazySource() {
    @Override
    public CompletableFuture<List<Row>> load(SubsetRequest request, Cancellation cancellation) {
      requests.add(request);
      return memory.load(request, cancellation);
    }

    @Override
    public void onChange(Consumer<List<SourceChange>> listener) {
      memory.onChange(listener);
    }
  });
  private final LiveQuery q;

  LazyRefillTest() {
    for (long id = 1; id <= 6; id++) {
      memory.put(Row.of(id, 1L, id * 10, "c" + id)); // issue 1: created 10..60
    }
    memory.put(Row.of(7L, 2L, 5L, "other"));
    memory.index(List.of("issue"), List.of(SubsetRequest.Order.desc("created")));
    issues.beginSync().write(Row.of(1L, true)).markReady().commit();
    Query newest = Query.from("c", comments).where(eq(col("c.issue"), col("i.id")))
        .select(as("id", col("c.id"))).orderBy(Query.desc(col("c.created"))).limit(3);
    q = db.liveQuery("q", Query.from("i", issues).where(eq(col("i.open"), Exprs.lit(true)))
        .select(as("id", col("i.id")), Query.includeArray("newest", newest)));
    serveAll();
  }

  private void serveAll() {
    while (!queued.isEmpty()) {
      queued.poll().run();
    }
  }

  @SuppressWarnings("unchecked")
  private List<Object> newest() {
    List<Object> out = new ArrayList<>();
    ((List<Row>) q.rows().get(0).get(1)).forEach(r -> out.add(r.get(0)));
    return out;
  }

  @SuppressWarnings("unchecked")
  private static List<Object> ids(Object include) {
    List<Object> out = new ArrayList<>();
    ((List<Row>) include).forEach(r -> out.add(r.get(0)));
    return out;
  }

  private List<Object> held() {
    List<Object> out = new ArrayList<>();
    comments.rows().forEach(r -> out.add(r.get(0)));
    out.sort((a, b) -> Long.compare((Long) a, (Long) b));
    return out;
  }

  @Test
  void aBucketLoadsItsFirstRowsOnly() {
    assertThat(newest()).containsExactly(6L, 5L, 4L);
    assertThat(held()).as("the three newest of issue 1's six").containsExactly(4L, 5L, 6L);
    assertThat(requests).singleElement().satisfies(r -> {
      assertThat(r.limit()).isEqualTo(3);
      assertThat(r.order()).containsExactly(new SubsetRequest.Order("created", true, true));
      assertThat(r.after()).isNull();
    });
    assertThat(memory.rowsScanned()).isEqualTo(3);
  }

  @Test
  void aDeletedRowIsRefilledAfterTheLastLoadedRowAndTheResultIsShortUntilThen() {
    memory.delete(Row.of(5L));
    assertThat(newest()).as("the current partial value").containsExactly(6L, 4L);
    assertThat(comments.status()).as("the refill is pending").isEqualTo(Status.LOADING);
    assertThat(q.status()).isEqualTo(Status.LOADING);
    assertThat(requests).hasSize(2);
    SubsetRequest refill = requests.get(1);
    assertThat(refill.values()).containsExactly(Row.of(1L));
    assertThat(refill.after()).as("the last loaded row's order value, then its key").isEqualTo(Row.of(40L, 4L));
    assertThat(refill.limit()).as("one row is missing").isEqualTo(1);

    serveAll();
    assertThat(newest()).containsExactly(6L, 4L, 3L);
    assertThat(comments.status()).isEqualTo(Status.READY);
    assertThat(q.status()).isEqualTo(Status.READY);
    assertThat(memory.rowsScanned()).as("three, then the one refilled").isEqualTo(4);
  }

  @Test
  void aRowMovingToAnotherIssueOrPastTheBoundaryLeavesAndTheRefillBringsTheNextInOrder() {
    memory.put(Row.of(6L, 2L, 60L, "c6")); // moves to issue 2, which nobody shows
    serveAll();
    assertThat(newest()).containsExactly(5L, 4L, 3L);
    memory.put(Row.of(5L, 1L, 25L, "c5")); // sorts after the boundary (created 30): leaves, then comes back in order
    serveAll();
    assertThat(newest()).containsExactly(4L, 3L, 5L);
    assertThat(held()).doesNotContain(6L, 7L);
  }

  /**
   * With a source that answers at once, a refill is settled in the transaction that applied the
   * change that made it: subscribers never see the window short, and the change is one batch.
   */
  @Test
  void aRefillASourceAnswersAtOnceLandsInTheSameTransactionAsTheChange() {
    Rivulet db = Rivulet.create();
    MemoryLazySource now = new MemoryLazySource(COMMENTS, List.of("id"), Runnable::run);
    for (long id = 1; id <= 6; id++) {
      now.put(Row.of(id, id <= 4 ? 1L : 2L, id * 10, "c" + id));
    }
    now.index(List.of("issue"), List.of(SubsetRequest.Order.desc("created")));
    SourceCollection open = db.collection("issues", Schema.parse("id INT NOT NULL"), List.of("id"));
    open.beginSync().write(Row.of(1L)).write(Row.of(2L)).markReady().commit();
    LazyCollection lazy = db.lazyCollection("comments", COMMENTS, List.of("id"), now);
    Query newest = Query.from("c", lazy).where(eq(col("c.issue"), col("i.id")))
        .select(as("id", col("c.id"))).orderBy(Query.desc(col("c.created"))).limit(2);
    LiveQuery live = db.liveQuery("q", Query.from("i", open).select(as("id", col("i.id")),
        Query.includeArray("newest", newest)).orderBy(Query.asc(col("i.id"))));
    List<List<ChangeEvent>> batches = new ArrayList<>();
    live.subscribe(batches::add);
    assertThat(ids(live.rows().get(0).get(1))).containsExactly(4L, 3L);
    long tx = db.lastTxId();

    now.put(Row.of(4L, 2L, 40L, "c4")); // issue 1's newest moves to issue 2: issue 1's window is refilled
    assertThat(db.lastTxId()).as("one transaction").isEqualTo(tx + 1);
    assertThat(batches).as("issue 1 changes once, to its refilled value").singleElement()
        .satisfies(b -> assertThat(b).singleElement().satisfies(e -> assertThat(ids(e.value().get(1)))
            .containsExactly(3L, 2L)));
    assertThat(ids(live.rows().get(0).get(1))).containsExactly(3L, 2L);
    assertThat(ids(live.rows().get(1).get(1))).as("past issue 2's boundary").containsExactly(6L, 5L);
    assertThat(lazy.status()).isEqualTo(Status.READY);
    assertThat(now.rowsScanned()).as("two per issue, then the one refilled").isEqualTo(5);
  }

  @Test
  void aRowAddedBeforeTheBoundaryComesWithoutARequestAndOnePastItIsNotLoaded() {
    memory.put(Row.of(8L, 1L, 45L, "between"));
    assertThat(newest()).containsExactly(6L, 5L, 8L);
    memory.put(Row.of(9L, 1L, 1L, "oldest"));
    assertThat(held()).as("past the boundary: not loaded").doesNotContain(9L);
    assertThat(requests).as("pushed, not requested").hasSize(1);
    assertThat(queued).isEmpty();
    memory.delete(Row.of(6L));
    memory.delete(Row.of(5L));
    serveAll();
    // the window held 4, 5, 6 and 8; two left: one is missing, refilled after 4 (created 40)
    assertThat(newest()).containsExactly(8L, 4L, 3L);
  }

  @Test
  void aFilteredChildCountsOnlyThePassingRowsAndARowTheFilterDropsIsRefilled() {
    Query visible = Query.from("v", comments).where(Exprs.and(eq(col("v.issue"), col("i.id")),
            Exprs.ne(col("v.body"), Exprs.lit("hidden"))))
        .select(as("id", col("v.id"))).orderBy(Query.desc(col("v.created"))).limit(2);
    memory.put(Row.of(5L, 1L, 50L, "hidden")); // before the query: the second newest is filtered out
    int before = requests.size();
    LiveQuery f = db.liveQuery("f", Query.from("i", issues).select(as("id", col("i.id")),
        Query.includeArray("visible", visible)));
    serveAll();
    assertThat(nested(f)).containsExactly(6L, 4L);
    assertThat(requests.subList(before, requests.size())).as("two rows, one passing; then one more")
        .extracting(SubsetRequest::limit, SubsetRequest::after).containsExactly(
            org.assertj.core.groups.Tuple.tuple(2, null), org.assertj.core.groups.Tuple.tuple(1, Row.of(50L, 5L)));
    memory.put(Row.of(6L, 1L, 60L, "hidden")); // the filter drops a loaded row: refilled after 4 (created 40)
    serveAll();
    assertThat(nested(f)).containsExactly(4L, 3L);
    memory.put(Row.of(5L, 1L, 50L, "shown")); // passes again, before the boundary
    assertThat(nested(f)).containsExactly(5L, 4L);
  }

  @SuppressWarnings("unchecked")
  private static List<Object> nested(LiveQuery q) {
    List<Object> out = new ArrayList<>();
    ((List<Row>) q.rows().get(0).get(1)).forEach(r -> out.add(r.get(0)));
    return out;
  }

  @Test
  void aRefillWhoseBucketGoesIsCancelledAndItsLateSettlementChangesNothing() {
    memory.delete(Row.of(6L));
    assertThat(queued).as("the refill").hasSize(1);
    long stale;
    synchronized (db) {
      stale = db.demand().ledger().staleSettlements();
    }
    issues.beginSync().write(Row.of(1L, false)).commit(); // issue 1 closes: its request and the refill go
    assertThat(held()).isEmpty();
    synchronized (db) {
      assertThat(db.demand().ledger().activeRequests()).isZero();
      // the memory source completes a cancelled request at once, exceptionally: a stale settlement
      assertThat(db.demand().ledger().staleSettlements()).isEqualTo(stale + 1);
    }
    serveAll(); // the refill's task finds it cancelled
    assertThat(held()).isEmpty();
    assertThat(comments.status()).isEqualTo(Status.READY);
    assertThat(q.rows()).isEmpty();
  }
}
