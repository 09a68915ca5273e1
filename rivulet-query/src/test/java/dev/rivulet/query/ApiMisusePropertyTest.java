package dev.rivulet.query;

import static dev.rivulet.query.Exprs.col;
import static dev.rivulet.query.Exprs.eq;
import static dev.rivulet.query.Exprs.gt;
import static dev.rivulet.query.Exprs.isNotNull;
import static dev.rivulet.query.Exprs.lit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.engine.SchemaException;
import dev.rivulet.testkit.Seeds;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Drives the public API with random sequences of valid and invalid calls over two databases:
 * sync batches and sync transactions, optimistic transactions applied, confirmed and rolled back,
 * live queries over collections and over live queries (one keyed by a column that collides, so
 * it fails and recovers), closing collections and queries, and calls from inside a listener.
 * Values include NULL, NaN, infinities, huge and astral strings. After every call:
 *
 * <ul>
 *   <li>a valid call does what a plain model ({@link ApiModel}) says: each collection's rows and
 *       status, each live query's rows (a filter of its source's), status and number of failures
 *       reported to the error handler, each database's transaction id; a live query's keyed
 *       events fold to its rows;
 *   <li>an invalid call throws the documented type ({@link SchemaException} for a row or key that
 *       does not fit, {@link QueryException} for another database's collection, a key conflict
 *       or a bad query, {@link IllegalStateException} for closed or used-up objects and writes
 *       from a listener) and changes nothing observable.
 * </ul>
 */
class ApiMisusePropertyTest {
  @Test
  void randomValidAndInvalidCallsBehaveAsTheModelSays() {
    int invalid = 0;
    int reentrant = 0;
    int failures = 0;
    int recoveries = 0;
    int closedSources = 0;
    for (long seed : Seeds.runs(12)) {
      Run run = new Run(seed);
      try {
        run.go(160);
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError("seed " + seed + " (replay: RIVULET_SEED=" + seed + " mvn -B -ntp verify -pl"
            + " rivulet-engine,rivulet-testkit,rivulet-query -Dtest=ApiMisusePropertyTest"
            + " -Dsurefire.failIfNoSpecifiedTests=false), at step " + run.step + " " + run.last + ": " + e, e);
      }
      invalid += run.invalid;
      reentrant += run.reentrant;
      for (ApiModel.Db d : run.dbs) {
        for (ApiModel.Live q : d.queries) {
          failures += q.errors;
          recoveries += q.recoveries;
          closedSources += q.dead && q.status == Status.ERROR ? 1 : 0;
        }
      }
    }
    System.out.printf("ApiMisusePropertyTest: %d invalid calls, %d refused in a listener, %d query failures, %d"
        + " recoveries, %d readers of closed sources%n", invalid, reentrant, failures, recoveries, closedSources);
    assertThat(invalid).as("invalid calls checked").isGreaterThan(100 * Seeds.runs(12).size() / 12);
    assertThat(reentrant).as("calls refused inside a listener").isGreaterThan(0);
    assertThat(failures).as("live query failures").isGreaterThan(0);
    assertThat(recoveries).as("recoveries").isGreaterThan(0);
  }

  /** One seeded sequence of calls, checked against the model after each. */
  private static final class Run {
    private final Random r;
    private final List<ApiModel.Db> dbs = new ArrayList<>();
    private final List<SourceCollection.SyncBatch> committed = new ArrayList<>();
    private final List<Transaction> settled = new ArrayList<>();
    private Runnable armed; // what the listener of db0's items tries next
    private final List<String> problems = new ArrayList<>();
    int step;
    String last = "";
    int invalid;
    int reentrant;

    Run(long seed) {
      r = new Random(seed);
      for (int i = 0; i < 2; i++) {
        ApiModel.Db d = new ApiModel.Db(Rivulet.create(), "db" + i);
        d.add("items", ApiModel.ITEMS, List.of("id"));
        if (i == 0) {
          d.add("pairs", ApiModel.PAIRS, List.of("a", "b"));
        }
        dbs.add(d);
        ApiModel.Coll items = d.colls.get(0);
        d.query(ApiModel.Kind.FILTER, items, null, "q0", Query.from("i", items.c).where(gt(col("i.id"), lit(2))));
        ApiModel.Live byName = d.query(ApiModel.Kind.BY_NAME, items, null, "q1", Query.from("i", items.c)
            .select(Query.as("name", col("i.name")), Query.as("id", col("i.id"))));
        reader(d, d.queries.get(0));
        reader(d, byName);
      }
      ApiModel.Db d0 = dbs.get(0);
      d0.colls.get(0).c.subscribe(events -> {
        Runnable a = armed;
        armed = null;
        if (a != null) {
          try {
            a.run();
            problems.add("a call from a listener was accepted");
          } catch (IllegalStateException e) {
            reentrant++;
          } catch (RuntimeException e) {
            problems.add("a call from a listener threw " + e);
          }
        }
      });
    }

