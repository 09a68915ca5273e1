package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.lit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The engine's warm-up ({@link Warmup}): it shares nothing with user databases, runs once per
 * process, ends on its own, and {@code rivulet.warmup=false} means no thread at all (checked in
 * fresh JVMs, since the warm-up starts once per process).
 */
class WarmupTest {
  private static final Schema ITEMS = Schema.parse(
      "id INT NOT NULL, status STRING, priority INT, title STRING, created INT, owner INT");
  private static final Schema OWNERS = Schema.parse("id INT NOT NULL, name STRING, active BOOL");

  @Test
  void userDatabaseBuiltDuringWarmupsSeesOnlyItsOwnRows() throws Exception {
    AtomicInteger rounds = new AtomicInteger();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> warmups = new ArrayList<>();
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    for (int t = 0; t < 2; t++) {
      Thread w = new Thread(() -> {
        try {
          while (rounds.get() < 6 && System.nanoTime() < until) {
            Warmup.run(new Budget(60_000)); // all steps, not yielding to user queries
            rounds.incrementAndGet();
          }
        } catch (Throwable e) {
          failure.set(e);
        }
      });
      w.start();
      warmups.add(w);
    }
    List<Throwable> errors = Collections.synchronizedList(new ArrayList<>());
    List<String> events = Collections.synchronizedList(new ArrayList<>());
    int userRounds = 0;
    while (userRounds < 3 || (rounds.get() < 2 && failure.get() == null && System.nanoTime() < until)) {
      userRounds++;
      Rivulet db = Rivulet.create(); // same collection names and schemas as the warm-up's
      db.onError((c, e) -> errors.add(e));
      SourceCollection items = db.collection("items", ITEMS, List.of("id"));
      SourceCollection owners = db.collection("owners", OWNERS, List.of("id"));
      owners.beginSync().write(Row.of(1, "ann", true)).markReady().commit();
      items.beginSync().write(Row.of(1, "open", 3, "a", 1, 1)).write(Row.of(2, "closed", 4, "b", 2, 1))
          .write(Row.of(3, "open", 1, "c", 3, 9)).markReady().commit();
      LiveQuery open = db.liveQuery("warm-up", Query.from("i", items).where(eq(col("i.status"), lit("open")))
          .orderBy(Query.desc(col("i.priority"))).limit(20));
      LiveQuery joined = db.liveQuery("joined", Query.from("i", items)
          .join(QueryIR.JoinKind.LEFT, "o", owners, Query.on("i.owner", "o.id"))
          .select(Query.as("id", col("i.id")), Query.as("name", col("o.name"))).orderBy(Query.asc(col("i.id"))));
      open.subscribeChanges(SubscribeOptions.sync(), batch -> events.add(batch.changes().toString()));
      items.beginSync().write(Row.of(2, "open", 9, "b", 2, 1)).commit();

      assertThat(db.lastTxId()).isEqualTo(3);
      assertThat(open.rows()).containsExactly(Row.of(2, "open", 9, "b", 2, 1), Row.of(1, "open", 3, "a", 1, 1),
          Row.of(3, "open", 1, "c", 3, 9));
      assertThat(joined.rows()).containsExactly(Row.of(1, "ann"), Row.of(2, "ann"), Row.of(3, null));
      assertThat(items.rows()).hasSize(3);
    }
    for (Thread w : warmups) {
      w.join(TimeUnit.SECONDS.toMillis(120));
    }
    assertThat(failure.get()).isNull();
    assertThat(rounds.get()).as("warm-up rounds run beside the user's databases").isGreaterThanOrEqualTo(2);
    assertThat(errors).isEmpty();
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < userRounds; i++) { // per user database: its own rows, then its own update, only
      expected.add("[Add[row=[1, 'open', 3, 'a', 1, 1]], Add[row=[3, 'open', 1, 'c', 3, 9]]]");
      expected.add("[Add[row=[2, 'open', 9, 'b', 2, 1]]]");
    }
    assertThat(events).containsExactlyElementsOf(expected);
  }

  @Test
  void aFullRoundCompilesAndCreatesEveryShapeThenUpdates() {
    Warmup.Progress full = Warmup.run(() -> false);
    assertThat(full.compiled).isEqualTo(Warmup.SHAPES);
    assertThat(full.hydrated).isEqualTo(Warmup.SHAPES);
    assertThat(full.updates).isEqualTo(20);
  }

  @Test
  void theFirstShapesAreCreatedOneByOneBeforeTheOthersAreCompiled() {
    int first = Warmup.FIRST;
    // One check before each of the first shapes' compilation, one before the load, one before each creation.
    Warmup.Progress p = Warmup.run(allowing(first + 1 + first));
    assertThat(p.compiled).isEqualTo(first);
    assertThat(p.hydrated).isEqualTo(first);
    assertThat(p.updates).isZero();
    Warmup.Progress next = Warmup.run(allowing(first + 1 + first + 1)); // and the next shape's compilation
    assertThat(next.compiled).isEqualTo(first + 1);
    assertThat(next.hydrated).isEqualTo(first);
    Warmup.Progress one = Warmup.run(allowing(3)); // the first shape's compilation, the load, its creation
    assertThat(one.compiled).isEqualTo(1);
    assertThat(one.hydrated).isEqualTo(1);
    Warmup.Progress early = Warmup.run(allowing(1));
    assertThat(early.compiled).isEqualTo(1);
    assertThat(early.hydrated).isZero();
  }

  @Test
  void aStopBeforeTheFirstStepDoesNothing() {
    Warmup.Progress p = Warmup.run(() -> true);
    assertThat(p.compiled + p.hydrated + p.updates).isZero();
  }

  /** A stop signal that lets {@code steps} steps start, then stops. */
  private static java.util.function.BooleanSupplier allowing(int steps) {
    AtomicInteger asked = new AtomicInteger();
    return () -> asked.incrementAndGet() > steps;
  }

  @Test
  void firstQueryPathsNameClassesThatExist() {
    List<String> all = new ArrayList<>(List.of(FirstQueryPaths.BUILD));
    all.addAll(List.of(FirstQueryPaths.LATE));
    assertThat(all).doesNotHaveDuplicates();
    assertThat(FirstQueryPaths.load(FirstQueryPaths.BUILD, null)).as("every name loads").isEqualTo(FirstQueryPaths.BUILD.length);
    assertThat(FirstQueryPaths.load(FirstQueryPaths.LATE, null)).as("every name loads").isEqualTo(FirstQueryPaths.LATE.length);
    assertThat(FirstQueryPaths.load(FirstQueryPaths.LATE, () -> true)).as("stopped before the first").isZero();
    assertThat(FirstQueryPaths.loadBackwards()).isEqualTo(all.size());
  }

  @Test
  void onlyFalseSwitchesItOff() {
    assertThat(Warmup.enabled(null)).isTrue();
    assertThat(Warmup.enabled("true")).isTrue();
    assertThat(Warmup.enabled("")).isTrue();
    assertThat(Warmup.enabled("false")).isFalse();
    assertThat(Warmup.enabled(" FALSE ")).isFalse();
  }

  @Test
  void switchedOffStartsNoThread() throws Exception {
    assertThat(probe("-Drivulet.warmup=false")).isEqualTo("thread=none live=0");
  }

  @Test
  void onByDefaultOneThreadThatEnds() throws Exception {
    assertThat(probe("-XX:ActiveProcessorCount=2")).isEqualTo("thread=rivulet-warmup daemon=true ended=true live=0");
  }

  @Test
  void noThreadOnOneProcessor() throws Exception {
    assertThat(probe("-XX:ActiveProcessorCount=1")).isEqualTo("thread=none live=0");
  }

  /**
   * A load of {@link Warmup#LOAD_AHEAD_ROWS} rows, short enough that the warm-up has not loaded
   * the first query's classes by its end, finds them loaded when its commit returns: the
   * committing thread loads the rest.
   */
  @Test
  void aLargeLoadsCommitReturnsWithTheFirstQuerysClassesLoaded() throws Exception {
    Path log = Files.createTempFile("rivulet-class-load", ".log");
    try {
      assertThat(probe(LoadAheadProbe.class, List.of("-XX:ActiveProcessorCount=2", "-Xlog:class+load=info:file=" + log),
          log.toString()))
          .isEqualTo("missing=");
    } finally {
      Files.deleteIfExists(log);
    }
  }

  /** Runs {@link WarmupProbe} in a fresh JVM and returns its one line of output. */
  private static String probe(String flag) throws IOException, InterruptedException {
    return probe(WarmupProbe.class, flag == null ? List.of() : List.of(flag));
  }

  /** Runs {@code main} in a fresh JVM with {@code flags} and {@code args} and returns its output. */
  private static String probe(Class<?> main, List<String> flags, String... args) throws IOException, InterruptedException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> cmd = new ArrayList<>(List.of(java, "-Xmx256m", "-cp", classPath));
    cmd.addAll(flags);
    cmd.add(main.getName());
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    return out;
  }
}
