package dev.rivulet.replica;

import dev.rivulet.query.LiveQuery;
import dev.rivulet.query.Status;
import dev.rivulet.query.SubscribeOptions;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs one history of the contract suite on a fresh in-memory database: opens a replica with the
 * live queries of {@code cases} (each with a change-batch and a keyed-event subscriber), runs the
 * steps, and after each one compares every query's rows and its subscribers' folded rows with the database's own
 * answer. {@link #shrink} drops steps, transaction items and queries while a history still fails.
 */
final class ContractRun {
  private static final AtomicLong DATABASES = new AtomicLong();

  /** How a run diverged: after which step (-1: at creation), on which query, and how. */
  record Failure(int step, String query, String what) {
    @Override
    public String toString() {
      return (step < 0 ? "at creation" : "after step " + step) + ", query " + query + ": " + what;
    }
  }

  private final ReplicaDialect dialect;
  private final ReplicaOptions options;

  ContractRun(ReplicaDialect dialect, ReplicaOptions options) {
    this.dialect = dialect;
    this.options = options;
  }

  /** The first divergence of the history, or null when there is none. */
  Failure run(List<SqlHistory.Step> steps, List<LiveCase> cases) throws SQLException {
    String url = dialect.url("contract" + DATABASES.incrementAndGet());
    try (Connection keep = dialect.create(url); SqliteReplica replica = dialect.open(url, options)) {
      List<Throwable> reported = new ArrayList<>();
      replica.rivulet().onError((source, e) -> reported.add(e));
      List<LiveQuery> queries = new ArrayList<>();
      List<FoldedChanges> folds = new ArrayList<>();
      List<FoldedEvents> keyed = new ArrayList<>();
      for (int i = 0; i < cases.size(); i++) {
        LiveQuery q = replica.liveQuery("q" + i, cases.get(i).query().apply(replica));
        FoldedChanges fold = new FoldedChanges();
        q.subscribeChanges(SubscribeOptions.sync(), fold);
        FoldedEvents events = new FoldedEvents();
        q.subscribe(SubscribeOptions.sync().withInitialState(), events);
        queries.add(q);
        folds.add(fold);
        keyed.add(events);
      }
      for (int step = -1; step < steps.size(); step++) {
        if (step >= 0) {
          try {
            SqlHistory.run(steps.get(step), replica);
          } catch (RuntimeException e) {
            return new Failure(step, "-", "the write threw " + e);
          }
        }
        if (!reported.isEmpty()) {
          return new Failure(step, "-", "reported to onError: " + reported);
        }
        for (int i = 0; i < cases.size(); i++) {
          String why = check(keep, cases.get(i), queries.get(i), folds.get(i), keyed.get(i));
          if (why != null) {
            return new Failure(step, cases.get(i).label(), why);
          }
        }
      }
    }
    return null;
  }

  private static String check(Connection keep, LiveCase c, LiveQuery q, FoldedChanges fold, FoldedEvents events)
      throws SQLException {
    if (q.status() != Status.READY) {
      return "status " + q.status() + (q.error() == null ? "" : ": " + q.error());
    }
    if (!fold.errors().isEmpty() || !events.errors().isEmpty()) {
      return "subscriber: " + fold.errors() + events.errors();
    }
    List<Object> expected = c.answer().rows(keep);
    List<Object> rows = PlainValues.rows(q.rows());
    List<Object> sortedExpected = PlainValues.sorted(expected);
    if (!(c.ordered() ? rows.equals(expected) : PlainValues.sorted(rows).equals(sortedExpected))) {
      return "rows() " + rows + " but the database says " + expected;
    }
    List<Object> folded = fold.plainRows();
    if (!folded.equals(sortedExpected)) {
      return "the change-batch subscriber's folded rows " + folded + " but the database says " + sortedExpected;
    }
    List<Object> byKey = events.plainRows();
    if (!byKey.equals(sortedExpected)) {
      return "the keyed-event subscriber's rows " + byKey + " but the database says " + sortedExpected;
    }
    return null;
  }

  /** A smaller failing history and queries, and the failure they give. */
  record Shrunk(List<SqlHistory.Step> steps, List<LiveCase> cases, Failure failure, int attempts) {
    String describe() {
      StringBuilder sb = new StringBuilder("minimal history (" + steps.size() + " steps, " + attempts + " replays): ");
      for (int i = 0; i < steps.size(); i++) {
        sb.append("\n  ").append(i).append(": ").append(steps.get(i));
      }
      sb.append("\n  queries: ").append(cases).append("\n  ").append(failure);
      return sb.toString();
    }
  }

  /** Drops steps (chunks, then single ones), transaction items and queries while the history still fails. */
  Shrunk shrink(List<SqlHistory.Step> steps, List<LiveCase> cases, Failure failure, int maxAttempts)
      throws SQLException {
    Shrunk best = new Shrunk(steps, cases, failure, 0);
    int attempts = 0;
    boolean progress = true;
    while (progress && attempts < maxAttempts) {
      progress = false;
      for (List<LiveCase> cs : fewerCases(best.cases())) {
        attempts++;
        Failure f = run(best.steps(), cs);
        if (f != null) {
          best = new Shrunk(best.steps(), cs, f, attempts);
          progress = true;
          break;
        }
      }
      for (List<SqlHistory.Step> candidate : fewerSteps(best.steps())) {
        if (attempts >= maxAttempts) {
          break;
        }
        attempts++;
        Failure f = run(candidate, best.cases());
        if (f != null) {
          best = new Shrunk(candidate, best.cases(), f, attempts);
          progress = true;
          break;
        }
      }
    }
    return new Shrunk(best.steps(), best.cases(), best.failure(), attempts);
  }

  private static List<List<LiveCase>> fewerCases(List<LiveCase> cases) {
    List<List<LiveCase>> out = new ArrayList<>();
    for (int i = 0; cases.size() > 1 && i < cases.size(); i++) {
      List<LiveCase> c = new ArrayList<>(cases);
      c.remove(i);
      out.add(c);
    }
    return out;
  }

  /** Candidates with fewer steps: halves down to single steps, then transactions with an item fewer. */
  private static List<List<SqlHistory.Step>> fewerSteps(List<SqlHistory.Step> steps) {
    List<List<SqlHistory.Step>> out = new ArrayList<>();
    for (int chunk = Math.max(1, steps.size() / 2); ; chunk /= 2) {
      for (int from = 0; from < steps.size(); from += chunk) {
        List<SqlHistory.Step> s = new ArrayList<>(steps.subList(0, from));
        s.addAll(steps.subList(Math.min(steps.size(), from + chunk), steps.size()));
        out.add(s);
      }
      if (chunk == 1) {
        break;
      }
    }
    for (int i = 0; i < steps.size(); i++) {
      if (steps.get(i) instanceof SqlHistory.Tx tx) {
        for (int k = 0; k < tx.items().size(); k++) {
          List<SqlHistory.Item> items = new ArrayList<>(tx.items());
          items.remove(k);
          List<SqlHistory.Step> s = new ArrayList<>(steps);
          s.set(i, new SqlHistory.Tx(List.copyOf(items), tx.fail()));
          out.add(s);
        }
        if (tx.fail()) {
          List<SqlHistory.Step> s = new ArrayList<>(steps);
          s.set(i, new SqlHistory.Tx(tx.items(), false));
          out.add(s);
        }
      }
    }
    return out;
  }
}