    private ApiModel.Live reader(ApiModel.Db d, ApiModel.Live src) {
      return d.query(ApiModel.Kind.READER, null, src, "q" + d.queries.size(),
          Query.from("s", src.q).where(isNotNull(col("s", "name"))));
    }

    void go(int steps) {
      check();
      for (step = 0; step < steps; step++) {
        int p = r.nextInt(100);
        ApiModel.Db d = dbs.get(r.nextInt(4) == 0 ? 1 : 0);
        if (p < 25) {
          syncBatch(d);
        } else if (p < 31) {
          syncTransaction(d);
        } else if (p < 45) {
          transaction(d);
        } else if (p < 55) {
          settle(d);
        } else if (p < 57) {
          close(d);
        } else if (p < 60) {
          createReader(d);
        } else if (p < 65) {
          reentrant();
        } else {
          invalid(d);
        }
        check();
      }
    }

    private ApiModel.Coll openColl(ApiModel.Db d) {
      List<ApiModel.Coll> open = d.colls.stream().filter(c -> !c.closed).toList();
      return open.isEmpty() ? null : open.get(r.nextInt(open.size()));
    }

    private void syncBatch(ApiModel.Db d) {
      ApiModel.Coll c = openColl(d);
      if (c == null) {
        return;
      }
      last = "sync batch of " + d.name + "." + c.name;
      SourceCollection.SyncBatch b = c.c.beginSync();
      List<Row[]> writes = new ArrayList<>();
      for (int i = 1 + r.nextInt(3); i > 0; i--) {
        Row row = ApiModel.row(r, c);
        if (r.nextInt(4) == 0) {
          b.delete(c.keyOf(row));
          writes.add(new Row[] {c.keyOf(row), null});
        } else {
          b.write(row);
          writes.add(new Row[] {c.keyOf(row), row});
        }
      }
      boolean ready = r.nextBoolean();
      if (ready) {
        b.markReady();
      }
      b.commit();
      committed.add(b);
      d.synced(c, writes, ready);
    }

    private void syncTransaction(ApiModel.Db d) {
      last = "sync transaction of " + d.name;
      SyncTransaction t = d.db.beginSync();
      Map<ApiModel.Coll, List<Row[]>> all = new LinkedHashMap<>();
      for (int i = 1 + r.nextInt(4); i > 0; i--) {
        ApiModel.Coll c = openColl(d);
        if (c == null) {
          return;
        }
        Row row = ApiModel.row(r, c);
        t.write(c.c, row);
        all.computeIfAbsent(c, k -> new ArrayList<>()).add(new Row[] {c.keyOf(row), row});
      }
      t.commit();
      d.txId++; // one transaction for all
      all.forEach((c, w) -> d.applySync(c, w, false));
      d.evaluate();
    }

    private void transaction(ApiModel.Db d) {
      last = "transaction of " + d.name;
      Transaction tx = d.db.transaction();
      ApiModel.Tx m = new ApiModel.Tx(tx);
      for (int i = 1 + r.nextInt(3); i > 0; i--) {
        ApiModel.Coll c = openColl(d);
        if (c == null) {
          return;
        }
        Row row = ApiModel.row(r, c);
        Row key = c.keyOf(row);
        Map<Row, Row> own = m.writes.computeIfAbsent(c, k -> new LinkedHashMap<>());
        Row current = own.containsKey(key) ? own.get(key) : d.visible(c).get(key);
        if (current == null) {
          tx.insert(c.c, row);
          own.put(key, row);
        } else if (r.nextBoolean()) {
          tx.update(c.c, row);
          own.put(key, row);
        } else {
          tx.delete(c.c, key);
          own.put(key, null);
        }
      }
      tx.apply();
      d.applied(m);
    }

    private void settle(ApiModel.Db d) {
      if (d.pending.isEmpty()) {
        return;
      }
      ApiModel.Tx m = d.pending.get(r.nextInt(d.pending.size()));
      boolean confirm = r.nextBoolean();
      last = (confirm ? "confirm" : "rollback") + " of a transaction of " + d.name;
      if (confirm) {
        m.tx.confirm();
      } else {
        m.tx.rollback();
      }
      settled.add(m.tx);
      d.settled(m, confirm);
    }

