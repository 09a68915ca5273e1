package dev.rivulet.query;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.testkit.RefValues;
import dev.rivulet.testkit.Seeds;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The in-memory lazy source: what it serves (against a naive reference) and the work law (seed
 * 000, law 11): with an applicable index a request reads the demanded keys' rows, not the table.
 */
class MemoryLazySourceTest {
  static final Schema COMMENTS = Schema.parse("id INT NOT NULL, issue INT, created INT, body STRING");
  static final List<SubsetRequest.Order> NEWEST = List.of(SubsetRequest.Order.desc("created"));

  /** 1,000 comments, 10 per issue (issue = id % 100), created = id. */
  static MemoryLazySource thousandComments() {
    MemoryLazySource s = new MemoryLazySource(COMMENTS, List.of("id"));
    for (long id = 0; id < 1000; id++) {
      s.put(Row.of(id, id % 100, id, "c" + id));
    }
    return s;
  }

  static List<Row> loadNow(LazySource s, SubsetRequest r) {
    CompletableFuture<List<Row>> f = s.load(r, neverCancelled());
    assertThat(f).isCompleted();
    return f.join();
  }

  static Cancellation neverCancelled() {
    return new Cancellation() {
      @Override
      public boolean isCancelled() {
        return false;
      }

      @Override
      public void onCancel(Runnable action) {}
    };
  }

  static List<Row> values(long... vs) {
    List<Row> out = new ArrayList<>();
    for (long v : vs) {
      out.add(Row.of(v));
    }
    return out;
  }

  // -- law 11: work ------------------------------------------------------------------------------

  @Test
  void work_aRequestForThreeKeysScansOnlyThoseKeysRows() {
    MemoryLazySource s = thousandComments().index(List.of("issue"), NEWEST);
    List<Row> rows = loadNow(s, new SubsetRequest(List.of("issue"), values(5, 17, 42), NEWEST,
        SubsetRequest.UNLIMITED, null));
    assertThat(rows).hasSize(30);
    assertThat(s.rowsScanned()).as("the rows of issues 5, 17 and 42, not the table's 1,000").isEqualTo(30);

    List<Row> newest = loadNow(s, new SubsetRequest(List.of("issue"), values(5, 17, 42), NEWEST, 3, null));
    assertThat(s.rowsScanned() - 30).as("a limit of 3 per issue reads 3 rows per issue").isEqualTo(9);
    assertThat(newest).extracting(r -> r.get(0)).containsExactly(905L, 805L, 705L, 917L, 817L, 717L, 942L, 842L,
        742L);
  }

  @Test
  void work_anIndexInAnotherOrderServesARequestInNoOrder() {
    MemoryLazySource s = thousandComments().index(List.of("issue"), NEWEST);
    List<Row> rows = loadNow(s, SubsetRequest.in(List.of("issue"), values(5))); // no order: any index on issue
    assertThat(rows).hasSize(10);
    assertThat(s.rowsScanned()).isEqualTo(10);
  }

  @Test
  void work_anIndexInAnotherOrderReadsTheValuesRowsAndSortsThem() {
    MemoryLazySource s = thousandComments().index(List.of("issue"), NEWEST);
    List<Row> rows = loadNow(s, new SubsetRequest(List.of("issue"), values(5),
        List.of(SubsetRequest.Order.asc("created")), 3, null)); // another order: that index's rows of issue 5, sorted
    assertThat(rows).extracting(r -> r.get(0)).containsExactly(5L, 105L, 205L);
    assertThat(s.rowsScanned()).isEqualTo(10);
  }

  @Test
  void work_aKeysetCursorSeeksAndReadsOnlyTheRowsItReturns() {
    MemoryLazySource s = thousandComments().index(List.of("issue"), NEWEST);
    List<Row> rows = loadNow(s, new SubsetRequest(List.of("issue"), values(5, 6), NEWEST, 3, Row.of(505L, 505L)));
    // issue 5's rows after (created 505, id 505) newest first; issue 6's rows after it: those created before 505
    assertThat(rows).extracting(r -> r.get(0)).containsExactly(405L, 305L, 205L, 406L, 306L, 206L);
    assertThat(s.rowsScanned()).as("the rows returned, none skipped by the seek").isEqualTo(6);
  }

