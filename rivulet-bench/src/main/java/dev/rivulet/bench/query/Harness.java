package dev.rivulet.bench.query;

import dev.rivulet.bench.Report;

import dev.rivulet.bench.Latencies;

import dev.rivulet.bench.peers.PeerData;
import dev.rivulet.engine.Row;
import dev.rivulet.query.LiveCollection;
import dev.rivulet.query.LiveQuery;
import dev.rivulet.query.Status;
import dev.rivulet.query.SubscribeOptions;
import java.util.concurrent.atomic.AtomicLong;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Runs one {@link QueryWorkload} at one size the way {@code rivulet-bench/peers/run.mjs} runs a
 * peer: {@code hydrateRuns} fresh builds (collections loaded by one sync batch each, then the live
 * query created until ready; the last build is kept), then each mix of single-row updates over
 * the driver's own copy of the data, one committed sync batch per update, timed until {@code
 * commit()} returns. The first build's figures (a fresh JVM's, when it is the process's first)
 * are printed apart: {@code hydrate_first_ms} and its split {@code load_first_ms} / {@code
 * query_first_ms}, and the main thread's CPU time in each ({@code load_first_cpu_ms}, {@code
 * query_first_cpu_ms}: on a shared machine, free of the time spent waiting for a core). The
 * first mix's first update, the kept build's first change after hydration (untimed warm-up
 * otherwise), is printed as {@code update_first_us}. The live result is checked against the
 * naive recomputation after hydration and after each mix.
 */
final class Harness {
  private Harness() {}

  static void run(QueryWorkload w, int rows, Config cfg, Report out) {
    String name = w.name();
    Tables.Data data = Tables.Data.generate(rows, cfg.seed());
    Tables.Db db = builds(out, name, rows, cfg, () -> Tables.open(w, data), b -> { }, b -> {
      out.figure(name, rows, null, "load_first_ms", b.loadMs());
      out.figure(name, rows, null, "query_first_ms", b.queryMs());
      out.figure(name, rows, null, "load_first_cpu_ms", b.loadCpuMs());
      out.figure(name, rows, null, "query_first_cpu_ms", b.queryCpuMs());
      if (cfg.hydrateRuns() > 1 && cfg.prewarm() > 0) {
        prewarm(w, b, data, cfg);
      }
    });
    out.count(name, rows, null, "result_rows", db.query().size());

    PeerData.Issue[] cur = data.issues().clone(); // the driver's own copy; rows are replaced
    String problem = w.check(db.query().rows(), cur, data, "after hydration");
    for (String mix : w.mixes()) {
      if (problem != null) {
        break;
      }
      if (!cfg.runs(mix)) {
        continue;
      }
      PeerData.Updates stream = PeerData.updates(w.streamName(), mix, cur, cfg.seed());
      Latencies lat = new Latencies(cfg.updates());
      Latencies cpu = new Latencies(Allocation.UPDATE_COST ? cfg.updates() : 1);
      Latencies cold = new Latencies(Allocation.COLD_EVERY > 0 ? cfg.updates() / Allocation.COLD_EVERY + 1 : 1);
      Latencies coldCpu = new Latencies(
          Allocation.COLD_EVERY > 0 && Allocation.UPDATE_COST ? cfg.updates() / Allocation.COLD_EVERY + 1 : 1);
      long[] allocated = new long[Allocation.UPDATE_COST ? cfg.updates() : 0];
      UpdateDump dump = UpdateDump.on() ? new UpdateDump(cfg.updates(), db.query()) : null;
      System.gc();
      for (int i = 0, n = cfg.warmup() + cfg.updates(); i < n; i++) {
        PeerData.Issue after = stream.next();
        Row row = Tables.row(after);
        boolean flushed = Allocation.cold(i, cfg.warmup());
        if (flushed) {
          Allocation.evictCaches();
        }
        boolean costs = Allocation.UPDATE_COST || dump != null;
        long f0 = dump != null ? UpdateDump.minorFaults() : 0;
        long a0 = costs ? Allocation.bytes() : 0;
        long c0 = costs ? Allocation.cpuNanos() : 0;
        long t0 = System.nanoTime();
        db.write(row);
        long t1 = System.nanoTime();
        long c1 = costs ? Allocation.cpuNanos() : 0;
        long a1 = costs ? Allocation.bytes() : 0;
        long f1 = dump != null ? UpdateDump.minorFaults() : 0;
        stream.applied(after);
        if (i == 0 && mix.equals(w.mixes().get(0))) {
          out.figure(name, rows, mix, "update_first_us", (t1 - t0) / 1e3);
        }
        if (i >= cfg.warmup()) {
          (flushed ? cold : lat).record(t1 - t0);
          if (Allocation.UPDATE_COST) {
            (flushed ? coldCpu : cpu).record(c1 - c0);
            allocated[i - cfg.warmup()] = a1 - a0;
          }
          if (dump != null) {
            dump.record(i - cfg.warmup(), t1 - t0, c1 - c0, a1 - a0, f1 - f0);
          }
        } else if (dump != null && i == cfg.warmup() - 1) {
          dump.reset(); // the counters from here on
        }
      }
      if (dump != null) {
        dump.write(mix);
      }
      report(out, name, rows, mix, "", lat);
      if (Allocation.UPDATE_COST) {
        Allocation.report(out, name, rows, mix, allocated);
        report(out, name, rows, mix, "cpu_", cpu);
      }
      if (Allocation.COLD_EVERY > 0) {
        report(out, name, rows, mix, "cold_", cold);
        if (Allocation.UPDATE_COST) {
          report(out, name, rows, mix, "cold_cpu_", coldCpu);
        }
      }
      problem = w.check(db.query().rows(), cur, data, "after the " + mix + " mix");
    }
    out.correct(name, rows, problem == null, problem);
  }