    private void close(ApiModel.Db d) {
      if (r.nextBoolean()) {
        ApiModel.Coll c = d.colls.get(r.nextInt(d.colls.size()));
        last = "close " + d.name + "." + c.name;
        c.c.close();
        d.closed(c);
      } else {
        ApiModel.Live q = d.queries.get(r.nextInt(d.queries.size()));
        last = "close " + d.name + "." + q.name;
        q.q.close();
        d.closed(q);
      }
    }

    private void createReader(ApiModel.Db d) {
      ApiModel.Live src = d.queries.get(r.nextInt(d.queries.size()));
      last = "a reader of " + d.name + "." + src.name;
      if (src.status == Status.CLOSED) {
        refused(QueryException.class, () -> d.db.liveQuery("late", Query.from("s", src.q)));
      } else if (d.queries.size() < 9) {
        reader(d, src);
      }
    }

    /** Arms the listener of db0's items with a forbidden call, then commits a change to items. */
    private void reentrant() {
      ApiModel.Db d = dbs.get(0);
      ApiModel.Coll items = d.colls.get(0);
      if (items.closed) {
        return;
      }
      Runnable[] calls = {
          () -> d.db.beginSync().write(items.c, ApiModel.row(r, items)).commit(),
          () -> d.db.transaction().insert(items.c, Row.of(100, "x", null)).apply(),
          () -> d.db.collection("late", ApiModel.ITEMS, List.of("id")),
          () -> d.db.liveQuery("late", Query.from("i", items.c)),
          () -> items.c.beginSync().truncate().commit()};
      armed = calls[r.nextInt(calls.length)];
      Row row = Row.of(200 + step, "fresh", null); // a new key: the listener is called
      last = "a listener's forbidden call while committing " + row;
      items.c.beginSync().write(row).commit();
      assertThat(armed).as("the listener ran").isNull();
      d.synced(items, List.<Row[]>of(new Row[] {items.keyOf(row), row}), false);
    }

    /** One invalid call, chosen at random: it throws the documented type and changes nothing. */
    private void invalid(ApiModel.Db d) {
      ApiModel.Coll c = d.colls.get(r.nextInt(d.colls.size()));
      ApiModel.Coll other = dbs.get(d == dbs.get(0) ? 1 : 0).colls.get(0);
      Class<? extends RuntimeException> bad = c.closed ? IllegalStateException.class : SchemaException.class;
      Class<? extends RuntimeException> conflict = c.closed ? IllegalStateException.class : QueryException.class;
      Row present = d.visible(c).isEmpty() ? null : d.visible(c).keySet().iterator().next();
      Row absent = c.keyOf(ApiModel.row(r, c));
      boolean isAbsent = !d.visible(c).containsKey(absent);
      Row wide = c.pairs ? Row.of(1, "x", 1, 1) : Row.of(1, "a", 1.0, 9);
      switch (r.nextInt(20)) {
        case 0 -> refused(bad, () -> c.c.beginSync().write(c.pairs ? Row.of("1", "x", 1) : Row.of("1", "a", 1.0)));
        case 1 -> refused(bad, () -> c.c.beginSync().write(wide));
        case 2 -> refused(bad, () -> c.c.beginSync().write(null));
        case 3 -> refused(bad, () -> c.c.beginSync().write(c.pairs ? Row.of(1, null, 1) : Row.of(null, "a", 1.0)));
        case 4 -> refused(bad, () -> c.c.beginSync().write(c.pairs ? Row.of(1, "x", Double.NaN)
            : Row.of(Double.NaN, "a", 1.0)));
        case 5 -> refused(bad, () -> c.c.beginSync().delete(c.pairs ? Row.of(1) : Row.of("1")));
        case 6 -> refused(bad, () -> c.c.beginSync().delete(null));
        case 7 -> refused(bad, () -> d.db.transaction().delete(c.c, c.pairs ? Row.of(1, 2) : Row.of(1.5)));
        case 8 -> refused(bad, () -> d.db.transaction().insert(c.c, null));
        case 9 -> refused(QueryException.class, () -> d.db.transaction().insert(other.c, Row.of(1, "a", 1.0)));
        case 10 -> refused(QueryException.class, () -> d.db.beginSync().write(other.c, Row.of(1, "a", 1.0)));
        case 11 -> {
          if (present != null) {
            refused(conflict, () -> d.db.transaction().insert(c.c, d.visible(c).get(present)));
          }
        }
        case 12 -> {
          if (isAbsent) {
            refused(conflict, () -> d.db.transaction().delete(c.c, absent));
          }
        }
        case 13 -> {
          if (!committed.isEmpty()) {
            SourceCollection.SyncBatch b = committed.get(r.nextInt(committed.size()));
            refused(IllegalStateException.class, b::commit);
          }
        }
        case 14 -> {
          if (!settled.isEmpty()) {
            Transaction t = settled.get(r.nextInt(settled.size()));
            refused(IllegalStateException.class, r.nextBoolean() ? t::confirm : t::apply);
          }
        }
        case 15 -> refused(QueryException.class, () -> d.db.liveQuery("bad", Query.from("o", other.c)));
        case 16 -> refused(c.closed ? QueryException.class : IllegalStateException.class, () -> {
          if (c.closed) {
            d.db.liveQuery("late", Query.from("i", c.c));
          } else {
            Transaction t = d.db.transaction();
            t.rollback(); // not applied
          }
        });
        case 17 -> refused(SchemaException.class, () -> Schema.parse(
            List.of("id INT NOTNULL", "id INT NOT NULL extra", "id INTEGR", "id INT,", "id").get(r.nextInt(5))));
        case 18 -> refused(QueryException.class, () -> d.db.liveQuery("bad",
            Query.from("i", d.colls.get(0).c).where(eq(col("i.nope"), lit(1)))));
        default -> {
          ApiModel.Live q = d.queries.get(r.nextInt(d.queries.size()));
          if (q.status == Status.CLOSED) {
            refused(IllegalStateException.class, () -> q.q.subscribe(e -> { }));
          } else {
            refused(QueryException.class, () -> d.db.liveQuery("bad", Query.from("s", q.q), List.of("nope")));
          }
        }
      }
    }

