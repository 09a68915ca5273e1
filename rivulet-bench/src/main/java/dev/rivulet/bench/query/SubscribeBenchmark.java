package dev.rivulet.bench.query;

import dev.rivulet.bench.peers.PeerData;
import dev.rivulet.bench.query.FaceProbe.Face;
import dev.rivulet.query.LiveQuery;
import dev.rivulet.query.Rivulet;
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
 * JMH: subscribing with the initial state to a live query of {@code rows} rows, then closing: one
 * {@code subscribe(SubscribeOptions.sync().withInitialState(), consumer)} (face {@code keyed}),
 * {@code subscribeChanges(...)} ({@code changes}) or {@code subscribeWindow(...)} ({@code window})
 * and {@code close()}. The query is the issues table ordered by priority desc, id, with no limit
 * ({@link SubscribeWhileWriting#allByPriority}), so every row is in the initial batch (and, for
 * the window, in the window). The consumer counts the batch's items ({@link FaceProbe}); the
 * time is the initial state's capture (under the database's monitor) plus its delivery on this
 * thread. No writes run. Run with {@code -prof gc} for the bytes allocated per subscription.
 * {@code none} subscribes nothing: it times {@code query.entries()}, the same rows copied by a
 * read with their keys, as a floor.
 *
 * <p>The fork bounds the young generation ({@code -Xmn512m}) so that warm-up recycles it: with the
 * 4 GiB heap's default eden, a short run allocates into pages never touched before and, on a VM,
 * times the page faults (about 5x slower here).
 *
 * <p>Short run: {@code -wi 2 -i 3 -f 1}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-Xmn512m", "-XX:+UseParallelGC"})
public class SubscribeBenchmark {
  @Param("100000")
  int rows;

  /** keyed, changes, window, or none (a read of the same rows). */
  @Param({"keyed", "changes", "window", "none"})
  String face;

  private LiveQuery query;
  private Face f;
  private volatile Throwable reported;
  private long expected;
  private long wrong;

  @Setup(Level.Trial)
  public void setup() {
    f = Face.parse(face);
    Tables.Data data = Tables.Data.generate(rows, PeerData.DEFAULT_SEED);
    Rivulet db = Rivulet.create();
    db.onError((c, e) -> reported = e);
    query = SubscribeWhileWriting.open(db, data.issueRows()).query();
    // Items of the initial batch: a row each, and the window's leading RESET.
    expected = query.size() + (f == Face.WINDOW ? 1 : 0);
    if (expected != rows + (f == Face.WINDOW ? 1 : 0)) {
      throw new IllegalStateException("the query has " + query.size() + " rows, not " + rows);
    }
    System.gc();
  }

  @Benchmark
  public long subscribeAndClose() {
    if (f == Face.NONE) {
      return query.entries().size();
    }
    FaceProbe p = FaceProbe.open(f, query, SubscribeOptions.sync().withInitialState(), false);
    p.close();
    if (p.items != expected || p.batches != 1) {
      wrong++;
    }
    return p.items;
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    if (reported != null) {
      throw new IllegalStateException("a subscriber failed", reported);
    }
    if (wrong > 0) {
      throw new IllegalStateException(wrong + " subscriptions did not receive exactly one initial batch of "
          + expected + " items");
    }
  }
}
