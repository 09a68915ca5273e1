package dev.rivulet.bench.query;

import dev.rivulet.bench.peers.PeerData;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.query.LiveQuery;
import dev.rivulet.query.Rivulet;
import dev.rivulet.query.SourceCollection;
import dev.rivulet.query.Status;
import java.util.List;

/**
 * The peers' tables ({@link PeerData}) as Rivulet collections: schemas, the mapping of the shared
 * generator's records to rows, and one freshly loaded database with one live query (what a
 * rows-in-to-ready measurement builds).
 */
final class Tables {
  static final Schema ISSUES = Schema.parse(
      "id INT NOT NULL, status STRING, priority INT, title STRING, created INT, assignee INT, project_id INT");
  static final Schema USERS = Schema.parse("id INT NOT NULL, name STRING");
  static final Schema PROJECTS = Schema.parse("id INT NOT NULL, name STRING, archived BOOL");
  static final List<String> KEY = List.of("id");
  static final int STATUS = 1;

  private Tables() {}

  /**
   * Makes this class ready (loaded, its schemas parsed) before a timed section that calls {@link
   * #load}: the harness's own set-up, as the peers' adapters make theirs when imported.
   */
  static void init() {}

  static Row row(PeerData.Issue i) {
    return Row.of(i.id(), i.status(), i.priority(), i.title(), i.created(), i.assignee(), i.projectId());
  }

  static Row[] rows(PeerData.Issue[] issues) {
    Row[] out = new Row[issues.length];
    for (int i = 0; i < issues.length; i++) {
      out[i] = row(issues[i]);
    }
    return out;
  }

  static Row[] users() {
    PeerData.User[] us = PeerData.users();
    Row[] out = new Row[us.length];
    for (int i = 0; i < us.length; i++) {
      out[i] = Row.of(us[i].id(), us[i].name());
    }
    return out;
  }

  static Row[] projects(long seed) {
    PeerData.Project[] ps = PeerData.projects(seed);
    Row[] out = new Row[ps.length];
    for (int i = 0; i < ps.length; i++) {
      out[i] = Row.of(ps[i].id(), ps[i].name(), ps[i].archived());
    }
    return out;
  }

  /** The driver's input: the generated records and the same data as rows, made before any timing. */
  record Data(PeerData.Issue[] issues, Row[] issueRows, Row[] users, Row[] projects, long seed) {
    static Data generate(int rows, long seed) {
      PeerData.Issue[] issues = PeerData.issues(rows, seed);
      return new Data(issues, Tables.rows(issues), Tables.users(), Tables.projects(seed), seed);
    }

    int size() {
      return issues.length;
    }
  }

  /**
   * One database: the source collections the workload reads, loaded, and its live query, ready.
   *
   * @param loadNanos creating the collections and committing one sync batch of all rows each
   *     (marked ready)
   * @param queryNanos creating the live query until it returned, hydrated and ready
   * @param load what the load cost: the CPU time of this thread (on a shared machine, less noisy
   *     than the wall clock: time spent waiting for a core is not counted), its allocated bytes,
   *     and the collections that ended meanwhile
   * @param hydrate the same during the query's creation
   */
  record Db(Rivulet rivulet, SourceCollection issues, LiveQuery query, long loadNanos, long queryNanos,
      Cold.Phase load, Cold.Phase hydrate) implements Harness.Timed {
    long loadCpuNanos() {
      return load.cpuNanos();
    }

    long queryCpuNanos() {
      return hydrate.cpuNanos();
    }

    double loadMs() {
      return loadNanos / 1e6;
    }

    double queryMs() {
      return queryNanos / 1e6;
    }

    double loadCpuMs() {
      return loadCpuNanos() / 1e6;
    }

    double queryCpuMs() {
      return queryCpuNanos() / 1e6;
    }

    /** One update: a sync batch with one row write, committed (the live result then reflects it). */
    void write(Row after) {
      issues.syncWrite(after);
    }
  }

  /** Loads the tables {@code w} reads and creates its live query, timing both parts. */
  static Db open(QueryWorkload w, Data data) {
    Cold.Meter meter = Cold.Meter.start();
    long t0 = System.nanoTime();
    Rivulet db = Rivulet.create();
    SourceCollection issues = load(db, "issues", ISSUES, data.issueRows());
    SourceCollection users = w.readsUsers() ? load(db, "users", USERS, data.users()) : null;
    SourceCollection projects = w.readsProjects() ? load(db, "projects", PROJECTS, data.projects()) : null;
    long t1 = System.nanoTime();
    Cold.Phase load = meter.lap();
    long t1q = System.nanoTime();
    LiveQuery q = db.liveQuery(w.name(), w.query(issues, users, projects));
    long t2 = System.nanoTime();
    Cold.Phase hydrate = meter.lap();
    if (q.status() != Status.READY) {
      throw new IllegalStateException(w.name() + ": live query is " + q.status() + " after creation, not READY");
    }
    return new Db(db, issues, q, t1 - t0, t2 - t1q, load, hydrate);
  }

  static SourceCollection load(Rivulet db, String name, Schema schema, Row[] rows) {
    SourceCollection c = db.collection(name, schema, KEY);
    SourceCollection.SyncBatch b = c.beginSync();
    for (Row r : rows) {
      b.write(r);
    }
    b.markReady().commit();
    return c;
  }
}
