package dev.rivulet.query;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.testkit.RefValues;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

/**
 * The schema of the include suites, project -> issue -> comment and issue -> assignee user, on one
 * {@link Rivulet}, and a random writer of transactions over it: inserts, deletes, updates,
 * re-parents (a correlation column changed, to another parent, a missing one or NULL) and re-keys
 * (a row deleted and inserted again under a new key, its children left pointing at the old one),
 * as sync batches over one or several collections or as optimistic transactions that are later
 * confirmed or rolled back. Small key ranges and value domains make ties, shared buckets and
 * empty buckets common.
 */
final class IncludeWorld {
  static final int PROJECT = 0;
  static final int ISSUE = 1;
  static final int COMMENT = 2;
  static final int USER = 3;
  private static final String[] STATUS = {"open", "closed", "open"};
  private static final String[] NAMES = {"ann", "bob", "cy", null};

  final Rivulet db = Rivulet.create();
  final SourceCollection projects = db.collection("project",
      Schema.parse("id INT NOT NULL, name STRING, archived BOOL"), List.of("id"));
  final SourceCollection issues = db.collection("issue", Schema.parse("id INT NOT NULL, project INT, title STRING,"
      + " status STRING, priority INT, assignee INT, estimate DOUBLE"), List.of("id"));
  final SourceCollection comments = db.collection("comment",
      Schema.parse("id INT NOT NULL, issue INT, body STRING, created INT, author INT"), List.of("id"));
  final SourceCollection users = db.collection("user", Schema.parse("id INT NOT NULL, name STRING"), List.of("id"));
  final List<SourceCollection> tables = List.of(projects, issues, comments, users);

  private final Random rnd;
  private final Map<Integer, Transaction> pending = new LinkedHashMap<>();
  private int nextTx;
  /** What each step did, for a failure report. */
  final List<String> log = new ArrayList<>();
  /** How many writes of each kind (insert, update, delete, re-parent, re-key) the steps made. */
  final Map<String, Integer> writeKinds = new java.util.TreeMap<>();

  IncludeWorld(long seed) {
    this.rnd = new Random(seed);
  }

  /** Fills every table with a few rows (one sync transaction per table) and marks them ready. */
  void populate(int projectsN, int issuesN, int commentsN, int usersN) {
    int[] counts = {projectsN, issuesN, commentsN, usersN};
    for (int t = 0; t < tables.size(); t++) {
      SourceCollection.SyncBatch b = tables.get(t).beginSync();
      for (int id = 1; id <= counts[t]; id++) {
        b.write(randomRow(t, id));
      }
      b.markReady().commit();
    }
  }

  /** The largest key a table's rows take (new keys come from 1..max). */
  private static int maxKey(int table) {
    return switch (table) {
      case PROJECT -> 7;
      case ISSUE -> 24;
      case COMMENT -> 60;
      default -> 6;
    };
  }

  Row randomRow(int table, long id) {
    return switch (table) {
      case PROJECT -> Row.of(id, pick(new String[] {"alpha", "beta", "gamma", null}), rnd.nextInt(4) == 0);
      case ISSUE -> Row.of(id, ref(6), "t" + rnd.nextInt(5), STATUS[rnd.nextInt(STATUS.length)],
          rnd.nextInt(5) == 0 ? null : (long) rnd.nextInt(4), ref(5),
          rnd.nextInt(4) == 0 ? null : rnd.nextInt(4) * 0.5);
      case COMMENT -> Row.of(id, ref(14), rnd.nextInt(6) == 0 ? null : "b" + rnd.nextInt(5), (long) rnd.nextInt(10),
          ref(5));
      default -> Row.of(id, pick(NAMES));
    };
  }

  /** A reference to a parent key in 1..n, now and then NULL. */
  private Object ref(int n) {
    return rnd.nextInt(7) == 0 ? null : (Object) (long) (1 + rnd.nextInt(n));
  }

  private <T> T pick(T[] a) {
    return a[rnd.nextInt(a.length)];
  }

  /** The correlation column of a table (re-parenting changes it), or -1. */
  private static int parentColumn(int table) {
    return switch (table) {
      case ISSUE -> 1;
      case COMMENT -> 1;
      default -> -1;
    };
  }

