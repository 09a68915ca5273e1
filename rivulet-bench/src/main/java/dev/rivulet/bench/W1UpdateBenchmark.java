package dev.rivulet.bench;

import dev.rivulet.engine.Graph;
import dev.rivulet.engine.Input;
import dev.rivulet.engine.Output;
import dev.rivulet.engine.ZSet;
import java.util.SplittableRandom;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * JMH: one single-row update through {@link W1TopOpen}'s graph (update, run, read the delta),
 * after a setup that hydrates it. Run with {@code -prof gc} for bytes allocated per update
 * ({@code gc.alloc.rate.norm}); the updates are precomputed (see {@link UpdateRing}), so every
 * allocated byte is the engine's. {@code -p mix=random,edge} adds the edge-churn mix.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "-Xmx4g")
public class W1UpdateBenchmark {
  @Param("100000")
  int rows;

  @Param("random")
  String mix;

  private Graph graph;
  private Input input;
  private Output output;
  private UpdateRing ring;

  @Setup(Level.Trial)
  public void setup() {
    Issues data = Issues.generate(rows, RunConfig.DEFAULT_SEED);
    W1TopOpen.Hydrated h = W1TopOpen.hydrate(data);
    graph = h.graph();
    input = h.input();
    output = h.output();
    Issues scratch = data.copy();
    ring = UpdateRing.of(scratch, W1TopOpen.mix(mix, scratch, new SplittableRandom(RunConfig.DEFAULT_SEED + 1)), 1 << 16);
    // Promote the hydrated state now, so its first copy is not timed as part of an update.
    System.gc();
  }

  @Benchmark
  public ZSet update() {
    int i = ring.advance();
    input.update(ring.before[i], ring.after[i]);
    graph.run();
    return output.delta();
  }
}
