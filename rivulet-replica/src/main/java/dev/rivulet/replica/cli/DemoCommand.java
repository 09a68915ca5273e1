package dev.rivulet.replica.cli;

import dev.rivulet.engine.Row;
import dev.rivulet.query.LiveQuery;
import dev.rivulet.replica.H2Replica;
import dev.rivulet.replica.SqliteReplica;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code rivulet demo}: an issue tracker in an embedded SQLite database, a write generator on
 * this thread, and live queries shown updating in place (JLine) or as periodic plain summaries.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = "Live queries over an embedded issue tracker while a generator writes to it.")
final class DemoCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Option(names = "--db", paramLabel = "PATH", description = "SQLite file to open or create (default: in memory)")
  Path db;

  @Option(names = "--duration", paramLabel = "S", description = "stop after S seconds (default: until Ctrl-C)")
  Double duration;

  @Option(names = "--issues", paramLabel = "N", defaultValue = "300", description = "issues to seed (default: ${DEFAULT-VALUE})")
  int issues;

  @Option(names = "--seed", paramLabel = "N", description = "random seed of the data and the writes")
  Long seed;

  @Option(names = "--rate", paramLabel = "N", defaultValue = "0",
      description = "commits per second, to watch rows change (default: 0, as fast as possible)")
  double rate;

  @Option(names = "--plain", description = "plain periodic output even on a terminal")
  boolean plain;

  @Option(names = "--h2", description = "use an embedded H2 database instead of SQLite")
  boolean h2;

  /** Set by the shutdown hook (another thread) to end the run early. */
  private volatile boolean stopping;

  /** The live queries' rows at the end of the run (read by tests). */
  List<Row> lastTop = List.of();
  List<Row> lastProjects = List.of();

  @Override
  public Integer call() throws SQLException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (duration != null && !(duration > 0)) {
      throw new ParameterException(spec.commandLine(), "--duration must be a positive number of seconds, not " + duration);
    }
    if (!(rate >= 0) || issues < 1) {
      throw new ParameterException(spec.commandLine(), rate >= 0
          ? "--issues must be at least 1, not " + issues : "--rate must be 0 (unlimited) or positive, not " + rate);
    }
    long s = seed != null ? seed : System.nanoTime();
    Random rnd = new Random(s);
    String url = h2 ? (db != null ? "jdbc:h2:" + db.toAbsolutePath() : "jdbc:h2:mem:rivulet-demo-"
            + Long.toUnsignedString(s)) + ";DATABASE_TO_LOWER=TRUE"
        : db != null ? "jdbc:sqlite:" + db + "?journal_mode=WAL&synchronous=NORMAL"
        : "jdbc:sqlite:file:rivulet-demo-" + Long.toUnsignedString(s) + "?mode=memory&cache=shared";
    // The seeding connection stays open: an in-memory shared database lives while one connection does.
    try (Connection keep = DriverManager.getConnection(url)) {
      if (!h2) {
        try (Statement st = keep.createStatement()) {
          st.execute("PRAGMA foreign_keys = ON");
        }
      }
      TrackerDb.createAndSeed(keep, issues, rnd, h2);
      IssueTable seeded = issueTable(keep);
      try (SqliteReplica replica = h2 ? H2Replica.open(url) : SqliteReplica.open(url)) {
        run(replica, new WriteGenerator(replica, rnd, seeded.maxId(), seeded.count()), out, s);
      }
    }
    return 0;
  }

  private void run(SqliteReplica replica, WriteGenerator writes, PrintWriter out, long s) throws SQLException {
    LiveQuery top = replica.liveQuery("top", TrackerQueries.topOpen(replica));
    LiveQuery projects = replica.liveQuery("projects", TrackerQueries.openPerProject(replica));
    TerminalView terminal = plain ? null : TerminalView.open();
    View view = terminal != null ? terminal : new PlainView(out);
    if (terminal == null) {
      out.println("rivulet demo: seed " + s + (db != null ? ", database " + db : ", in-memory database")
          + "; one summary per second");
      out.flush();
    }
    LatencyHistogram interval = new LatencyHistogram();
    LatencyHistogram whole = new LatencyHistogram();
    long start = System.nanoTime();
    long end = duration == null ? Long.MAX_VALUE : start + (long) (duration * 1e9);
    long intervalStart = start;
    long nextFrame = start + view.periodMillis() * 1_000_000;
    Frame frame;
    // SIGTERM, or Ctrl-C without a terminal: stop the loop, let it close the view and print the last frame
    CountDownLatch finished = new CountDownLatch(1);
    Thread hook = new Thread(() -> {
      stopping = true;
      try {
        finished.await(2, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "rivulet-demo-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      while (true) {
        long now = System.nanoTime();
        if (now >= end || stopping || view.stopRequested()) {
          break;
        }
        if (now >= nextFrame) {
          view.show(frame(top, projects, interval, whole, start, intervalStart, now));
          interval.reset();
          intervalStart = now;
          nextFrame = now + view.periodMillis() * 1_000_000;
          continue;
        }
        if (rate > 0) {
          long due = start + (long) (whole.count() * 1e9 / rate);
          if (due > now) {
            LockSupport.parkNanos(Math.min(due, Math.min(nextFrame, end)) - now);
            continue;
          }
        }
        long t0 = System.nanoTime();
        writes.commitOne();
        long took = System.nanoTime() - t0;
        interval.record(took);
        whole.record(took);
      }
      frame = frame(top, projects, interval, whole, start, intervalStart, System.nanoTime());
      view.last(frame);
    } finally {
      view.close();
      if (!stopping) {
        Runtime.getRuntime().removeShutdownHook(hook);
      }
    }
    if (terminal != null) {
      frame.lines().forEach(out::println); // the last screen stays visible after the alternate screen closes
      out.flush();
    }
    lastTop = frame.top();
    lastProjects = frame.projects();
    finished.countDown();
  }

  private static Frame frame(LiveQuery top, LiveQuery projects, LatencyHistogram interval, LatencyHistogram whole,
      long start, long intervalStart, long now) {
    double seconds = Math.max(1e-9, (now - intervalStart) / 1e9);
    Stats stats = new Stats((now - start) / 1e9, whole.count(), interval.count() / seconds,
        interval.percentileMicros(0.5), interval.percentileMicros(0.99),
        whole.percentileMicros(0.5), whole.percentileMicros(0.99));
    return new Frame(top.rows(), projects.rows(), stats);
  }

  /** The greatest issue id (0 when none) and the number of issues. */
  private record IssueTable(long maxId, long count) {}

  private static IssueTable issueTable(Connection c) throws SQLException {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT coalesce(max(id), 0), count(*) FROM issues")) {
      rs.next();
      return new IssueTable(rs.getLong(1), rs.getLong(2));
    }
  }
}