  /** Runs one random step (one published transaction) and returns what it did. */
  String step() {
    int kind = rnd.nextInt(20);
    String done;
    if (kind < 3 && !pending.isEmpty()) {
      List<Integer> ids = new ArrayList<>(pending.keySet());
      int id = ids.get(rnd.nextInt(ids.size()));
      boolean confirm = rnd.nextBoolean();
      Transaction tx = pending.remove(id);
      if (confirm) {
        tx.confirm();
      } else {
        tx.rollback();
      }
      done = (confirm ? "confirm tx" : "roll back tx") + id;
    } else if (kind < 8 && pending.size() < 3) {
      int id = nextTx++;
      List<Write> ws = writes();
      Transaction tx = db.transaction();
      for (Write w : ws) {
        SourceCollection c = tables.get(w.table());
        if (w.row() == null) {
          tx.delete(c, Row.of(w.id()));
        } else if (w.existed()) {
          tx.update(c, w.row());
        } else {
          tx.insert(c, w.row());
        }
      }
      tx.apply();
      pending.put(id, tx);
      done = "apply tx" + id + " " + ws;
    } else {
      List<Write> ws = writes();
      SyncTransaction sync = db.beginSync();
      for (Write w : ws) {
        SourceCollection c = tables.get(w.table());
        if (w.row() == null) {
          sync.delete(c, Row.of(w.id()));
        } else {
          sync.write(c, w.row());
        }
      }
      sync.commit();
      done = "sync " + ws;
    }
    log.add(done);
    return done;
  }

  /** One write: table, key, new row (null: delete), whether the key was visible before. */
  record Write(int table, long id, Row row, boolean existed) {
    @Override
    public String toString() {
      return (row == null ? "delete " : existed ? "update " : "insert ") + NAMES_OF[table] + "[" + id + "]"
          + (row == null ? "" : " " + row);
    }
  }

  private static final String[] NAMES_OF = {"project", "issue", "comment", "user"};

  /** One to four writes, each key touched at most once (so their order within a step is free). */
  private List<Write> writes() {
    List<Write> out = new ArrayList<>();
    List<Set<Long>> touched = List.of(new HashSet<>(), new HashSet<>(), new HashSet<>(), new HashSet<>());
    int n = 1 + rnd.nextInt(4);
    for (int k = 0; k < n; k++) {
      int table = rnd.nextInt(10) < 4 ? COMMENT : rnd.nextInt(3) == 0 ? PROJECT : rnd.nextInt(4) == 0 ? USER : ISSUE;
      Map<Long, Row> visible = visible(table);
      long id = 1 + rnd.nextInt(maxKey(table));
      if (!touched.get(table).add(id)) {
        continue;
      }
      Row current = visible.get(id);
      int op = rnd.nextInt(10);
      if (current == null) {
        out.add(new Write(table, id, randomRow(table, id), false));
        writeKinds.merge("insert", 1, Integer::sum);
      } else if (op < 2) {
        out.add(new Write(table, id, null, true));
        writeKinds.merge("delete", 1, Integer::sum);
      } else if (op < 5 && parentColumn(table) >= 0) {
        writeKinds.merge("re-parent", 1, Integer::sum);
        // re-parent: only the correlation column changes
        Object p = table == ISSUE ? ref(6) : ref(14);
        out.add(new Write(table, id, current.with(parentColumn(table), p), true));
      } else if (op < 7) {
        // re-key: the same content under a key that is free
        long to = 1 + rnd.nextInt(maxKey(table));
        if (visible.containsKey(to) || !touched.get(table).add(to)) {
          continue;
        }
        out.add(new Write(table, id, null, true));
        out.add(new Write(table, to, current.with(0, to), false));
        writeKinds.merge("re-key", 1, Integer::sum);
      } else {
        writeKinds.merge("update", 1, Integer::sum);
        Row fresh = randomRow(table, id);
        out.add(new Write(table, id, parentColumn(table) >= 0 && rnd.nextBoolean()
            ? fresh.with(parentColumn(table), current.get(parentColumn(table))) : fresh, true));
      }
    }
    return out;
  }

  /** The visible rows of a table by key. */
  Map<Long, Row> visible(int table) {
    Map<Long, Row> out = new TreeMap<>();
    for (KeyedRow kr : tables.get(table).entries()) {
      out.put((Long) kr.key().canonical().get(0), kr.row());
    }
    return out;
  }

  /** The current rows of every source collection, for the naive evaluators. */
  NaiveQuery.Contents contents() {
    return src -> {
      List<NaiveQuery.KRow> out = new ArrayList<>();
      for (KeyedRow kr : ((LiveCollection) src).entries()) {
        out.add(new NaiveQuery.KRow(RefValues.row(kr.row().canonical().toList()),
            RefValues.row(kr.key().canonical().toList())));
      }
      out.sort((a, b) -> RefValues.compareRows(a.key(), b.key()));
      return out;
    };
  }
}