  /** A build's wall-clock load and query times, and what the query cost its thread ({@link Cold.Phase}). */
  interface Timed {
    long loadNanos();

    long queryNanos();

    Cold.Phase hydrate();
  }

  /**
   * Makes {@code cfg.hydrateRuns()} builds with {@code open}, each after the previous one is
   * released and a GC; prints the first one's total ({@code hydrate_first_ms}) and hands it to
   * {@code first} (its split, the JIT prewarm), then the later ones' medians ({@link #warmFigures}).
   * Returns the last build.
   */
  static <B extends Timed> B builds(Report out, String name, int rows, Config cfg, Supplier<B> open,
      Consumer<B> release, Consumer<B> first) {
    int runs = Math.max(1, cfg.hydrateRuns());
    double[] totals = new double[Math.max(1, runs - 1)];
    double[] loads = new double[totals.length];
    double[] queries = new double[totals.length];
    double[] queryCpus = new double[totals.length];
    B db = null;
    for (int i = 0; i < runs; i++) {
      if (db != null) {
        release.accept(db);
      }
      db = null; // let the previous build go before the next is made
      System.gc();
      db = open.get();
      double total = (db.loadNanos() + db.queryNanos()) / 1e6;
      if (i == 0) {
        out.figure(name, rows, null, "hydrate_first_ms", total);
        first.accept(db);
      }
      int at = Math.max(0, i - 1);
      totals[at] = total;
      loads[at] = db.loadNanos() / 1e6;
      queries[at] = db.queryNanos() / 1e6;
      queryCpus[at] = db.hydrate().cpuNanos() / 1e6;
    }
    warmFigures(out, name, rows, totals, loads, queries, queryCpus);
    return db;
  }

  /**
   * The warm hydration figures, medians over builds 2.. in one process: {@code hydrate_warm_ms}
   * (the live query created until ready), {@code load_until_ready_warm_ms} (rows in until ready),
   * {@code load_ms}; {@code hydrate_warm_cpu_ms}, the query's CPU time on its thread (the wall
   * clock also counts the time the thread waited for a core: the JIT's compiler threads still
   * compile in these builds, and on two cores they take one for milliseconds at a time); and
   * {@code heap_after_hydrate_mb}.
   */
  static void warmFigures(Report out, String name, int rows, double[] totals, double[] loads, double[] queries,
      double[] queryCpus) {
    out.figure(name, rows, null, "hydrate_warm_ms", Latencies.median(queries));
    out.figure(name, rows, null, "hydrate_warm_cpu_ms", Latencies.median(queryCpus));
    out.figure(name, rows, null, "load_until_ready_warm_ms", Latencies.median(totals));
    out.figure(name, rows, null, "load_ms", Latencies.median(loads));
    out.count(name, rows, null, "heap_after_hydrate_mb", Latencies.heapUsedMb());
  }

