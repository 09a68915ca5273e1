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
 * <pre>java -cp rivulet-bench.jar dev.rivulet.bench.replica.ReplicaLatency [rows] [updates]</pre>
 */
public final class ReplicaLatency {
  private static final String W = "replica";

  private ReplicaLatency() {}

  public static void main(String[] args) throws SQLException {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
    int updates = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
    Report out = new Report(System.out, "rivulet");
    String url = "jdbc:sqlite:file:replica-latency?mode=memory&cache=shared";
    try (Connection keep = DriverManager.getConnection(url)) {
      load(keep, rows);
      Random r = new Random(7);
      double plain = plainWrites(keep, rows, updates, r);
      out.figure(W, rows, null, "plain_jdbc_writes_per_s", plain);
      try (SqliteReplica replica = SqliteReplica.open(url)) {
        double captured = replicaWrites(replica, rows, updates, r);
        out.figure(W, rows, null, "replica_writes_per_s", captured);
        out.figure(W, rows, null, "capture_overhead_ratio", plain / captured);
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
        // Last: its writes go around the replica (plain JDBC), as a user without Rivulet would write.
        double rerun = rerunPerUpdate(keep, rows, Math.min(updates, 2_000), r, 10);
        out.figure(W, rows, "queries_10", "rerun_sql_p50_us", rerun);
        out.figure(W, rows, "queries_10", "rerun_vs_rivulet_p50_ratio", rerun / p50With10);
      }
    }
    if (out.failed()) {
      System.exit(1);
    }
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

  private static double plainWrites(Connection c, int rows, int updates, Random r) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("UPDATE issues SET priority = ? WHERE id = ?")) {
      long t0 = System.nanoTime();
      for (int i = 0; i < updates; i++) {
        ps.setInt(1, r.nextInt(1000));
        ps.setInt(2, 1 + r.nextInt(rows));
        ps.executeUpdate();
      }
      return updates / ((System.nanoTime() - t0) / 1e9);
    }
  }

  private static double replicaWrites(SqliteReplica replica, int rows, int updates, Random r) throws SQLException {
    long t0 = System.nanoTime();
    for (int i = 0; i < updates; i++) {
      replica.execute("UPDATE issues SET priority = ? WHERE id = ?", r.nextInt(1000), 1 + r.nextInt(rows));
    }
    return updates / ((System.nanoTime() - t0) / 1e9);
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