    private void refused(Class<? extends RuntimeException> type, Runnable call) {
      invalid++;
      List<Object> before = observed();
      Supplier<String> what = () -> last;
      last = "invalid call expecting " + type.getSimpleName();
      try {
        call.run();
      } catch (RuntimeException e) {
        assertThat(e).as(what.get()).isInstanceOf(type);
        assertThat(e.getMessage()).as("the message of %s", e).isNotBlank();
        assertThat(observed()).as("%s changed nothing", e.getMessage()).isEqualTo(before);
        return;
      }
      throw new AssertionError(last + ": the call was accepted");
    }

    /** Everything a user can observe: rows, statuses, errors and transaction ids. */
    private List<Object> observed() {
      List<Object> out = new ArrayList<>();
      for (ApiModel.Db d : dbs) {
        out.add(d.db.lastTxId());
        for (ApiModel.Coll c : d.colls) {
          out.add(c.c.status());
          out.add(new HashSet<>(c.c.rows()));
        }
        for (ApiModel.Live q : d.queries) {
          out.add(q.q.status());
          out.add(q.q.error());
          out.add(ApiModel.bag(q.q.rows()));
        }
      }
      return out;
    }

    private void check() {
      for (ApiModel.Db d : dbs) {
        assertThat(d.db.lastTxId()).as(d.name + " txId").isEqualTo(d.txId);
        for (ApiModel.Coll c : d.colls) {
          assertThat(new HashSet<>(c.c.rows())).as(c.name + " rows").isEqualTo(new HashSet<>(d.visible(c).values()));
          assertThat(c.c.status()).as(c.name + " status").isEqualTo(c.closed ? Status.CLOSED : c.status);
        }
        for (ApiModel.Live q : d.queries) {
          String at = d.name + "." + q.name + " (" + q.kind + ")";
          assertThat(ApiModel.bag(q.q.rows())).as(at + " rows").isEqualTo(ApiModel.bag(q.published));
          assertThat(q.q.status()).as(at + " status, error " + q.q.error()).isEqualTo(q.status);
          if (q.status != Status.CLOSED) {
            assertThat(q.q.error() != null).as(at + " has an error").isEqualTo(q.status == Status.ERROR);
          }
          assertThat(d.reports.getOrDefault(q.name, 0)).as(at + " failures reported").isEqualTo(q.errors);
          assertThat(ApiModel.bag(new ArrayList<>(q.folded.values()))).as(at + " folded events")
              .isEqualTo(ApiModel.bag(q.published));
        }
      }
      for (ApiModel.Db d : dbs) {
        assertThat(d.reports.keySet()).as("reported").allMatch(n -> n.startsWith("q"));
      }
      assertThat(problems).isEmpty();
    }
  }
}
