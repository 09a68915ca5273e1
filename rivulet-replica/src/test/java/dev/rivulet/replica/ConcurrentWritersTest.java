package dev.rivulet.replica;

import static dev.rivulet.query.Exprs.col;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.query.Change;
import dev.rivulet.query.ChangeBatch;
import dev.rivulet.query.LiveQuery;
import dev.rivulet.query.Query;
import dev.rivulet.query.SubscribeOptions;
import dev.rivulet.testkit.Seeds;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Two writer threads (single statements and transactions, some rolled back) and a reader thread
 * (live query snapshots and a separate connection) on one replica, for a few seconds per backend.
 * Every event row takes the next number of a counter the database computes ({@code seq = max + 1}),
 * so the order of commits is visible in the rows: the publications must carry the numbers in
 * order, each once, each transaction whole and alone, and never a rolled-back one.
 */
class ConcurrentWritersTest {
  @TempDir
  Path dir;

  private static final long MILLIS = 2000;
  private static final String INSERT = "INSERT INTO events VALUES ((SELECT COALESCE(MAX(seq), 0) + 1 FROM events),"
      + " ?, ?, ?, ?)";
  private static final String ALL = "SELECT * FROM events ORDER BY seq";

  /** What the subscriber checks on every publication, on the writing thread. */
  private static final class Checker {
    long lastSeq;
    final List<String> problems = Collections.synchronizedList(new ArrayList<>());
    final Set<Long> seenTx = new HashSet<>();