  @Test
  void work_withoutAnApplicableIndexARequestScansTheTable() {
    MemoryLazySource s = thousandComments().index(List.of("id"), List.of());
    List<Row> rows = loadNow(s, new SubsetRequest(List.of("issue"), values(5),
        List.of(SubsetRequest.Order.asc("created")), SubsetRequest.UNLIMITED, null)); // no index on issue
    assertThat(rows).hasSize(10);
    assertThat(s.rowsScanned()).isEqualTo(1000);
  }

  // -- what it serves ----------------------------------------------------------------------------

  /** The naive reference: per value, matching rows by the order then the id, after the cursor, limited. */
  static List<Row> naive(List<Row> table, Schema schema, SubsetRequest r) {
    Comparator<Row> order = (a, b) -> {
      for (SubsetRequest.Order o : r.order()) {
        int i = schema.indexOf(o.column());
        Object x = a.get(i);
        Object y = b.get(i);
        if (x == null || y == null) {
          if (x != y) {
            return (x == null) == o.nullsFirst() ? -1 : 1;
          }
          continue;
        }
        int c = RefValues.compare(x, y);
        if (c != 0) {
          return o.descending() ? -c : c;
        }
      }
      return RefValues.compare(a.get(0), b.get(0));
    };
    List<Row> out = new ArrayList<>();
    for (Row value : r.values()) {
      List<Row> matching = new ArrayList<>();
      for (Row row : table) {
        boolean match = true;
        for (int k = 0; k < r.columns().size(); k++) {
          match &= Objects.equals(row.get(schema.indexOf(r.columns().get(k))), value.get(k));
        }
        if (match && (r.after() == null || order.compare(row, cursorRow(r, schema)) > 0)) {
          matching.add(row);
        }
      }
      matching.sort(order);
      out.addAll(matching.subList(0, Math.min(matching.size(), r.limit())));
    }
    return out;
  }

  /** The cursor as a row of the schema (its order columns and id set), for the naive comparator. */
  private static Row cursorRow(SubsetRequest r, Schema schema) {
    Object[] values = new Object[schema.width()];
    for (int k = 0; k < r.order().size(); k++) {
      values[schema.indexOf(r.order().get(k).column())] = r.after().get(k);
    }
    values[0] = r.after().get(r.order().size());
    return Row.of(values);
  }

  @Test
  void indexedAndScanningSourcesServeEveryRequestAsTheNaiveReference() {
    List<List<SubsetRequest.Order>> orders = List.of(List.of(), NEWEST, List.of(SubsetRequest.Order.asc("created")),
        List.of(SubsetRequest.Order.desc("created"), SubsetRequest.Order.asc("body")),
        List.of(SubsetRequest.Order.desc("created").withNullsFirst()),
        List.of(SubsetRequest.Order.asc("created").withNullsLast(), SubsetRequest.Order.desc("body")));
    int checked = 0;
    for (long seed : Seeds.runs(30)) {
      Random rnd = new Random(seed);
      MemoryLazySource scanning = new MemoryLazySource(COMMENTS, List.of("id"));
      MemoryLazySource indexed = new MemoryLazySource(COMMENTS, List.of("id"));
      MemoryLazySource bulk = null; // indexed first, then loaded by putAll at step 10, then one putAll per row
      Map<Long, Row> table = new LinkedHashMap<>();
      for (int step = 0; step < 40; step++) {
        long id = rnd.nextInt(30);
        if (rnd.nextInt(4) == 0) {
          table.remove(id);
          scanning.delete(Row.of(id));
          indexed.delete(Row.of(id));
          if (bulk != null) {
            bulk.delete(Row.of(id));
          }
        } else {
          Row row = Row.of(id, rnd.nextInt(6) == 0 ? null : (long) rnd.nextInt(5),
              rnd.nextInt(5) == 0 ? null : (long) rnd.nextInt(4), "b" + rnd.nextInt(3));
          table.put(id, row);
          scanning.put(row);
          indexed.put(row);
          if (bulk != null) {
            bulk.putAll(List.of(row));
          }
        }
        if (step == 10) { // an index built over existing rows, then maintained
          orders.forEach(o -> indexed.index(List.of("issue"), o));
          MemoryLazySource b = new MemoryLazySource(COMMENTS, List.of("id"));
          orders.subList(0, 3).forEach(o -> b.index(List.of("issue"), o)); // the others: sorted per value
          b.putAll(new ArrayList<>(table.values()));
          bulk = b;
        }
        List<SubsetRequest.Order> order = orders.get(rnd.nextInt(orders.size()));
        TreeSet<Long> vs = new TreeSet<>();
        for (int k = 1 + rnd.nextInt(3); k > 0; k--) {
          vs.add((long) rnd.nextInt(6));
        }
        Row after = null;
        if (rnd.nextInt(3) == 0) {
          Object[] c = new Object[order.size() + 1];
          for (int k = 0; k < order.size(); k++) {
            c[k] = order.get(k).column().equals("body") ? "b" + rnd.nextInt(3)
                : rnd.nextInt(5) == 0 ? null : (long) rnd.nextInt(4);
          }
          c[order.size()] = (long) rnd.nextInt(30);
          after = Row.of(c);
        }
        SubsetRequest r = new SubsetRequest(List.of("issue"), values(vs.stream().mapToLong(Long::longValue).toArray()),
            order, rnd.nextBoolean() ? SubsetRequest.UNLIMITED : 1 + rnd.nextInt(3), after);
        List<Row> expected = naive(new ArrayList<>(table.values()), COMMENTS, r);
        String at = "seed " + seed + " step " + step + " " + r + "; replay: " + Seeds.replayHint(seed);
        assertThat(loadNow(scanning, r)).as(at).isEqualTo(expected);
        assertThat(loadNow(indexed, r)).as(at).isEqualTo(expected);
        if (bulk != null) {
          assertThat(loadNow(bulk, r)).as("bulk-loaded, " + at).isEqualTo(expected);
        }
        checked++;
      }
    }
    assertThat(checked).isEqualTo(40 * Seeds.runs(30).size());
  }

