package dev.rivulet.bench.commit;

import static dev.rivulet.query.Exprs.and;
import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.gte;
import static dev.rivulet.query.Exprs.lit;

import dev.rivulet.engine.Column;
import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.query.LiveQuery;
import dev.rivulet.query.Query;
import dev.rivulet.query.Rivulet;
import dev.rivulet.query.SourceCollection;
import dev.rivulet.query.SyncTransaction;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The cost of a single-write sync commit (issue 10's capture overhead: the replica commits each
 * captured row so): thread CPU microseconds per {@code db.beginSync().write(c, row).commit()} of
 * one UPDATE-shaped row into a collection of {@code rows} rows, with 0, 1 and 10 live W1-shaped
 * queries (open issues with a priority floor, ordered by priority then id, limit 50) over it.
 * Rounds of the three alternate so that they meet the same machine load; one line per figure.
 *
 * <pre>java -cp rivulet-bench.jar dev.rivulet.bench.commit.SyncCommitCost [rows] [writes per round] [rounds] [queries]</pre>
 */
public final class SyncCommitCost {
  private static final int[] ALL = {0, 1, 10};

  private SyncCommitCost() {}

  public static void main(String[] args) {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
    int writes = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 10;
    int[] queries = args.length > 3 ? new int[] {Integer.parseInt(args[3])} : ALL; // one count (to profile it)
    Schema schema = Schema.of(Column.notNull("id", ColumnType.INT), Column.notNull("status", ColumnType.STRING),
        Column.notNull("priority", ColumnType.INT), Column.of("title", ColumnType.STRING));
    Rivulet[] dbs = new Rivulet[queries.length];
    SourceCollection[] cs = new SourceCollection[queries.length];
    Random r = new Random(7);
    for (int k = 0; k < queries.length; k++) {
      dbs[k] = Rivulet.create();
      cs[k] = dbs[k].collection("issues", schema, List.of("id"));
      SyncTransaction load = dbs[k].beginSync();
      Random lr = new Random(1);
      for (long i = 1; i <= rows; i++) {
        load.write(cs[k], row(i, lr));
      }
      load.markReady(cs[k]).commit();
      List<LiveQuery> qs = new ArrayList<>();
      for (int q = 0; q < queries[k]; q++) {
        qs.add(dbs[k].liveQuery("top" + q, top(cs[k], q)));
      }
    }
    long[] cpu = new long[queries.length];
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    for (int round = -2; round < rounds; round++) { // two rounds of warm-up
      for (int k = 0; k < queries.length; k++) {
        long c0 = mx.getCurrentThreadCpuTime();
        for (int i = 0; i < writes; i++) {
          dbs[k].beginSync().write(cs[k], update(rows, r)).commit();
        }
        if (round >= 0) {
          cpu[k] += mx.getCurrentThreadCpuTime() - c0;
        }
      }
    }
    for (int k = 0; k < queries.length; k++) {
      System.out.printf("{\"bench\":\"sync_commit\",\"rows\":%d,\"queries\":%d,\"cpu_us_per_commit\":%.3f}%n", rows,
          queries[k], cpu[k] / 1e3 / ((double) writes * rounds));
    }
  }

  private static Row row(long id, Random r) {
    return Row.of(id, r.nextInt(3) == 0 ? "closed" : "open", (long) r.nextInt(1000), "issue " + id);
  }

  /** An UPDATE of a random row's priority, as the replica captures it (the whole row). */
  private static Row update(int rows, Random r) {
    long id = 1 + r.nextInt(rows);
    return Row.of(id, (id & 3) == 0 ? "closed" : "open", (long) r.nextInt(1000), "issue " + id);
  }

  /** Query q: open issues with priority at least 5 q, by priority then id, the first 50. */
  private static Query top(SourceCollection issues, int q) {
    return Query.from("i", issues)
        .where(and(eq(col("i.status"), lit("open")), gte(col("i.priority"), lit(5L * q))))
        .select(Query.as("id", col("i.id")), Query.as("priority", col("i.priority")))
        .orderBy(Query.desc(col("i.priority")), Query.asc(col("i.id"))).limit(50);
  }
}
