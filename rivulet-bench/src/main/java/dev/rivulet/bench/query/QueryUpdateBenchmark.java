package dev.rivulet.bench.query;

import dev.rivulet.bench.peers.PeerData;
import dev.rivulet.bench.query.FaceProbe.Face;
import dev.rivulet.engine.Row;
import dev.rivulet.query.SubscribeOptions;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * JMH: one single-row update through the query layer, a sync batch of one write committed to the
 * collection that a live query of {@code workload} (W1, W2 or W3, as {@link QueryWorkloads} runs
 * them, or W3o, W3 ordered by priority desc, id) reads, after a setup that loads the tables and
 * creates the query, with one synchronous subscriber of output face {@code face} on the query:
 * {@code keyed} ({@code subscribe(SubscribeOptions.sync(), Consumer<KeyedBatch>)}), {@code
 * changes} ({@code subscribeChanges}), {@code window} ({@code subscribeWindow}; ordered queries
 * only: W1, W3o) or {@code none} (no subscriber, the query layer alone). The subscriber runs inside
 * the timed commit and only counts the batch and its items and keeps the batch ({@link
 * FaceProbe}). Run with {@code -prof gc} for bytes allocated per committed update. The writes are
 * precomputed: a cycle of {@code 2^15} updates from the workload's stream, then their undo in
 * reverse order, so the data returns to where it started and the cycle repeats.
 *
 * <p>Short run: {@code -wi 2 -i 3 -f 1 -p workload=W1,W3o -p face=keyed,changes,window}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:+UseParallelGC"})
public class QueryUpdateBenchmark {
  private static final int HALF = 1 << 15;

  @Param("W1")
  String workload;

  @Param("100000")
  int rows;

  /** none, keyed, changes or window. */
  @Param({"keyed", "changes", "window"})
  String face;

  private Tables.Db db;
  private FaceProbe probe;
  private volatile Throwable reported;
  private Row[] writes;
  private int next;

  @Setup(Level.Trial)
  public void setup() {
    QueryWorkload w = Harness.named(workload);
    Face f = Face.parse(face);
    if (f == Face.WINDOW && !w.ordered()) {
      throw new IllegalArgumentException("face=window needs an ordered query: workload W1 or W3o, not " + workload);
    }
    Tables.Data data = Tables.Data.generate(rows, PeerData.DEFAULT_SEED);
    db = Tables.open(w, data);
    db.rivulet().onError((c, e) -> reported = e);
    probe = FaceProbe.open(f, db.query(), SubscribeOptions.sync(), false);
    PeerData.Issue[] cur = data.issues().clone();
    PeerData.Updates stream = PeerData.updates(w.streamName(), w.mixes().get(w.mixes().size() - 1), cur,
        PeerData.DEFAULT_SEED);
    writes = new Row[2 * HALF];
    for (int i = 0; i < HALF; i++) {
      PeerData.Issue after = stream.next();
      writes[2 * HALF - 1 - i] = Tables.row(cur[after.id()]); // the undo, in reverse order
      writes[i] = Tables.row(after);
      stream.applied(after);
    }
    System.gc(); // promote the hydrated state now, so its first copy is not timed
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    probe.close();
    if (reported != null) {
      throw new IllegalStateException("a subscriber failed", reported);
    }
    if (probe.face != Face.NONE && probe.batches == 0) {
      throw new IllegalStateException("the " + face + " subscriber received nothing");
    }
  }

  @Benchmark
  public int update() {
    int i = next;
    next = i + 1 == writes.length ? 0 : i + 1;
    db.write(writes[i]);
    return next;
  }
}
