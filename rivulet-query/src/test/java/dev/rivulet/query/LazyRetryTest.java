package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * {@link LazyCollection#retry}: a lazy collection whose load failed, and its live queries, leave
 * {@link Status#ERROR} when it is retried; its current demand is loaded again, rows it held stay
 * until the new loads settle, and what its source changed while it was in error is caught up.
 */
class LazyRetryTest {
  static final Schema COMMENTS = DemandWiringTest.COMMENTS;

  /** A source over a {@link MemoryLazySource} whose next {@link #failNext} loads fail. */
  static final class FlakySource implements LazySource {
    final MemoryLazySource inner = new MemoryLazySource(COMMENTS, List.of("id"));
    int failNext;
    int loads;

    @Override
    public synchronized CompletableFuture<List<Row>> load(SubsetRequest request, Cancellation cancellation) {
      loads++;
      if (failNext > 0) {
        failNext--;
        return CompletableFuture.failedFuture(new IllegalStateException("backend down"));
      }
      return inner.load(request, cancellation);
    }

    @Override
    public void onChange(Consumer<List<SourceChange>> listener) {
      inner.onChange(listener);
    }
  }

  private final Rivulet db = Rivulet.create();
  private final SourceCollection issues = db.collection("issues", Schema.parse("id INT NOT NULL"), List.of("id"));
  private final FlakySource source = new FlakySource();
  private final LazyCollection comments = db.lazyCollection("comments", COMMENTS, List.of("id"), source);

  LazyRetryTest() {
    db.onError((c, e) -> { }); // the failures are the tests' own; their checks read the statuses
    source.inner.put(Row.of(100L, 10L, "a"));
    source.inner.put(Row.of(101L, 10L, "b"));
    source.inner.put(Row.of(110L, 11L, "c"));
    source.inner.put(Row.of(120L, 12L, "d"));
  }

  private void showIssues(long... ids) {
    SourceCollection.SyncBatch b = issues.beginSync();
    for (long id : ids) {
      b.write(Row.of(id));
    }
    b.markReady().commit();
  }

  private LiveQuery issuesWithComments() {
    Query ofIssue = Query.from("c", comments).where(eq(col("c.issue"), col("i.id")))
        .select(Query.as("cid", col("c.id")), Query.as("body", col("c.body")));
    return db.liveQuery("q", Query.from("i", issues)
        .select(Query.as("id", col("i.id")), Query.includeArray("comments", ofIssue)));
  }

  /** Issue id to its nested comments' (id, body), from the live query. */
  @SuppressWarnings("unchecked")
  private static Map<Long, List<String>> nested(LiveQuery q) {
    Map<Long, List<String>> out = new TreeMap<>();
    for (Row r : q.rows()) {
      List<String> cs = new ArrayList<>();
      ((List<Row>) r.get(1)).forEach(c -> cs.add(c.get(0) + ":" + c.get(1)));
      cs.sort(null);
      out.put(((Number) r.get(0)).longValue(), cs);
    }
    return out;
  }

  /** The same from the source's own rows (a naive scan over what the test put there). */
  private Map<Long, List<String>> expected(long... ids) {
    Map<Long, List<String>> out = new TreeMap<>();
    for (long id : ids) {
      out.put(id, new ArrayList<>());
    }
    for (Row c : source.inner.load(SubsetRequest.all(), MemoryLazySourceTest.neverCancelled()).join()) {
      List<String> cs = out.get(((Number) c.get(1)).longValue());
      if (cs != null) {
        cs.add(c.get(0) + ":" + c.get(2));
      }
    }
    out.values().forEach(l -> l.sort(null));
    return out;
  }

  private Set<Long> heldIds() {
    Set<Long> out = new TreeSet<>();
    comments.rows().forEach(r -> out.add(((Number) r.get(0)).longValue()));
    return out;
  }

  @Test
  void aFailedLoadRecoversOnRetryAndSoDoesItsLiveQuery() {
    showIssues(10, 11);
    source.failNext = 1;
    LiveQuery q = issuesWithComments();
    assertThat(comments.status()).isEqualTo(Status.ERROR);
    assertThat(comments.error()).hasMessageContaining("backend down");
    assertThat(q.status()).isEqualTo(Status.ERROR);

    assertThat(comments.retry()).isTrue();
    assertThat(comments.status()).isEqualTo(Status.READY);
    assertThat(comments.error()).isNull();
    assertThat(q.status()).isEqualTo(Status.READY);
    assertThat(nested(q)).isEqualTo(expected(10, 11));
    assertThat(heldIds()).containsExactly(100L, 101L, 110L);

    int loads = source.loads;
    assertThat(comments.retry()).as("not in error: nothing to retry").isFalse();
    assertThat(source.loads).isEqualTo(loads);
    showIssues(12); // demand goes on as before
    assertThat(nested(q)).isEqualTo(expected(10, 11, 12));
  }

  @Test
  void aRetryThatFailsAgainStaysInErrorUntilTheNextOne() {
    showIssues(10);
    source.failNext = 2;
    LiveQuery q = issuesWithComments();
    assertThat(comments.retry()).isTrue();
    assertThat(comments.status()).isEqualTo(Status.ERROR);
    assertThat(q.status()).isEqualTo(Status.ERROR);
    assertThat(comments.retry()).isTrue();
    assertThat(comments.status()).isEqualTo(Status.READY);
    assertThat(nested(q)).isEqualTo(expected(10));
  }

  /**
   * Issue 10's comments loaded; issue 11's load failed. While in error the source edits a comment
   * of 10, removes another and adds one (none applied); the retry loads both issues again: the
   * collection then holds the source's rows, and its subscribers see only what differs from what
   * it held (issue 10's unchanged comment is neither removed nor inserted again).
   */
  @Test
  void aRetryCatchesUpWithTheSourceAndPublishesOnlyTheDifference() {
    showIssues(10);
    LiveQuery q = issuesWithComments();
    assertThat(nested(q)).isEqualTo(expected(10));
    source.failNext = 1;
    showIssues(11);
    assertThat(comments.status()).isEqualTo(Status.ERROR);
    source.inner.put(Row.of(100L, 10L, "a2"));
    source.inner.delete(Row.of(101L));
    source.inner.put(Row.of(102L, 10L, "new"));
    assertThat(heldIds()).as("in error: the source's changes wait for the retry").containsExactly(100L, 101L);

    List<ChangeEvent> events = new ArrayList<>();
    comments.subscribe(events::addAll);
    assertThat(comments.retry()).isTrue();
    assertThat(comments.status()).isEqualTo(Status.READY);
    assertThat(q.status()).isEqualTo(Status.READY);
    assertThat(nested(q)).isEqualTo(expected(10, 11));
    assertThat(heldIds()).containsExactly(100L, 102L, 110L);
    List<String> seen = new ArrayList<>();
    events.forEach(e -> seen.add(e.type() + " " + e.key().get(0)));
    assertThat(seen).containsExactlyInAnyOrder("UPDATE 100", "DELETE 101", "INSERT 102", "INSERT 110");
  }

  @Test
  void rowsStayWhileTheRetryLoads() {
    DemandPlaneTest.Fixture f = new DemandPlaneTest.Fixture(); // loads completed by hand
    f.db.onError((c, e) -> { });
    f.register("p", "issue");
    f.demand("p", 1, 1);
    f.source.complete(0);
    f.demand("p", 1, 2);
    f.source.call(1).future().completeExceptionally(new IllegalStateException("backend down"));
    assertThat(f.comments.status()).isEqualTo(Status.ERROR);

    assertThat(f.comments.retry()).isTrue();
    assertThat(f.comments.status()).isEqualTo(Status.LOADING);
    assertThat(f.source.calls()).hasSize(3);
    assertThat(f.source.call(0).cancelled()).as("the withdrawn requests are cancelled").isTrue();
    assertThat(f.source.call(2).request().values()).containsExactlyInAnyOrder(Row.of(1L), Row.of(2L));
    assertThat(DemandPlaneTest.ids(f.comments)).as("held until the new request settles")
        .isEqualTo(DemandPlaneTest.idsOn(1));
    f.source.complete(0); // a withdrawn request completing late changes nothing
    assertThat(f.comments.status()).isEqualTo(Status.LOADING);
    f.source.complete(2);
    assertThat(f.comments.status()).isEqualTo(Status.READY);
    assertThat(DemandPlaneTest.ids(f.comments)).isEqualTo(DemandPlaneTest.idsOn(1, 2));
  }

  @Test
  void aRetryFromACallbackIsRefused() {
    showIssues(10);
    source.failNext = 1;
    issuesWithComments();
    AtomicReference<Throwable> refused = new AtomicReference<>();
    SourceCollection other = db.collection("other", Schema.parse("id INT NOT NULL"), List.of("id"));
    other.subscribe(events -> {
      try {
        comments.retry();
      } catch (IllegalStateException e) {
        refused.set(e);
      }
    });
    other.beginSync().write(Row.of(1L)).commit();
    assertThat(refused.get()).hasMessageContaining("retry").hasMessageContaining("comments");
    assertThat(comments.status()).isEqualTo(Status.ERROR);
    assertThat(comments.retry()).isTrue();
    assertThat(comments.status()).isEqualTo(Status.READY);
  }
}
