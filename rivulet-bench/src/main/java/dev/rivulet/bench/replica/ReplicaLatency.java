package dev.rivulet.bench.replica;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.gte;
import static dev.rivulet.query.Exprs.lit;

import dev.rivulet.bench.Report;
import dev.rivulet.query.LiveQuery;
import dev.rivulet.query.Query;
import dev.rivulet.query.SubscribeOptions;
import dev.rivulet.replica.SqliteReplica;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * The replica's speed figures (issue 10): over a 100,000-row SQLite table, writes per second of
 * single-row UPDATE transactions through plain JDBC and through the replica (the capture
 * overhead), the replica's commit-to-callback latency with 1, 10 and 100 live W1-shaped queries
 * (open issues ordered by priority, limit 50, each with its own priority floor), and the baseline
 * of re-running every query with SQL after each commit. One JSON line per figure; each live query
 * is checked against SQLite's own answer at the end ({@code correct}).
 *
 * <p>The capture overhead is measured twice, both sides on identical databases with the same
 * settings (plain JDBC on a copy, so that its writes do not go around the replica), their rounds
 * alternating so that both meet the same machine load: in memory (the
 * figures without a mix, a shared-cache in-memory database), and in a database file in WAL mode
 * with {@code synchronous=NORMAL}, the replica's intended setting for files (mix {@code
 * file_wal_normal}; its mirror is checked against the file at the end, {@code
 * correct_file_wal_normal}). The plain side is sqlite-jdbc as configured by default, which fetches
 * generated keys (a regular expression per statement; the replica turns this off, as it never
 * returns them): {@code plain_jdbc_no_generated_keys_writes_per_s} is the plain side with it off
 * too, and {@code capture_overhead_ratio_vs_no_generated_keys} the ratio against that. The {@code
 * _cpu_ratio} figures divide the writing thread's CPU time instead of wall time: on a shared,
 * loaded machine they show what the ratio is without the waits for a core; the {@code
 * _cpu_us_per_write} figures are each side's thread CPU microseconds per write. The figures
 * suffixed {@code _cold} time the first pass, the process's first writes on each path (the JIT
 * still compiling them, on the same cores); after three untimed passes, the plain names give the
 * steady state a write workload runs in: medians over interleaved rounds (the side that goes
 * first rotates), each ratio the median of the rounds' own ratios, timed after the heap has been
 * cycled ({@link HeapSettle}: in a fresh JVM the first allocation in each page of the heap costs
 * a page fault, which a long-running application no longer pays; {@code heap_settle_collections}
 * says how many collections that took).
 *
 * <p>In memory, the cold pass runs over databases and connections of its own, and the steady state
 * is measured on connections opened after it: HotSpot inflates a connection's lock when compiled
 * driver code holding it is deoptimised, as happens while the JIT settles, and a connection whose
 * lock is inflated pays the runtime's slow locking path on every native call of the driver (see
 * {@link LockState}: +0.35 us per plain write, +0.5 us per captured write) until the lock has been
 * idle for about a minute. Which connection the settling JIT caught decided the ratio (the
 * replica's, opened while the driver's code was first compiled: every run; moving one of its
 * setup queries made the plain side's the one instead, and the ratio fell to 1.28-1.55). The
 * {@code _lock_inflated} figures say, per side, whether its connection's lock was inflated at the
 * end of the steady-state pass (1), not (0) or unknown (-1); the steady state compares like with
 * like only when they agree.
 *
 * <pre>java -cp rivulet-bench.jar dev.rivulet.bench.replica.ReplicaLatency [rows] [updates] [--overhead-only]</pre>
 *
 * {@code --overhead-only} prints the in-memory capture overhead figures only.
 */
public final class ReplicaLatency {
  private static final String W = "replica";
  /** Rounds of the capture overhead: plain JDBC and the replica alternate, so both meet the same load. */
  private static final int ROUNDS = 10;
  /**
   * Untimed passes of {@link #ROUNDS} rounds between the cold and the steady-state pass: on a
   * shared two-core machine the JIT's optimising compiles of the replica's write path landed
   * during the second pass (so some runs timed it half in less optimised code, 3.4 vs 7.4 us per
   * write).
   */
  private static final int WARMUP_PASSES = 3;
  /** Rounds of the steady-state pass, whose median is reported. */
  private static final int WARM_ROUNDS = 15;

  private ReplicaLatency() {}

  public static void main(String[] args) throws SQLException {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
    int updates = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
    boolean overheadOnly = args.length > 2 && args[2].equals("--overhead-only");
    Report out = new Report(System.out, "rivulet");
    coldInMemory(out, rows, updates);
    String url = "jdbc:sqlite:file:replica-latency?mode=memory&cache=shared";
    String plainUrl = "jdbc:sqlite:file:replica-latency-plain?mode=memory&cache=shared";
    try (Connection keep = DriverManager.getConnection(url); Connection plain = DriverManager.getConnection(plainUrl)) {
      load(keep, rows);
      load(plain, rows);
      Random r = new Random(7);
      try (SqliteReplica replica = SqliteReplica.open(url)) {
        steady(out, plainUrl, plain, replica, rows, updates, r, null);
        if (overheadOnly) {
          return;
        }
        double p50With10 = latencies(out, keep, replica, rows, updates, r);
        // Last: its writes go around the replica (plain JDBC), as a user without Rivulet would write.
        double rerun = rerunPerUpdate(keep, rows, Math.min(updates, 2_000), r, 10);
        out.figure(W, rows, "queries_10", "rerun_sql_p50_us", rerun);
        out.figure(W, rows, "queries_10", "rerun_vs_rivulet_p50_ratio", rerun / p50With10);
      }
    }
    fileWal(out, rows, updates);
    if (out.failed()) {
      System.exit(1);
    }
  }

  /**
   * The commit-to-callback latencies with 1, 10 and 100 live queries and the queries' check
   * against SQL; returns the p50 with 10 queries.
   */
  private static double latencies(Report out, Connection keep, SqliteReplica replica, int rows, int updates,
      Random r) throws SQLException {
    boolean ok = true;
    double p50With10 = 0;
    for (int n : new int[] {1, 10, 100}) {
      List<LiveQuery> queries = new ArrayList<>();
      for (int q = 0; q < n; q++) {
        queries.add(replica.liveQuery("top" + n + "_" + q, top(replica, q)));
      }
      long[] lat = new long[updates];
      queries.get(0).subscribe(SubscribeOptions.sync(), b -> { }); // a callback on the writer's thread
      for (int i = 0; i < updates; i++) {
        long t0 = System.nanoTime();
        replica.execute("UPDATE issues SET priority = ? WHERE id = ?", r.nextInt(1000), 1 + r.nextInt(rows));
        lat[i] = System.nanoTime() - t0;
      }
      Arrays.sort(lat);
      out.figure(W, rows, "queries_" + n, "commit_publish_p50_us", lat[lat.length / 2] / 1e3);
      out.figure(W, rows, "queries_" + n, "commit_publish_p99_us", lat[lat.length * 99 / 100] / 1e3);
      for (int q = 0; q < n; q++) {
        ok &= queries.get(q).rows().equals(sql(keep, q));
      }
      if (n == 10) {
        p50With10 = lat[lat.length / 2] / 1e3;
      }
      queries.forEach(LiveQuery::close);
    }
    out.correct(W, rows, ok, ok ? "" : "a live query differs from SQLite's answer");
    return p50With10;
  }

  /**
   * The in-memory cold pass ({@link #cold}) over databases and connections of its own, which are
   * closed before the steady state's are opened (see the class comment).
   */
  private static void coldInMemory(Report out, int rows, int updates) throws SQLException {
    String url = "jdbc:sqlite:file:replica-latency-cold?mode=memory&cache=shared";
    String plainUrl = "jdbc:sqlite:file:replica-latency-cold-plain?mode=memory&cache=shared";
    try (Connection keep = DriverManager.getConnection(url); Connection plain = DriverManager.getConnection(plainUrl)) {
      load(keep, rows);
      load(plain, rows);
      try (SqliteReplica replica = SqliteReplica.open(url)) {
        cold(out, plainUrl, plain, replica, rows, updates, new Random(5), null);
      }
    }
  }

  /**
   * Writes per second of single-row UPDATE transactions, the cold pass: plain JDBC on {@code
   * plain} (default settings), plain JDBC without generated keys on another connection to {@code
   * plainUrl} (the same database: a copy of the replica's, so that these writes do not go around
   * the replica), and through {@code replica}; {@link #ROUNDS} alternating rounds, each side's
   * figure its total updates over its total time.
   */
  private static void cold(Report out, String plainUrl, Connection plain, SqliteReplica replica, int rows,
      int updates, Random r, String mix) throws SQLException {
    int per = Math.max(1, updates / ROUNDS);
    try (Connection bare = DriverManager.getConnection(noKeys(plainUrl))) {
      coldFigures(out, rows, mix, rounds(plain, bare, replica, rows, per, r, ROUNDS), per);
    }
  }

  /**
   * The same writes as {@link #cold}, the steady state: untimed warm-up passes, then the
   * steady-state pass ({@link #WARM_ROUNDS} rounds): each side's figure is the median of its
   * rounds, each ratio the median of the rounds' ratios; then each side's lock state ({@link
   * LockState}).
   */
  private static void steady(Report out, String plainUrl, Connection plain, SqliteReplica replica, int rows,
      int updates, Random r, String mix) throws SQLException {
    int per = Math.max(1, updates / ROUNDS);
    try (Connection bare = DriverManager.getConnection(noKeys(plainUrl))) {
      for (int i = 0; i < WARMUP_PASSES; i++) {
        rounds(plain, bare, replica, rows, per, r, ROUNDS); // untimed: until the JIT has compiled both paths
      }
      out.count(W, rows, mix, "heap_settle_collections", HeapSettle.run());
      warmFigures(out, rows, mix, rounds(plain, bare, replica, rows, per, r, WARM_ROUNDS), per);
      out.count(W, rows, mix, "plain_jdbc_lock_inflated", LockState.inflated(plain));
      out.count(W, rows, mix, "plain_jdbc_no_generated_keys_lock_inflated", LockState.inflated(bare));
      out.count(W, rows, mix, "replica_lock_inflated", LockState.inflated(replica));
    }
  }

  private static String noKeys(String plainUrl) {
    return plainUrl + (plainUrl.contains("?") ? "&" : "?") + "jdbc.get_generated_keys=false";
  }

  /**
   * {@code n} rounds of {@code per} writes on each side (plain, plain without generated keys,
   * replica), the side that goes first rotating from round to round; per round and side its wall
   * and thread CPU nanoseconds and the bytes its thread allocated ({@code [round][side][wall, cpu,
   * bytes]}).
   */
  private static long[][][] rounds(Connection plain, Connection bare, SqliteReplica replica, int rows, int per,
      Random r, int n) throws SQLException {
    long[][][] t = new long[n][3][3];
    for (int round = 0; round < n; round++) {
      for (int k = 0; k < 3; k++) {
        int side = (round + k) % 3;
        switch (side) {
          case 0 -> timed(t[round][0], () -> plainWrites(plain, rows, per, r));
          case 1 -> timed(t[round][1], () -> plainWrites(bare, rows, per, r));
          default -> timed(t[round][2], () -> replicaWrites(replica, rows, per, r));
        }
      }
    }
    return t;
  }

  /** The cold pass's figures (suffixed {@code _cold}): each side's totals over the rounds of {@code t}. */
  private static void coldFigures(Report out, int rows, String mix, long[][][] t, int per) {
    long[][] sum = new long[3][3];
    for (long[][] round : t) {
      for (int side = 0; side < 3; side++) {
        for (int k = 0; k < 3; k++) {
          sum[side][k] += round[side][k];
        }
      }
    }
    double writes = (double) per * t.length;
    figures(out, rows, mix, "_cold", sum, writes, ratios(sum));
  }

  /** The steady-state figures: each side's median round, each ratio the median of the rounds' ratios. */
  private static void warmFigures(Report out, int rows, String mix, long[][][] t, int per) {
    long[][] median = new long[3][3];
    for (int side = 0; side < 3; side++) {
      for (int k = 0; k < 3; k++) {
        long[] v = new long[t.length];
        for (int round = 0; round < t.length; round++) {
          v[round] = t[round][side][k];
        }
        Arrays.sort(v);
        median[side][k] = v[v.length / 2];
      }
    }
    double[][] ratios = new double[4][t.length];
    for (int round = 0; round < t.length; round++) {
      double[] r = ratios(t[round]);
      for (int i = 0; i < 4; i++) {
        ratios[i][round] = r[i];
      }
    }
    double[] medianRatios = new double[4];
    for (int i = 0; i < 4; i++) {
      Arrays.sort(ratios[i]);
      medianRatios[i] = ratios[i][t.length / 2];
    }
    figures(out, rows, mix, "", median, per, medianRatios);
  }

  /** Replica over plain and over plain without generated keys, wall then CPU, of {@code s} ({@code [side][wall, cpu, bytes]}). */
  private static double[] ratios(long[][] s) {
    return new double[] {(double) s[2][0] / s[0][0], (double) s[2][0] / s[1][0],
        (double) s[2][1] / s[0][1], (double) s[2][1] / s[1][1]};
  }

  /**
   * The overhead figures, each metric name suffixed with {@code suffix}: {@code t} per side
   * (plain, plain without generated keys, replica) wall and CPU nanoseconds and allocated bytes
   * for {@code writes} writes; {@code ratios} replica over plain and over plain without generated keys, wall then CPU.
   */
  private static void figures(Report out, int rows, String mix, String suffix, long[][] t, double writes,
      double[] ratios) {
    out.figure(W, rows, mix, "plain_jdbc_writes_per_s" + suffix, writes * 1e9 / t[0][0]);
    out.figure(W, rows, mix, "plain_jdbc_no_generated_keys_writes_per_s" + suffix, writes * 1e9 / t[1][0]);
    out.figure(W, rows, mix, "replica_writes_per_s" + suffix, writes * 1e9 / t[2][0]);
    out.figure(W, rows, mix, "capture_overhead_ratio" + suffix, ratios[0]);
    out.figure(W, rows, mix, "capture_overhead_ratio_vs_no_generated_keys" + suffix, ratios[1]);
    // the writing thread's CPU time: what the ratio is when the machine is not shared
    out.figure(W, rows, mix, "capture_overhead_cpu_ratio" + suffix, ratios[2]);
    out.figure(W, rows, mix, "capture_overhead_cpu_ratio_vs_no_generated_keys" + suffix, ratios[3]);
    out.figure(W, rows, mix, "plain_jdbc_cpu_us_per_write" + suffix, t[0][1] / writes / 1e3);
    out.figure(W, rows, mix, "plain_jdbc_no_generated_keys_cpu_us_per_write" + suffix, t[1][1] / writes / 1e3);
    out.figure(W, rows, mix, "replica_cpu_us_per_write" + suffix, t[2][1] / writes / 1e3);
    // the writing thread's allocation: unlike time, not inflated by other processes on the machine
    out.figure(W, rows, mix, "plain_jdbc_no_generated_keys_alloc_bytes_per_write" + suffix, t[1][2] / writes);
    out.figure(W, rows, mix, "replica_alloc_bytes_per_write" + suffix, t[2][2] / writes);
  }

  /** Writes that the overhead rounds time. */
  @FunctionalInterface
  private interface Writes {
    void run() throws SQLException;
  }

  /**
   * Runs {@code w}, adding its wall time to {@code acc[0]}, this thread's CPU time to {@code
   * acc[1]} and the bytes it allocated to {@code acc[2]}.
   */
  private static void timed(long[] acc, Writes w) throws SQLException {
    com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long self = Thread.currentThread().getId();
    long a0 = mx.getThreadAllocatedBytes(self);
    long c0 = mx.getCurrentThreadCpuTime();
    long t0 = System.nanoTime();
    w.run();
    acc[0] += System.nanoTime() - t0;
    acc[1] += mx.getCurrentThreadCpuTime() - c0;
    acc[2] += mx.getThreadAllocatedBytes(self) - a0;
  }

  /**
   * The capture overhead in a database file in WAL mode with {@code synchronous=NORMAL} (both
   * sides), and the replica's mirror checked against the file after the writes.
   */
  private static void fileWal(Report out, int rows, int updates) throws SQLException {
    Path dir;
    try {
      dir = Files.createTempDirectory("replica-latency");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    String settings = "?journal_mode=WAL&synchronous=NORMAL";
    String url = "jdbc:sqlite:" + dir.resolve("replica.db") + settings;
    String plainUrl = "jdbc:sqlite:" + dir.resolve("plain.db") + settings;
    String mix = "file_wal_normal";
    try (Connection keep = DriverManager.getConnection(url); Connection plain = DriverManager.getConnection(plainUrl)) {
      load(keep, rows);
      load(plain, rows);
      try (SqliteReplica replica = SqliteReplica.open(url)) {
        Random r = new Random(11);
        cold(out, plainUrl, plain, replica, rows, updates, r, mix);
        steady(out, plainUrl, plain, replica, rows, updates, r, mix);
        List<dev.rivulet.engine.Row> mirror = new ArrayList<>(replica.table("issues").rows());
        mirror.sort(null);
        boolean ok = mirror.equals(all(keep));
        out.correct(W, rows, "correct_" + mix, ok, ok ? "" : "the mirror differs from the table in the file");
      }
    } finally {
      try (var files = Files.list(dir)) {
        for (Path f : (Iterable<Path>) files::iterator) {
          Files.deleteIfExists(f);
        }
        Files.deleteIfExists(dir);
      } catch (IOException e) {
        System.err.println("could not remove " + dir + ": " + e);
      }
    }
  }

  /** Every row of {@code issues}, sorted. */
  private static List<dev.rivulet.engine.Row> all(Connection c) throws SQLException {
    List<dev.rivulet.engine.Row> out = new ArrayList<>();
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT * FROM issues")) {
      while (rs.next()) {
        out.add(dev.rivulet.engine.Row.of(rs.getLong(1), rs.getString(2), rs.getLong(3), rs.getString(4)));
      }
    }
    out.sort(null);
    return out;
  }

  private static void load(Connection c, int rows) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.execute("CREATE TABLE issues (id INTEGER PRIMARY KEY, status TEXT NOT NULL, priority INTEGER NOT NULL,"
          + " title TEXT)");
    }
    c.setAutoCommit(false);
    Random r = new Random(1);
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO issues VALUES (?, ?, ?, ?)")) {
      for (int i = 1; i <= rows; i++) {
        ps.setInt(1, i);
        ps.setString(2, r.nextInt(3) == 0 ? "closed" : "open");
        ps.setInt(3, r.nextInt(1000));
        ps.setString(4, "issue " + i);
        ps.addBatch();
      }
      ps.executeBatch();
    }
    c.commit();
    c.setAutoCommit(true);
  }

  /** Query q: open issues with priority at least 5 q, by priority then id, the first 50. */
  private static Query top(SqliteReplica replica, int q) {
    return Query.from("i", replica.table("issues"))
        .where(dev.rivulet.query.Exprs.and(eq(col("i.status"), lit("open")), gte(col("i.priority"), lit(5L * q))))
        .select(Query.as("id", col("i.id")), Query.as("priority", col("i.priority")))
        .orderBy(Query.desc(col("i.priority")), Query.asc(col("i.id"))).limit(50);
  }

  private static List<dev.rivulet.engine.Row> sql(Connection c, int q) throws SQLException {
    List<dev.rivulet.engine.Row> out = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement("SELECT id, priority FROM issues WHERE status = 'open'"
        + " AND priority >= ? ORDER BY priority DESC, id LIMIT 50")) {
      ps.setInt(1, 5 * q);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(dev.rivulet.engine.Row.of(rs.getLong(1), rs.getLong(2)));
        }
      }
    }
    return out;
  }

  /** {@code updates} single-row UPDATE transactions through plain JDBC (one prepared statement). */
  private static void plainWrites(Connection c, int rows, int updates, Random r) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("UPDATE issues SET priority = ? WHERE id = ?")) {
      for (int i = 0; i < updates; i++) {
        ps.setInt(1, r.nextInt(1000));
        ps.setInt(2, 1 + r.nextInt(rows));
        ps.executeUpdate();
      }
    }
  }

  /** {@code updates} single-row UPDATE transactions through the replica. */
  private static void replicaWrites(SqliteReplica replica, int rows, int updates, Random r) throws SQLException {
    for (int i = 0; i < updates; i++) {
      replica.execute("UPDATE issues SET priority = ? WHERE id = ?", r.nextInt(1000), 1 + r.nextInt(rows));
    }
  }

  /** The baseline: per single-row update, re-run every one of {@code n} queries with SQL; median µs. */
  private static double rerunPerUpdate(Connection c, int rows, int updates, Random r, int n) throws SQLException {
    long[] lat = new long[updates];
    try (PreparedStatement ps = c.prepareStatement("UPDATE issues SET priority = ? WHERE id = ?")) {
      for (int i = 0; i < updates; i++) {
        long t0 = System.nanoTime();
        ps.setInt(1, r.nextInt(1000));
        ps.setInt(2, 1 + r.nextInt(rows));
        ps.executeUpdate();
        for (int q = 0; q < n; q++) {
          sql(c, q);
        }
        lat[i] = System.nanoTime() - t0;
      }
    }
    Arrays.sort(lat);
    return lat[lat.length / 2] / 1e3;
  }
}
