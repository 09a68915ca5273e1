package dev.rivulet.bench.query;

import dev.rivulet.bench.Latencies;
import dev.rivulet.bench.Report;
import dev.rivulet.bench.peers.PeerComments;
import dev.rivulet.bench.peers.PeerData;
import dev.rivulet.bench.peers.W4State;
import dev.rivulet.engine.OperatorStats;
import dev.rivulet.engine.Row;
import dev.rivulet.query.LiveCollection;
import dev.rivulet.query.LiveQuery;
import dev.rivulet.query.MemoryLazySource;
import dev.rivulet.query.Rivulet;
import dev.rivulet.query.SourceCollection;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs {@link W4NestedQuery} at one size the way {@code rivulet-bench/peers/run.mjs} runs W4 on a
 * peer: at {@code n} issues, the {@link PeerData#PROJECTS} projects, {@code n} issues and {@code
 * 10 n} comments ({@link PeerComments}); {@code hydrateRuns} fresh builds (collections loaded by
 * one sync batch each, then the live query created until ready; the first is {@code
 * hydrate_first_ms}, the cold figure), then the mixes {@code a, b, c, c2} on the last build, one
 * committed sync batch of one comment write per update, timed until {@code commit()} returns. A
 * synchronous change-batch subscriber (with the initial state) is attached as a user would; it
 * counts the changes it receives ({@code change_events} per mix). Per mix it also prints the
 * rows the graph's operators examined per update ({@code examined_mean}, {@code examined_max},
 * from {@link LiveQuery#stats()} read outside the timed section), and on standard error the
 * operators that examined anything during the last hydration and per mix {@code b} update. Checked against {@link
 * W4NestedQuery#check} after hydration and after each mix. {@link UpdateDump} ({@code
 * -Drivulet.bench.updateDump=FILE}) writes one line per timed update of each mix.
 */
final class W4Harness {
  /**
   * W4 with its comments in a lazy source ({@code MemoryLazySource}, bulk-loaded, indexed on the
   * issue in the include's order): the live query loads only the newest comments of its visible
   * issues (the include's order and limit go into the requests, short windows are refilled),
   * and comment writes go to the source, which passes on those of loaded windows.
   */
  static final String LAZY_NAME = "W4L";

  private W4Harness() {}

  /** One loaded database with the W4 live query and its subscriber; {@code write} changes a comment. */
  private record Db(java.util.function.Consumer<Row> write, LiveQuery query, AtomicLong events,
      LiveCollection.Subscription subscription, long loadNanos, long queryNanos, Cold.Phase load, Cold.Phase hydrate)
      implements Harness.Timed {

    void write(Row after) {
      write.accept(after);
    }
  }

  /** The driver's input, made before any timing. */
  private record Data(PeerData.Issue[] issues, Row[] issueRows, Row[] projects, PeerData.Project[] projectRecords,
      PeerComments.Comment[] comments, Row[] commentRows) {
    static Data generate(int n, long seed) {
      PeerData.Issue[] issues = PeerData.issues(n, seed);
      PeerComments.Comment[] comments = PeerComments.comments(n, seed);
      Row[] commentRows = new Row[comments.length];
      for (int i = 0; i < comments.length; i++) {
        commentRows[i] = W4NestedQuery.row(comments[i]);
      }
      return new Data(issues, Tables.rows(issues), Tables.projects(seed), PeerData.projects(seed), comments, commentRows);
    }
  }

  static void run(int rows, Config cfg, Report out, boolean lazy) {
    String name = lazy ? LAZY_NAME : W4NestedQuery.NAME;
    Data data = Data.generate(rows, cfg.seed());
    Db db = Harness.builds(out, name, rows, cfg, () -> open(data, lazy), b -> b.subscription().close(), b -> {
      if (cfg.hydrateRuns() > 1 && cfg.prewarm() > 0) {
        prewarm(b, data, cfg);
      }
    });
    out.count(name, rows, null, "result_rows", db.query().size());
    printOperators("W4 hydration (last build): rows examined by operator", db.query().stats(), null, 1);

    W4State cur = new W4State(data.issues(), data.comments()); // the driver's own copy
    String problem = W4NestedQuery.check(db.query().rows(), cur, data.projectRecords(), "after hydration");
    for (String mix : PeerComments.MIXES) {
      if (problem != null) {
        break;
      }
      if (!cfg.runs(mix)) {
        continue;
      }
      mix(name, db, cur, mix, rows, cfg, out);
      problem = W4NestedQuery.check(db.query().rows(), cur, data.projectRecords(), "after the " + mix + " mix");
    }
    db.subscription().close();
    out.correct(name, rows, problem == null, problem);
  }