    void published(ChangeBatch.Changed batch) {
      List<Row> rows = new ArrayList<>();
      for (Change c : batch.changes()) {
        if (!(c instanceof Change.Add ins)) {
          problems.add("tx " + batch.txId() + ": an event row changed or went: " + c);
          continue;
        }
        rows.add(ins.row());
      }
      rows.sort((a, b) -> Long.compare(((Number) a.get(0)).longValue(), ((Number) b.get(0)).longValue()));
      long tx = ((Number) rows.get(0).get(2)).longValue();
      int size = ((Number) rows.get(0).get(3)).intValue();
      if (rows.size() != size || !seenTx.add(tx)) {
        problems.add("tx " + tx + " published " + rows.size() + " of its " + size + " rows, or twice: " + rows);
      }
      for (Row r : rows) {
        long seq = ((Number) r.get(0)).longValue();
        if (seq != ++lastSeq || ((Number) r.get(2)).longValue() != tx) {
          problems.add("publication out of commit order or interleaved at seq " + seq + ": " + rows);
          lastSeq = seq;
        }
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Backends.class)
  void twoWritersAndAReaderSeeCommitsWholeOnceAndInOrder(Backends b) throws Exception {
    long seed = Seeds.runs(1).get(0);
    String at = b + " seed " + seed + " (" + Seeds.replayHint(seed) + ")";
    String url = b.url(dir, "concurrent");
    b.run(url, "CREATE TABLE events (seq INTEGER PRIMARY KEY, writer INTEGER NOT NULL, tx INTEGER NOT NULL,"
        + " size INTEGER NOT NULL, pos INTEGER NOT NULL);"
        + "CREATE TABLE counters (writer INTEGER PRIMARY KEY, n INTEGER NOT NULL);"
        + "INSERT INTO counters VALUES (1, 0), (2, 0)");
    try (SqliteReplica r = b.open(url); Connection sampler = b.connect(url); Connection reader = b.connect(url)) {
      LiveQuery events = r.liveQuery("events", Query.from("e", r.table("events")).orderBy(Query.asc(col("e.seq"))));
      LiveQuery counters = r.liveQuery("counters", Query.from("c", r.table("counters"))
          .orderBy(Query.asc(col("c.writer"))));
      Checker checker = new Checker();
      AtomicInteger published = new AtomicInteger();
      events.subscribeChanges(SubscribeOptions.sync(), batch -> {
        if (batch instanceof ChangeBatch.Changed ch) {
          checker.published(ch);
          if (published.incrementAndGet() % 25 == 0) { // a sampled point: the committed state, exactly
            try {
              if (!SqlRows.read(sampler, ALL).equals(events.rows())) {
                checker.problems.add("tx " + ch.txId() + ": the live rows differ from the database's");
              }
            } catch (SQLException e) {
              checker.problems.add(e.toString());
            }
          }
        }
      });
      AtomicLong txIds = new AtomicLong();
      AtomicInteger inside = new AtomicInteger();
      Set<Long> rolledBack = Collections.synchronizedSet(new HashSet<>());
      ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
      AtomicBoolean done = new AtomicBoolean();
      CountDownLatch start = new CountDownLatch(1);
      long deadline = System.nanoTime() + MILLIS * 1_000_000;
      List<Thread> writers = new ArrayList<>();
      for (int w = 1; w <= 2; w++) {
        int writer = w;
        Random rnd = new Random(seed + w);
        writers.add(new Thread(() -> {
          try {
            start.await();
            for (int round = 0; round < 5 || System.nanoTime() < deadline; round++) {
              long tx = txIds.incrementAndGet();
              if (round > 1 && rnd.nextInt(3) == 0) {
                r.execute(INSERT, writer, tx, 1, 0);
                continue;
              }
              int size = 2 + rnd.nextInt(3);
              boolean abort = round == 1 || rnd.nextInt(5) == 0;
              try {
                r.transaction(t -> {
                  if (inside.incrementAndGet() != 1) {
                    errors.add(new AssertionError("two transactions at once"));
                  }
                  try {
                    for (int pos = 0; pos < size; pos++) {
                      t.execute(INSERT, writer, tx, size, pos);
                      Thread.yield(); // let the other threads try to get in
                    }
                    t.execute("UPDATE counters SET n = n + 1 WHERE writer = ?", writer);
                    if (abort) {
                      rolledBack.add(tx);
                      throw new SQLException("rolled back on purpose");
                    }
                  } finally {
                    inside.decrementAndGet();
                  }
                });
              } catch (SQLException expected) {
                // the deliberate rollback
              }
            }
          } catch (Throwable e) {
            errors.add(e);
          }
        }, "writer-" + w));
      }
      Thread readerThread = new Thread(() -> {
        try {
          start.await();
          while (!done.get()) {
            List<Row> live = events.rows();
            List<Row> db = SqlRows.read(reader, ALL);
            for (int i = 0; i < live.size(); i++) {
              if (((Number) live.get(i).get(0)).longValue() != i + 1 || i >= db.size() || !db.get(i).equals(live.get(i))) {
                errors.add(new AssertionError("the live rows are not a committed prefix at " + i + ": " + live.get(i)));
                return;
              }
            }
            Thread.sleep(1);
          }
        } catch (Throwable e) {
          errors.add(e);
        }
      }, "reader");
      writers.forEach(Thread::start);
      readerThread.start();
      start.countDown();
      for (Thread t : writers) {
        t.join();
      }
      done.set(true);
      readerThread.join();
      assertThat(errors).as(at).isEmpty();
      assertThat(checker.problems).as(at).isEmpty();
      List<Row> db = SqlRows.read(reader, ALL);
      assertThat(events.rows()).as(at).isEqualTo(db);
      assertThat(counters.rows()).as(at).isEqualTo(SqlRows.read(reader, "SELECT * FROM counters ORDER BY writer"));
      assertThat(checker.lastSeq).as(at + ": every committed row published once").isEqualTo(db.size());
      assertThat(db).as(at + ": no rolled-back row").noneMatch(row -> rolledBack.contains(((Number) row.get(2)).longValue()));
      assertThat(db).extracting(row -> ((Number) row.get(1)).intValue()).as(at + ": both writers wrote").contains(1, 2);
      assertThat(rolledBack).as(at).isNotEmpty();
    }
  }
}
