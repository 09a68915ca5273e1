package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.lit;
import static dev.rivulet.query.Query.as;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.testkit.Seeds;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Includes over a lazy child, against the same includes over an eager copy of it: random
 * histories of {@link IncludeWorld} change the parents and the comments (mirrored into a {@link
 * MemoryLazySource} whose loads the test runs late and in random order). Whenever every load has
 * been served, the lazy query's rows (nested values included) equal the eager query's and the
 * naive evaluation, and it is READY; at every transaction, pending demand hides no parent row.
 */
class IncludeLazyOracleTest {
  private static final int SEEDS = 4;
  private static final int STEPS = 25;

  private static Query lastComments(IncludeWorld w, Source comments, String c, String u) {
    return Query.from("r", w.issues).where(Exprs.ne(col("r.status"), lit("closed")))
        .select(as("id", col("r.id")),
            Query.includeArray("last", Query.from(c, comments).where(eq(col(c + ".issue"), col("r.id")))
                .select(as("id", col(c + ".id")), as("body", col(c + ".body")))
                .orderBy(Query.desc(col(c + ".created")), Query.asc(col(c + ".id"))).limit(3)),
            Query.includeOne("first", Query.from(u, comments).where(eq(col(u + ".issue"), col("r.id")))
                .select(as("id", col(u + ".id"))).orderBy(Query.asc(col(u + ".id")))));
  }

  @Test
  void quiescentLazyIncludesEqualTheEagerOnesAndPendingDemandHidesNoParent() {
    int quiescent = 0;
    int pendingChecks = 0;
    long loads = 0;
    for (long seed : Seeds.runs(SEEDS)) {
      IncludeWorld w = new IncludeWorld(seed);
      Random rnd = new Random(seed ^ 0x1A2B);
      w.populate(4, 10, 24, 4);
      List<Runnable> queued = new ArrayList<>();
      MemoryLazySource source = new MemoryLazySource(w.comments.schema(), List.of("id"), queued::add);
      mirror(w, source);
      LazyCollection lazy = w.db.lazyCollection("lazyComments", w.comments.schema(), List.of("id"), source);
      Query lq = lastComments(w, lazy, "c", "d");
      Query eq = lastComments(w, w.comments, "c", "d");
      LiveQuery lazyQ = w.db.liveQuery("lazy", lq);
      LiveQuery eagerQ = w.db.liveQuery("eager", eq);
      for (int step = 0; step <= STEPS; step++) {
        if (step > 0) {
          w.step();
          mirror(w, source);
        }
        loads += serve(queued, rnd, rnd.nextInt(2)); // at most one load, in random order
        pendingChecks += queued.isEmpty() ? 0 : 1;
        String at = "seed " + seed + " (replay: RIVULET_SEED=" + seed + ") after " + w.log;
        assertThat(keys(lazyQ)).as("pending demand hides no parent, %s", at).isEqualTo(keys(eagerQ));
        if (step % 5 == 0 || step == STEPS) {
          loads += serve(queued, rnd, Integer.MAX_VALUE);
          List<List<Object>> eager = sorted(IncludeTrees.of(eagerQ.rows(), eq.raw()));
          assertThat(sorted(IncludeTrees.of(lazyQ.rows(), lq.raw()))).as(at).isEqualTo(eager);
          assertThat(eager).as(at).isEqualTo(sorted(new IncludeNaive(w.contents()).eval(eq.raw())));
          assertThat(lazyQ.status()).as(at).isEqualTo(Status.READY);
          quiescent++;
        }
      }
    }
    assertThat(quiescent).isGreaterThanOrEqualTo(SEEDS * 6);
    // The two includes have one plan shape, so they share their requests (about half the loads).
    assertThat(loads).as("loads served").isGreaterThan(SEEDS * 5L);
    assertThat(pendingChecks).as("checks made while loads were pending").isGreaterThan(SEEDS * 5);
  }

  /** Makes the lazy source hold the comments' visible rows. */
  private static void mirror(IncludeWorld w, MemoryLazySource source) {
    Map<Long, Row> visible = w.visible(IncludeWorld.COMMENT);
    for (long id = 1; id <= 60; id++) {
      Row r = visible.get(id);
      if (r != null) {
        source.put(r.canonical());
      } else {
        source.delete(Row.of(id));
      }
    }
  }

  /** Runs up to {@code n} queued loads (and those they queue) in random order; returns how many. */
  private static int serve(List<Runnable> queued, Random rnd, int n) {
    int k = 0;
    for (; k < n && !queued.isEmpty(); k++) {
      queued.remove(rnd.nextInt(queued.size())).run();
    }
    return k;
  }

  private static List<Object> keys(LiveQuery q) {
    List<Object> out = new ArrayList<>();
    q.rows().forEach(r -> out.add(r.canonical().get(0)));
    out.sort(Comparator.comparing(String::valueOf));
    return out;
  }

  private static List<List<Object>> sorted(List<List<Object>> rows) {
    List<List<Object>> out = new ArrayList<>(rows);
    out.sort(Comparator.comparing(String::valueOf));
    return out;
  }
}