  /** The cold figures: one build in this (fresh) process, checked. */
  static void cold(int rows, Config cfg, Report out, boolean lazy) {
    Data data = Data.generate(rows, cfg.seed());
    Db db = open(data, lazy);
    String problem = W4NestedQuery.check(db.query().rows(), new W4State(data.issues(), data.comments()),
        data.projectRecords(), "after hydration");
    db.subscription().close();
    String name = lazy ? LAZY_NAME : W4NestedQuery.NAME;
    Cold.report(out, name, rows, db.loadNanos(), db.queryNanos(), problem);
    Cold.cpu(out, name, rows, db.load().cpuNanos(), db.hydrate().cpuNanos());
    Cold.phases(out, name, rows, db.load(), db.hydrate());
  }

  /** One mix: warm-up then timed updates, with the examined counters read around each update. */
  private static void mix(String name, Db db, W4State cur, String mix, int rows, Config cfg, Report out) {
    PeerComments.Updates stream = PeerComments.updates(mix, cur, cfg.seed());
    Latencies lat = new Latencies(cfg.updates());
    long[] examined = new long[cfg.updates()];
    long[] before = perOperator(db.query().stats());
    long events0 = db.events().get();
    long[] allocated = new long[Allocation.UPDATE_COST ? cfg.updates() : 0];
    Latencies cpu = new Latencies(Allocation.UPDATE_COST ? cfg.updates() : 1);
    Latencies cold = new Latencies(Allocation.COLD_EVERY > 0 ? cfg.updates() / Allocation.COLD_EVERY + 1 : 0);
    UpdateDump dump = UpdateDump.on() ? new UpdateDump(cfg.updates(), db.query()) : null;
    boolean costs = Allocation.UPDATE_COST || dump != null;
    System.gc();
    long last = db.query().examined();
    long gcs = 0;
    for (int i = 0, n = cfg.warmup() + cfg.updates(); i < n; i++) {
      PeerComments.Change change = stream.next();
      if (i == cfg.warmup()) {
        gcs = Cold.Meter.gcCount();
      }
      boolean flushed = Allocation.cold(i, cfg.warmup());
      if (flushed) {
        Allocation.evictCaches();
      }
      Row row = W4NestedQuery.row(change.after()); // made before the timed write, as the peers' drivers make theirs
      long f0 = dump != null ? UpdateDump.minorFaults() : 0;
      long a0 = costs ? Allocation.bytes() : 0;
      long c0 = costs ? Allocation.cpuNanos() : 0;
      long t0 = System.nanoTime();
      db.write(row);
      long t1 = System.nanoTime();
      long c1 = costs ? Allocation.cpuNanos() : 0;
      long a1 = costs ? Allocation.bytes() : 0;
      long f1 = dump != null ? UpdateDump.minorFaults() : 0;
      stream.applied(change);
      long now = db.query().examined(); // not stats(): a list per update, its garbage collected in timed updates
      if (i >= cfg.warmup()) {
        (flushed ? cold : lat).record(t1 - t0); // the work counters are the same warm or cold: all kept
        examined[i - cfg.warmup()] = now - last;
        if (Allocation.UPDATE_COST) {
          allocated[i - cfg.warmup()] = a1 - a0;
          cpu.record(c1 - c0);
        }
        if (dump != null) {
          dump.record(i - cfg.warmup(), t1 - t0, c1 - c0, a1 - a0, f1 - f0);
        }
      } else if (dump != null && i == cfg.warmup() - 1) {
        dump.reset(); // the counters from here on
      }
      last = now;
    }
    out.count(name, rows, mix, "young_gcs", Cold.Meter.gcCount() - gcs);
    if (dump != null) {
      dump.write(mix);
    }
    if (Allocation.UPDATE_COST) {
      Allocation.report(out, name, rows, mix, allocated);
      Harness.report(out, name, rows, mix, "cpu_", cpu);
    }
    out.count(name, rows, mix, "change_events", db.events().get() - events0);
    Harness.report(out, name, rows, mix, "", lat);
    if (Allocation.COLD_EVERY > 0) {
      Harness.report(out, name, rows, mix, "cold_", cold);
    }
    long max = 0, total = 0;
    for (long e : examined) {
      max = Math.max(max, e);
      total += e;
    }
    out.figure(name, rows, mix, "examined_mean", (double) total / examined.length);
    out.count(name, rows, mix, "examined_max", max);
    int n = cfg.warmup() + cfg.updates();
    printOperators("W4 mix " + mix + ": rows examined per update by operator (" + n + " updates, warm-up included)",
        db.query().stats(), before, n);
  }

