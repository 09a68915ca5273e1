package dev.rivulet.bench.replica;

import dev.rivulet.bench.Report;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Random;
import org.sqlite.Function;
import org.sqlite.SQLiteConnection;
import org.sqlite.core.DB;

/**
 * The floor of capture by TEMP triggers calling a Java function (issue 10), without Rivulet: the
 * writing thread's CPU microseconds per single-row UPDATE of {@link ReplicaLatency}'s 100,000-row
 * table through plain JDBC (no generated keys, as the strict baseline), and the same writes on
 * identical databases whose TEMP update trigger does more and more of what the replica's does:
 * evaluates an SQL expression of the new row ({@code trigger_sql}), calls a Java function that
 * does nothing with no argument ({@code upcall_0_args}) and with the row's four values ({@code
 * upcall_4_args}), reads them as the replica's capture does (a type, then the value; text as
 * bytes: {@code read_4_args}), and decides first, as the replica's trigger does, whether the key
 * was kept ({@code kept_case_read_4_args}). Each figure is the median over interleaved rounds
 * (the side that goes first rotating); {@code _ratio} divides by the plain side's. The replica's
 * own {@code capture_overhead_cpu_ratio_vs_no_generated_keys} cannot go below the last ratio
 * without another way to hand the values over.
 *
 * <pre>java -cp rivulet-bench.jar dev.rivulet.bench.replica.CaptureFloor</pre>
 */
public final class CaptureFloor {
  private static final String W = "replica_capture_floor";
  private static final int ROWS = 100_000;
  private static final int PER_ROUND = 5_000;
  private static final int WARMUP_ROUNDS = 15;
  private static final int ROUNDS = 25;
  private static final String[] NAMES = {"plain", "trigger_sql", "upcall_0_args", "upcall_4_args", "read_4_args",
      "kept_case_read_4_args"};
  private static final String NEW_ROW = "NEW.id, NEW.status, NEW.priority, NEW.title";
  private static final String[] TRIGGERS = {null, "SELECT NEW.id + NEW.priority", "SELECT floor_noop()",
      "SELECT floor_noop(" + NEW_ROW + ")", "SELECT floor_read(" + NEW_ROW + ")",
      "SELECT CASE WHEN OLD.id IS NEW.id COLLATE BINARY THEN floor_read(" + NEW_ROW + ") ELSE floor_noop() END"};

  private CaptureFloor() {}

  /** A function that reads nothing. */
  private static final class Noop extends Function {
    @Override
    protected void xFunc() {}
  }

  /** A function that reads its four arguments as the replica's capture does, counting calls and values. */
  private static final class Read extends Function {
    private final DB db;
    long calls;
    long values;

    Read(DB db) {
      this.db = db;
    }

    @Override
    protected void xFunc() throws SQLException {
      calls++;
      for (int i = 0; i < 4; i++) {
        Object v = switch (db.value_type(this, i)) {
          case 1 -> db.value_long(this, i);
          case 2 -> db.value_double(this, i);
          case 3, 4 -> db.value_blob(this, i);
          default -> null;
        };
        values += v == null ? 0 : 1;
      }
    }
  }

  public static void main(String[] args) throws SQLException {
    Report out = new Report(System.out, "sqlite-jdbc");
    int n = NAMES.length;
    Connection[] conns = new Connection[n];
    PreparedStatement[] updates = new PreparedStatement[n];
    Read[] reads = new Read[n];
    try {
      for (int s = 0; s < n; s++) {
        conns[s] = DriverManager.getConnection("jdbc:sqlite:file:capture-floor-" + s
            + "?mode=memory&cache=shared&jdbc.get_generated_keys=false");
        reads[s] = setUp(conns[s], TRIGGERS[s]);
        updates[s] = conns[s].prepareStatement("UPDATE issues SET priority = ? WHERE id = ?");
      }
      long[][] cpu = new long[n][ROUNDS];
      ThreadMXBean mx = ManagementFactory.getThreadMXBean();
      Random r = new Random(7);
      for (int round = -WARMUP_ROUNDS; round < ROUNDS; round++) {
        for (int k = 0; k < n; k++) {
          int s = Math.floorMod(round + k, n);
          long c0 = mx.getCurrentThreadCpuTime();
          for (int i = 0; i < PER_ROUND; i++) {
            updates[s].setInt(1, r.nextInt(1000));
            updates[s].setInt(2, 1 + r.nextInt(ROWS));
            updates[s].executeUpdate();
          }
          if (round >= 0) {
            cpu[s][round] = mx.getCurrentThreadCpuTime() - c0;
          }
        }
      }
      double plain = median(cpu[0]);
      for (int s = 0; s < n; s++) {
        double us = median(cpu[s]) / 1e3 / PER_ROUND;
        out.figure(W, ROWS, NAMES[s], "cpu_us_per_write", us);
        out.figure(W, ROWS, NAMES[s], "cpu_ratio", median(cpu[s]) / plain);
      }
      // every write of the reading sides called the function once and read its four values (none NULL)
      long writes = (long) PER_ROUND * (ROUNDS + WARMUP_ROUNDS);
      boolean ok = true;
      for (int s = 4; s < n; s++) {
        ok &= reads[s].calls == writes && reads[s].values == 4 * writes;
      }
      out.correct(W, ROWS, ok, ok ? "" : "a reading trigger missed writes or values");
    } finally {
      for (Connection c : conns) {
        if (c != null) {
          c.close();
        }
      }
    }
    if (out.failed()) {
      System.exit(1);
    }
  }

  /** Creates and fills the table on {@code c}, its functions and, unless null, the update trigger running {@code body}. */
  private static Read setUp(Connection c, String body) throws SQLException {
    Read read = new Read(c.unwrap(SQLiteConnection.class).getDatabase());
    try (Statement st = c.createStatement()) {
      st.execute("CREATE TABLE issues (id INTEGER PRIMARY KEY, status TEXT NOT NULL, priority INTEGER NOT NULL,"
          + " title TEXT)");
      st.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < " + ROWS + ")"
          + " INSERT INTO issues SELECT i, CASE WHEN i % 3 = 0 THEN 'closed' ELSE 'open' END, i % 1000,"
          + " 'issue ' || i FROM n");
      Function.create(c, "floor_noop", new Noop());
      Function.create(c, "floor_read", read);
      if (body != null) {
        st.execute("CREATE TEMP TRIGGER floor_upd AFTER UPDATE ON main.issues BEGIN " + body + "; END");
      }
    }
    return read;
  }

  private static double median(long[] v) {
    long[] s = v.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }
}
