package dev.rivulet.bench.query;

import static dev.rivulet.query.Exprs.col;

import dev.rivulet.bench.Args;
import dev.rivulet.bench.Latencies;
import dev.rivulet.bench.Report;
import dev.rivulet.bench.peers.PeerData;
import dev.rivulet.bench.query.FaceProbe.Face;
import dev.rivulet.engine.Row;
import dev.rivulet.query.KeyedRow;
import dev.rivulet.query.LiveQuery;
import dev.rivulet.query.Query;
import dev.rivulet.query.Rivulet;
import dev.rivulet.query.Source;
import dev.rivulet.query.SourceCollection;
import dev.rivulet.query.SubscribeOptions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * A writer's commit latency while another thread subscribes with a large initial state and a slow
 * initial callback. One database: the issues table ({@code --rows}) and a live query of all of it
 * ordered by priority desc, id, no limit ({@link #allByPriority}), so the initial state is every
 * row. A writer thread commits single-row sync batches back to back (W1's {@code random} updates:
 * a new priority, which moves the row in the ordered result). The main thread, per face in {@code
 * --faces}, subscribes {@code --subscriptions} times with {@code
 * SubscribeOptions.sync().withInitialState()}, its callback sleeping {@code --sleep-ms} on the
 * initial batch; then it leaves the subscription open {@code --settle-ms} (later batches are
 * delivered on the writer's thread), checks it, closes it and waits {@code --gap-ms}.
 *
 * <p>The writer's commits are classified by when they start: {@code subscribing} from the
 * subscribe call to its return, split into {@code capture} (from the call to the initial
 * callback's start: the subscriber waits for the monitor, then the initial state is captured
 * under it, which a commit waits for) and {@code callback} (the slow callback on the subscriber's
 * thread, then the batches queued meanwhile, delivered on that thread); {@code subscribed} while
 * the subscription stays open afterwards (its batches delivered inside the writer's commits;
 * commits that overlap the check are left out); {@code none} in the gaps with no subscriber; and
 * {@code baseline}, a stretch before the measured subscriptions. The writer should not wait for
 * the slow callback (sync deliveries queue behind a subscriber still receiving its initial
 * state): {@code writer_callback_max_vs_sleep_ms} compares the longest commit during the callback
 * with its sleep (it includes any GC pause: {@code gc_during_subscribing_ms}), and {@code
 * writer_commits_during_callback_min} counts the commits completed within each callback's sleep
 * (more than zero: the writer went on while the callback slept). {@code subscribe_snapshot_ms} is the call-to-callback time. The loop is closed
 * (back to back), so a commit stuck behind the capture is one sample: read the max as well as
 * p99.
 *
 * <p>The JVM's young generation should be bounded ({@code -Xmn512m}): with a 4 GiB heap's default
 * eden, a short run keeps allocating into pages never touched before, and on a VM the page faults
 * make a 100,000-row capture several times slower than in a warmed process.
 *
 * <p>Subscriptions use the default capacity ({@code --capacity}, 4096 waiting deliveries): a sync
 * subscriber still in its initial callback lets the writer's batches queue, and past the capacity
 * a keyed or change-batch subscription ends with {@code OVERFLOW} (a window one gets a reset of
 * the window, captured under the monitor when its delivery comes); {@code overflows} counts the
 * overflows reported to the error handler. An ended subscription's batches must still fold; the
 * comparison with the current rows is skipped for it.
 *
 * <p>Checks: each subscription's batches folded (keyed map, change multiset, window list) equal
 * the query's rows at one transaction, read under the monitor ({@code face_correct}); no subscriber
 * failure is reported; at the end the query's rows equal the naive sort of the written data
 * ({@code correct}). Exit status 1 when a check failed, 2 on bad arguments.
 *
 * <pre>
 * java -Xms4g -Xmx4g -Xmn512m -XX:+UseParallelGC -cp rivulet-bench.jar dev.rivulet.bench.query.SubscribeWhileWriting
 *     [--rows 100000] [--faces keyed,changes,window] [--subscriptions 10] [--warmup-subscriptions 3]
 *     [--sleep-ms 50] [--settle-ms 20] [--gap-ms 30] [--baseline-ms 1000] [--warmup-ms 2000]
 *     [--capacity 4096] [--seed N]
 * </pre>
 */
public final class SubscribeWhileWriting {
  static final String NAME = "subscribe_while_writing";
  private static final int HALF = 1 << 15;
  private static final int SAMPLES = 1 << 23;

  private SubscribeWhileWriting() {}

  /** The issues collection and a live query of all its rows in a total order. */
  record Db(SourceCollection issues, LiveQuery query) {}

  /** Every issue, ordered by priority desc, id asc, no limit. */
  static Query allByPriority(Source issues) {
    return Query.from("i", issues).orderBy(Query.desc(col("i.priority")), Query.asc(col("i.id")));
  }

  /** The naive {@link #allByPriority} of issue rows. */
  static List<Row> naive(Row[] issues) {
    Row[] out = issues.clone();
    Arrays.sort(out, Comparator.comparingInt((Row r) -> -((Number) r.get(2)).intValue())
        .thenComparingInt(r -> ((Number) r.get(0)).intValue()));
    return Arrays.asList(out);
  }

  /** Loads {@code rows} into an issues collection of {@code db} and creates {@link #allByPriority} on it. */
  static Db open(Rivulet db, Row[] rows) {
    SourceCollection issues = db.collection("issues", Tables.ISSUES, Tables.KEY);
    SourceCollection.SyncBatch b = issues.beginSync();
    for (Row r : rows) {
      b.write(r);
    }
    b.markReady().commit();
    return new Db(issues, db.liveQuery("issues_by_priority", allByPriority(issues)));
  }

  /** A cycle of single-row writes: {@code HALF} of W1's random updates, then their undo in reverse. */
  static Row[] writes(Tables.Data data, long seed) {
    PeerData.Issue[] cur = data.issues().clone();
    PeerData.Updates stream = PeerData.updates(W1TopOpenQuery.NAME, "random", cur, seed);
    Row[] writes = new Row[2 * HALF];
    for (int i = 0; i < HALF; i++) {
      PeerData.Issue after = stream.next();
      writes[2 * HALF - 1 - i] = Tables.row(cur[after.id()]);
      writes[i] = Tables.row(after);
      stream.applied(after);
    }
    return writes;
  }

  /** Commits the writes back to back, recording each commit's start and duration. */
  static final class Writer implements Runnable {
    private final SourceCollection issues;
    private final Row[] writes;
    final long[] start = new long[SAMPLES];
    final long[] took = new long[SAMPLES];
    int samples;
    long commits;
    volatile boolean stop;
    volatile Throwable failure;

    Writer(SourceCollection issues, Row[] writes) {
      this.issues = issues;
      this.writes = writes;
    }

    @Override
    public void run() {
      try {
        int i = 0;
        while (!stop) {
          Row r = writes[i];
          i = i + 1 == writes.length ? 0 : i + 1;
          long t0 = System.nanoTime();
          issues.beginSync().write(r).commit();
          long t1 = System.nanoTime();
          if (samples < SAMPLES) {
            start[samples] = t0;
            took[samples] = t1 - t0;
            samples++;
          }
          commits++;
        }
      } catch (Throwable t) {
        failure = t;
      }
    }
  }

  /** One subscription's timeline (nanoTime) and check. */
  record Sub(Face face, boolean measured, long call, long enter, long leave, long returned, long check, long closed,
      long gapEnd, long gcMillis, int overflows, String problem) {}

  /** Overflows reported to the database's error handler so far. */
  private static final java.util.concurrent.atomic.AtomicInteger OVERFLOWS = new java.util.concurrent.atomic.AtomicInteger();

  /** Collections so far (stop-the-world pauses with Parallel or G1), in milliseconds. */
  static long gcMillis() {
    long t = 0;
    for (var b : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
      t += Math.max(0, b.getCollectionTime());
    }
    return t;
  }

  public static void main(String[] args) throws InterruptedException {
    int rows = 100_000;
    int subs = 10;
    int warmSubs = 3;
    int sleepMs = 50;
    int settleMs = 20;
    int gapMs = 30;
    int baselineMs = 1000;
    int warmupMs = 2000;
    int capacity = SubscribeOptions.DEFAULT_CAPACITY;
    long seed = PeerData.DEFAULT_SEED;
    List<Face> faces = List.of(Face.KEYED, Face.CHANGES, Face.WINDOW);
    try {
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        switch (a) {
          case "--rows" -> rows = Args.positive(Args.value(args, ++i, a).replace("_", ""), a);
          case "--faces" -> faces = Face.parseList(Args.value(args, ++i, a));
          case "--subscriptions" -> subs = Args.positive(Args.value(args, ++i, a), a);
          case "--warmup-subscriptions" -> warmSubs = Args.nonNegative(Args.value(args, ++i, a), a);
          case "--sleep-ms" -> sleepMs = Args.nonNegative(Args.value(args, ++i, a), a);
          case "--settle-ms" -> settleMs = Args.nonNegative(Args.value(args, ++i, a), a);
          case "--gap-ms" -> gapMs = Args.nonNegative(Args.value(args, ++i, a), a);
          case "--baseline-ms" -> baselineMs = Args.positive(Args.value(args, ++i, a), a);
          case "--warmup-ms" -> warmupMs = Args.nonNegative(Args.value(args, ++i, a), a);
          case "--capacity" -> capacity = Args.positive(Args.value(args, ++i, a), a);
          case "--seed" -> seed = Long.parseLong(Args.value(args, ++i, a));
          default -> throw new IllegalArgumentException("unknown argument '" + a + "'");
        }
      }
      if (faces.contains(Face.NONE)) {
        throw new IllegalArgumentException("--faces: none subscribes nothing (its figures are the gaps')");
      }
    } catch (IllegalArgumentException e) {
      System.err.println("SubscribeWhileWriting: " + e.getMessage());
      System.exit(2);
    }
    Report out = new Report(System.out, "rivulet");
    System.err.println("SubscribeWhileWriting: " + QueryWorkloads.jvm());
    Tables.Data data = Tables.Data.generate(rows, seed);
    Rivulet rivulet = Rivulet.create();
    List<String> reported = new ArrayList<>(); // failures other than overflows, which are counted per face
    rivulet.onError((c, e) -> {
      if (e instanceof dev.rivulet.query.SubscriptionOverflowException) {
        OVERFLOWS.incrementAndGet();
      } else {
        synchronized (reported) {
          reported.add(c.name() + ": " + e);
        }
      }
    });
    SubscribeOptions options = new SubscribeOptions(true, null, capacity); // sync().withInitialState(), capacity
    Db db = open(rivulet, data.issueRows());
    Row[] writes = writes(data, seed);
    System.gc();

    Writer writer = new Writer(db.issues(), writes);
    Thread wt = new Thread(writer, "writer");
    wt.start();
    Thread.sleep(warmupMs);
    List<Sub> timeline = new ArrayList<>();
    for (Face f : faces) {
      for (int i = 0; i < warmSubs; i++) {
        timeline.add(subscribe(rivulet, db.query(), f, options, false, sleepMs, settleMs, gapMs));
      }
    }
    long base0 = System.nanoTime();
    Thread.sleep(baselineMs);
    long base1 = System.nanoTime();
    for (Face f : faces) {
      for (int i = 0; i < subs; i++) {
        timeline.add(subscribe(rivulet, db.query(), f, options, true, sleepMs, settleMs, gapMs));
      }
    }
    writer.stop = true;
    wt.join();

    int n = rows;
    if (writer.failure != null) {
      writer.failure.printStackTrace();
      out.correct(NAME, n, false, "the writer threw " + writer.failure);
    }
    if (writer.samples == SAMPLES) {
      System.err.println("SubscribeWhileWriting: sample buffer full; later commits are not classified");
    }
    Latencies baseline = new Latencies(Math.max(1, writer.samples));
    add(baseline, writer, base0, base1, Long.MAX_VALUE);
    report(out, n, "baseline", baseline);
    for (Face f : faces) {
      Report r = out.tagged("face", f.id());
      List<Sub> mine = timeline.stream().filter(s -> s.measured() && s.face() == f).toList();
      int cap = Math.max(1, writer.samples);
      Latencies none = new Latencies(cap);
      Latencies subscribing = new Latencies(cap);
      Latencies capture = new Latencies(cap);
      Latencies callback = new Latencies(cap);
      Latencies subscribed = new Latencies(cap);
      double[] snapshot = new double[mine.size()];
      double[] returned = new double[mine.size()];
      long minDuringCallback = Long.MAX_VALUE;
      long gcMs = 0;
      int overflows = 0;
      String problem = null;
      for (int k = 0; k < mine.size(); k++) {
        Sub s = mine.get(k);
        add(subscribing, writer, s.call(), s.returned(), Long.MAX_VALUE);
        add(capture, writer, s.call(), s.enter(), Long.MAX_VALUE);
        add(callback, writer, s.enter(), s.returned(), Long.MAX_VALUE);
        add(subscribed, writer, s.returned(), s.check(), s.check());
        add(none, writer, s.closed(), s.gapEnd(), Long.MAX_VALUE);
        snapshot[k] = (s.enter() - s.call()) / 1e6;
        returned[k] = (s.returned() - s.call()) / 1e6;
        minDuringCallback = Math.min(minDuringCallback, within(writer, s.enter(), s.leave()));
        gcMs += s.gcMillis();
        overflows += s.overflows();
        if (problem == null && s.problem() != null) {
          problem = s.problem();
        }
      }
      report(r, n, "none", none);
      report(r, n, "subscribing", subscribing);
      report(r, n, "capture", capture);
      report(r, n, "callback", callback);
      report(r, n, "subscribed", subscribed);
      Arrays.sort(snapshot);
      r.figure(NAME, n, null, "subscribe_snapshot_ms_p50", Latencies.median(snapshot),
          "subscribe call to the initial callback's start: monitor wait, capture of the initial state under it");
      r.figure(NAME, n, null, "subscribe_snapshot_ms_max", snapshot[snapshot.length - 1]);
      r.figure(NAME, n, null, "subscribe_return_ms_p50", Latencies.median(returned),
          "subscribe call to its return: capture, " + sleepMs + " ms callback, then the batches queued meanwhile");
      r.count(NAME, n, null, "writer_commits_during_callback_min", minDuringCallback);
      r.count(NAME, n, null, "gc_during_subscribing_ms", gcMs);
      r.count(NAME, n, null, "overflows", overflows);
      double cbMs = callback.quantileMicros(1.0) / 1e3;
      double capMs = capture.quantileMicros(1.0) / 1e3;
      r.figure(NAME, n, null, "writer_callback_max_vs_sleep_ms", cbMs,
          String.format(Locale.ROOT, "longest commit during the callback %.3f ms vs its %d ms sleep; at least %d"
              + " commits completed within every callback's sleep: %s; longest commit during the capture %.3f ms;"
              + " %d ms of GC within the subscribe calls", cbMs, sleepMs, minDuringCallback,
              minDuringCallback > 0 ? "the writer did not wait for the callback" : "the writer waited for the callback",
              capMs, gcMs));
      r.correct(NAME, n, "face_correct", problem == null, problem);
    }
    String end = null;
    synchronized (reported) {
      if (!reported.isEmpty()) {
        end = "subscriber failures reported: " + reported;
      }
    }
    if (end == null) {
      Row[] now = data.issueRows().clone();
      for (long j = 0; j < writer.commits; j++) {
        Row w = writes[(int) (j % writes.length)];
        now[((Number) w.get(0)).intValue()] = w;
      }
      end = db.query().size() == n ? null : "the query has " + db.query().size() + " rows, not " + n;
      if (end == null) {
        end = QueryWorkload.firstDifference(db.query().rows(), naive(now), "after " + writer.commits + " commits");
      }
    }
    out.count(NAME, n, null, "writer_commits", writer.commits);
    out.correct(NAME, n, end == null, end);
    System.exit(out.failed() ? 1 : 0);
  }

  /**
   * One subscription of {@code face} with the slow initial callback, left open {@code settleMs},
   * checked, closed, then {@code gapMs} without it.
   */
  private static Sub subscribe(Rivulet db, LiveQuery q, Face face, SubscribeOptions options, boolean measured,
      int sleepMs, int settleMs, int gapMs) throws InterruptedException {
    long[] enterLeave = new long[2];
    boolean[] first = {true};
    long gc0 = gcMillis();
    int overflows0 = OVERFLOWS.get();
    long call = System.nanoTime();
    FaceProbe p = FaceProbe.open(face, q, options, true, batch -> {
      if (first[0]) { // the initial state, on this thread
        first[0] = false;
        enterLeave[0] = System.nanoTime();
        try {
          Thread.sleep(sleepMs);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        enterLeave[1] = System.nanoTime();
      }
    });
    long returned = System.nanoTime();
    long gc = gcMillis() - gc0;
    Thread.sleep(settleMs);
    long check = System.nanoTime();
    List<Object> batches;
    List<Row> rows;
    List<KeyedRow> entries;
    synchronized (db) { // sync deliveries happen under this monitor: batches and rows agree
      batches = p.take();
      rows = q.rows();
      entries = face == Face.KEYED ? q.entries() : null;
    }
    p.fold(batches);
    // A keyed or change-batch subscription that fell more than its capacity behind has ended
    // (OVERFLOW, reported to the error handler): what it received must still fold, but it stops
    // short of the current rows. A window subscription gets a reset instead and must match.
    boolean overflowed = p.endReason() == dev.rivulet.query.LiveCollection.End.OVERFLOW;
    String problem = overflowed ? p.foldProblem() : p.check(rows, entries, face.id() + " subscription");
    if (problem == null && p.ended() && !overflowed) {
      problem = face.id() + " subscription ended (" + p.endReason() + ") before it was closed";
    }
    p.close();
    int overflows = OVERFLOWS.get() - overflows0;
    long closed = System.nanoTime();
    Thread.sleep(gapMs);
    return new Sub(face, measured, call, enterLeave[0], enterLeave[1], returned, check, closed, System.nanoTime(),
        gc, overflows, problem);
  }

  /**
   * Records into {@code lat} the commits that started in [{@code from}, {@code to}) and ended
   * before {@code endBefore} (start times increase, commits do not overlap).
   */
  private static void add(Latencies lat, Writer w, long from, long to, long endBefore) {
    for (int i = lowerBound(w, from); i < w.samples && w.start[i] < to; i++) {
      if (w.start[i] + w.took[i] < endBefore) {
        lat.record(w.took[i]);
      }
    }
  }

  private static int lowerBound(Writer w, long t) {
    int lo = 0;
    int hi = w.samples;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (w.start[mid] < t) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** How many commits started and ended within [{@code from}, {@code to}]. */
  private static long within(Writer w, long from, long to) {
    long c = 0;
    for (int i = lowerBound(w, from); i < w.samples && w.start[i] + w.took[i] <= to; i++) {
      c++;
    }
    return c;
  }

  /** The writer's figures of one phase: commits, p50, p99, max. */
  private static void report(Report r, int rows, String phase, Latencies lat) {
    String m = "writer_" + phase + "_";
    r.count(NAME, rows, null, m + "commits", lat.size());
    r.figure(NAME, rows, null, m + "p50_us", lat.quantileMicros(0.50));
    r.figure(NAME, rows, null, m + "p99_us", lat.quantileMicros(0.99));
    r.figure(NAME, rows, null, m + "max_us", lat.quantileMicros(1.0));
  }
}