  /** Every operator that examined rows since {@code before} (null: ever), divided by {@code per}, on standard error. */
  private static void printOperators(String title, List<OperatorStats> after, long[] before, int per) {
    System.err.println(title + ":");
    for (int i = 0; i < after.size(); i++) {
      OperatorStats s = after.get(i);
      long d = s.examined() - (before != null && i < before.length ? before[i] : 0);
      if (d != 0) {
        System.err.printf(Locale.ROOT, "  %-28s %-14s %12.3f  (retained %d)%n", s.name(), s.kind(), (double) d / per,
            s.retained());
      }
    }
  }

  private static long[] perOperator(List<OperatorStats> stats) {
    long[] out = new long[stats.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = stats.get(i).examined();
    }
    return out;
  }

  /**
   * Loads the three tables (the comments into a lazy source, indexed on the issue, when {@code
   * lazy}), creates the live query (timed), then attaches the subscriber.
   */
  private static Db open(Data data, boolean lazy) {
    Cold.Meter meter = Cold.Meter.start();
    long t0 = System.nanoTime();
    Rivulet db = Rivulet.create();
    SourceCollection issues = Tables.load(db, "issues", Tables.ISSUES, data.issueRows());
    SourceCollection projects = Tables.load(db, "projects", Tables.PROJECTS, data.projects());
    dev.rivulet.query.Source comments;
    java.util.function.Consumer<Row> write;
    if (lazy) {
      MemoryLazySource source = new MemoryLazySource(W4NestedQuery.COMMENTS, List.of("id"));
      // in the include's order (its order and limit go into the requests), built by one sort per issue
      source.index(List.of("issue_id"), List.of(dev.rivulet.query.SubsetRequest.Order.desc("created").withNullsFirst(),
          dev.rivulet.query.SubsetRequest.Order.desc("id")));
      source.putAll(java.util.Arrays.asList(data.commentRows()));
      comments = db.lazyCollection("comments", W4NestedQuery.COMMENTS, List.of("id"), source);
      write = source::put;
    } else {
      SourceCollection eager = Tables.load(db, "comments", W4NestedQuery.COMMENTS, data.commentRows());
      comments = eager;
      write = eager::syncWrite;
    }
    long t1 = System.nanoTime();
    Cold.Phase load = meter.lap();
    long t1q = System.nanoTime();
    LiveQuery q = db.liveQuery(W4NestedQuery.NAME, W4NestedQuery.query(issues, projects, comments));
    long t2 = System.nanoTime();
    Cold.Phase hydrate = meter.lap();
    AtomicLong events = new AtomicLong();
    LiveCollection.Subscription sub = Harness.countChanges("W4", q, events);
    return new Db(write, q, events, sub, t1 - t0, t2 - t1q, load, hydrate);
  }

  /** JIT warm-up on the first (discarded) build: the mixes under another seed on a copy of the data. */
  private static void prewarm(Db db, Data data, Config cfg) {
    W4State copy = new W4State(data.issues(), data.comments());
    int per = Math.max(1, cfg.prewarm() / PeerComments.MIXES.size());
    for (String mix : PeerComments.MIXES) {
      PeerComments.Updates s = PeerComments.updates(mix, copy, cfg.seed() + Config.PREWARM_SEED_OFFSET);
      for (int i = 0; i < per; i++) {
        PeerComments.Change c = s.next();
        db.write(W4NestedQuery.row(c.after()));
        s.applied(c);
      }
    }
  }
}