  /**
   * The cold figures: one build of {@code w} in this (fresh) process, checked; and {@code
   * pooled_after_ready_cold_ms}, how much longer the load's deferred work took: its values pooled
   * and its key table built (a large load leaves both for after the first query, see {@code
   * SourceCollection.compact}).
   */
  static void cold(QueryWorkload w, int rows, Config cfg, Report out) {
    Tables.Data data = Tables.Data.generate(rows, cfg.seed());
    var cpu = ProcessCpu.snapshot();
    Tables.Db db = Tables.open(w, data);
    ProcessCpu.report(out, w.name(), rows, cpu, ProcessCpu.snapshot());
    long t = System.nanoTime();
    db.issues().compact(); // waits for the load's pooling pass, if it is still running
    out.figure(w.name(), rows, null, "pooled_after_ready_cold_ms", (System.nanoTime() - t) / 1e6);
    String problem = w.check(db.query().rows(), data.issues(), data, "after hydration");
    Cold.report(out, w.name(), rows, db.loadNanos(), db.queryNanos(), problem);
    Cold.cpu(out, w.name(), rows, db.loadCpuNanos(), db.queryCpuNanos());
    Cold.phases(out, w.name(), rows, db.load(), db.hydrate());
  }

  /** Live heap per retained row of one build of {@code w}, the driver's records and rows released. */
  static void memory(QueryWorkload w, int rows, Config cfg, Report out) {
    long base = Cold.liveHeap();
    Tables.Data data = Tables.Data.generate(rows, cfg.seed());
    int retained = rows + (w.readsUsers() ? data.users().length : 0) + (w.readsProjects() ? data.projects().length : 0);
    Tables.Db db = Tables.open(w, data);
    String problem = w.check(db.query().rows(), data.issues(), data, "after hydration");
    db.issues().compact(); // the load's pooling pass done: the heap a moment after the load
    long withCopy = Cold.liveHeap();
    data = null; // the harness's copy: records and row arrays (the rows themselves the engine keeps)
    long live = Cold.liveHeap();
    Cold.memoryFigures(out, w.name(), rows, retained, base, withCopy, live, problem);
    java.lang.ref.Reference.reachabilityFence(db);
  }

  /** The update figures of one mix, each metric name prefixed with {@code prefix}. */
  static void report(Report out, String workload, int rows, String mix, String prefix, Latencies lat) {
    out.count(workload, rows, mix, prefix + "updates", lat.size());
    out.figure(workload, rows, mix, prefix + "update_p50_us", lat.quantileMicros(0.50));
    out.figure(workload, rows, mix, prefix + "update_p99_us", lat.quantileMicros(0.99));
    out.figure(workload, rows, mix, prefix + "update_max_us", lat.quantileMicros(1.0));
    out.figure(workload, rows, mix, prefix + "update_mean_us", lat.meanMicros());
  }

  /**
   * JIT warm-up on a build that is then discarded: {@code cfg.prewarm()} updates spread over the
   * workload's mixes, drawn under another seed from a copy of the data.
   */
  static void prewarm(QueryWorkload w, Tables.Db db, Tables.Data data, Config cfg) {
    PeerData.Issue[] copy = data.issues().clone();
    int per = Math.max(1, cfg.prewarm() / w.mixes().size());
    for (String mix : w.mixes()) {
      PeerData.Updates s = PeerData.updates(w.streamName(), mix, copy, cfg.seed() + Config.PREWARM_SEED_OFFSET);
      for (int i = 0; i < per; i++) {
        PeerData.Issue after = s.next();
        db.write(Tables.row(after));
        s.applied(after);
      }
    }
  }


  static List<QueryWorkload> all() {
    return List.of(new W1TopOpenQuery(), new W2AssigneeLoadQuery(), new W3OpenIssuesQuery(), new W6TitleWindowQuery());
  }

  /** One of {@link #all()} or {@link W3OrderedQuery} ("W3o"), by name. */
  static QueryWorkload named(String name) {
    if (name.equals(W3OrderedQuery.NAME)) {
      return new W3OrderedQuery();
    }
    return all().stream().filter(x -> x.name().equals(name)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("unknown workload " + name + " (W1, W2, W3, W3o, W6)"));
  }

  /**
   * Checks that a just-created live query of {@code workload} is READY, then counts its changes
   * (a change-batch subscriber with the initial state) into {@code events}.
   */
  static LiveCollection.Subscription countChanges(String workload, LiveQuery q, AtomicLong events) {
    if (q.status() != Status.READY) {
      throw new IllegalStateException(workload + ": live query is " + q.status() + " after creation, not READY");
    }
    return q.subscribeChanges(SubscribeOptions.sync().withInitialState(),
        batch -> events.addAndGet(batch.changes().size()));
  }
}