  // -- cancellation and threads ------------------------------------------------------------------

  @Test
  void aRequestCancelledBeforeItIsServedNeverCompletesWithRows() {
    ArrayDeque<Runnable> queued = new ArrayDeque<>();
    MemoryLazySource s = new MemoryLazySource(COMMENTS, List.of("id"), queued::add);
    s.put(Row.of(1L, 1L, 1L, "x"));
    dev.rivulet.query.demand.CancellationSignal signal = new dev.rivulet.query.demand.CancellationSignal();
    CompletableFuture<List<Row>> f = s.load(SubsetRequest.in(List.of("issue"), values(1)), signal);
    assertThat(f).isNotDone();
    signal.cancel();
    assertThat(f).isCompletedExceptionally();
    queued.poll().run();
    assertThat(f.handle((rows, e) -> e)).isCompletedWithValueMatching(e -> e instanceof CancellationException);
    assertThat(s.requestsServed()).isZero();
  }

  @Test
  void aLazyCollectionLoadsTheNewestThreeCommentsOfEachDemandedIssueOnAnExecutor() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      MemoryLazySource s = new MemoryLazySource(COMMENTS, List.of("id"), pool);
      for (long id = 0; id < 1000; id++) {
        s.put(Row.of(id, id % 100, id, "c" + id));
      }
      s.index(List.of("issue"), NEWEST);
      Rivulet db = Rivulet.create();
      LazyCollection comments = db.lazyCollection("comments", COMMENTS, List.of("id"), s);
      synchronized (db) { // by hand: a live query reading the collection would demand all of it
        db.demand().register("last3", comments, List.of("issue"), NEWEST, 3);
        for (long issue : new long[] {5, 17, 42}) {
          db.demand().change("last3", Row.of(issue), 1);
        }
        db.demand().flush();
      }
      db.runDemand();
      comments.ready().get(10, TimeUnit.SECONDS);
      TreeSet<Long> ids = new TreeSet<>();
      comments.rows().forEach(r -> ids.add(((Number) r.get(0)).longValue()));
      assertThat(ids).containsExactly(705L, 717L, 742L, 805L, 817L, 842L, 905L, 917L, 942L);
      assertThat(s.rowsScanned()).isEqualTo(9);
      assertThat(s.requestsServed()).as("one flush, one request").isEqualTo(1);
    } finally {
      pool.shutdownNow();
    }
  }
}
