package dev.rivulet.bench.query;

import dev.rivulet.bench.Latencies;
import dev.rivulet.bench.Report;
import dev.rivulet.bench.peers.PeerTasks;
import dev.rivulet.engine.Row;
import dev.rivulet.query.LiveCollection;
import dev.rivulet.query.LiveQuery;
import dev.rivulet.query.Rivulet;
import dev.rivulet.query.SourceCollection;
import java.lang.ref.Reference;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs {@link W5LeftJoinQuery} at one size the way {@code rivulet-bench/peers/run.mjs} runs W5 on
 * a peer: {@code n} tasks and {@code n / 100} members ({@link PeerTasks}); {@code hydrateRuns}
 * fresh builds (each table loaded by one sync batch, then the live query created until ready),
 * then the {@code mixed} stream on the last build, one committed sync batch of one task or
 * member write per update, timed until {@code commit()} returns. A synchronous change-batch
 * subscriber with the initial state is attached as a user would; it counts the changes it
 * receives ({@code change_events}). The first update, the first change after hydration, is
 * printed as {@code update_first_us}. Checked against {@link W5LeftJoinQuery#check} after
 * hydration and after the mix. {@link #cold} and {@link #memory} are the one-build modes.
 */
final class W5Harness {
  static final String MIX = "mixed";

  private W5Harness() {}

  /** One loaded database with the W5 live query and its subscriber. */
  private record Db(SourceCollection tasks, SourceCollection members, LiveQuery query, AtomicLong events,
      LiveCollection.Subscription subscription, long loadNanos, long queryNanos, Cold.Phase load,
      Cold.Phase hydrate) implements Harness.Timed {
    long loadCpuNanos() {
      return load.cpuNanos();
    }

    long queryCpuNanos() {
      return hydrate.cpuNanos();
    }

    /** The row of change {@code c}: made before the timed write, as the peers' drivers make theirs. */
    static Row row(PeerTasks.Change c) {
      return c.isTask() ? W5LeftJoinQuery.row(c.task()) : W5LeftJoinQuery.row(c.member());
    }

    /** Writes {@code row}, the {@link #row} of change {@code c}. */
    void write(PeerTasks.Change c, Row row) {
      (c.isTask() ? tasks : members).syncWrite(row);
    }
  }

  /** The driver's input, made before any timing. */
  private record Data(PeerTasks.Task[] tasks, PeerTasks.Member[] members, Row[] taskRows, Row[] memberRows) {
    static Data generate(int n, long seed) {
      PeerTasks.Task[] tasks = PeerTasks.tasks(n, seed);
      PeerTasks.Member[] members = PeerTasks.members(n, seed);
      Row[] taskRows = new Row[tasks.length];
      for (int i = 0; i < tasks.length; i++) {
        taskRows[i] = W5LeftJoinQuery.row(tasks[i]);
      }
      Row[] memberRows = new Row[members.length];
      for (int i = 0; i < members.length; i++) {
        memberRows[i] = W5LeftJoinQuery.row(members[i]);
      }
      return new Data(tasks, members, taskRows, memberRows);
    }
  }

  static void run(int rows, Config cfg, Report out) {
    String name = W5LeftJoinQuery.NAME;
    Data data = Data.generate(rows, cfg.seed());
    Db db = Harness.builds(out, name, rows, cfg, () -> open(data), b -> {
      b.subscription().close();
      b.query().close();
    }, b -> {
      if (cfg.hydrateRuns() > 1 && cfg.prewarm() > 0) {
        prewarm(b, data, cfg);
      }
    });
    out.count(name, rows, null, "result_rows", db.query().size());

    PeerTasks.Task[] tasks = data.tasks().clone(); // the driver's own copy; rows are replaced
    PeerTasks.Member[] members = data.members().clone();
    String problem = W5LeftJoinQuery.check(db.query().rows(), tasks, members, "after hydration");
    if (problem == null) {
      PeerTasks.Updates stream = PeerTasks.updates(tasks, members, cfg.seed());
      Latencies lat = new Latencies(cfg.updates());
      long events0 = db.events().get();
      System.gc();
      for (int i = 0, n = cfg.warmup() + cfg.updates(); i < n; i++) {
        PeerTasks.Change c = stream.next();
        Row row = Db.row(c);
        long t0 = System.nanoTime();
        db.write(c, row);
        long t1 = System.nanoTime();
        stream.applied(c);
        if (i == 0) {
          out.figure(name, rows, MIX, "update_first_us", (t1 - t0) / 1e3);
        }
        if (i >= cfg.warmup()) {
          lat.record(t1 - t0);
        }
      }
      out.count(name, rows, MIX, "change_events", db.events().get() - events0);
      Harness.report(out, name, rows, MIX, "", lat);
      problem = W5LeftJoinQuery.check(db.query().rows(), tasks, members, "after the " + MIX + " mix");
    }
    db.subscription().close();
    out.correct(name, rows, problem == null, problem);
  }

  /** The cold figures: one build in this (fresh) process, checked. */
  static void cold(int rows, Config cfg, Report out) {
    Data data = Data.generate(rows, cfg.seed());
    var cpu = ProcessCpu.snapshot();
    Db db = open(data);
    ProcessCpu.report(out, W5LeftJoinQuery.NAME, rows, cpu, ProcessCpu.snapshot());
    String problem = W5LeftJoinQuery.check(db.query().rows(), data.tasks(), data.members(), "after hydration");
    Cold.report(out, W5LeftJoinQuery.NAME, rows, db.loadNanos(), db.queryNanos(), problem);
    Cold.cpu(out, W5LeftJoinQuery.NAME, rows, db.loadCpuNanos(), db.queryCpuNanos());
    Cold.phases(out, W5LeftJoinQuery.NAME, rows, db.load(), db.hydrate());
  }

  /** Live heap per retained row (tasks and members) of one build, the driver's records released. */
  static void memory(int rows, Config cfg, Report out) {
    long base = Cold.liveHeap();
    Data data = Data.generate(rows, cfg.seed());
    int retained = data.tasks().length + data.members().length;
    Db db = open(data);
    String problem = W5LeftJoinQuery.check(db.query().rows(), data.tasks(), data.members(), "after hydration");
    db.tasks().compact(); // the steady state: the loads' values pooled, their key tables built
    db.members().compact();
    long withCopy = Cold.liveHeap();
    data = null; // the harness's copy: records and row arrays (the rows themselves the engine keeps)
    long live = Cold.liveHeap();
    Cold.memoryFigures(out, W5LeftJoinQuery.NAME, rows, retained, base, withCopy, live, problem);
    Reference.reachabilityFence(db);
  }

  /** Loads both tables, creates the live query (timed), then attaches the subscriber. */
  private static Db open(Data data) {
    Tables.init();
    Cold.Meter meter = Cold.Meter.start();
    long t0 = System.nanoTime();
    Rivulet db = Rivulet.create();
    SourceCollection tasks = Tables.load(db, "tasks", W5LeftJoinQuery.TASKS, data.taskRows());
    SourceCollection members = Tables.load(db, "members", W5LeftJoinQuery.MEMBERS, data.memberRows());
    long t1 = System.nanoTime();
    Cold.Phase load = meter.lap();
    long t1q = System.nanoTime();
    LiveQuery q = db.liveQuery(W5LeftJoinQuery.NAME, W5LeftJoinQuery.query(tasks, members));
    long t2 = System.nanoTime();
    Cold.Phase hydrate = meter.lap();
    AtomicLong events = new AtomicLong();
    LiveCollection.Subscription sub = Harness.countChanges("W5", q, events);
    return new Db(tasks, members, q, events, sub, t1 - t0, t2 - t1q, load, hydrate);
  }

  /** JIT warm-up on the first (discarded) build: the stream under another seed on a copy of the data. */
  private static void prewarm(Db db, Data data, Config cfg) {
    PeerTasks.Updates s = PeerTasks.updates(data.tasks().clone(), data.members().clone(),
        cfg.seed() + Config.PREWARM_SEED_OFFSET);
    for (int i = 0; i < cfg.prewarm(); i++) {
      PeerTasks.Change c = s.next();
      db.write(c, Db.row(c));
      s.applied(c);
    }
  }
}
