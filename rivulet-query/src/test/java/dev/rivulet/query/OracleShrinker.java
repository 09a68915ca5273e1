package dev.rivulet.query;

import dev.rivulet.engine.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Shrinks a failing {@link OracleScenario} to a smaller one that fails the same way (the same
 * check on the same live query), keeping the failing query's IR as it is.
 *
 * <p>Passes, repeated while one makes progress and attempts remain: keep only the failing query
 * (and what it reads); drop chunks of steps (halves down to single steps); drop writes within a
 * step; drop a sync batch's truncate; create the live queries before all data or after all of it;
 * and replace values by NULL, one column of one write at a time. Every candidate is a valid
 * scenario (see {@link OracleHistory}), so no repair is needed.
 */
final class OracleShrinker {
  /** The smallest failing scenario found, its divergence, and the replays it took. */
  record Result(OracleScenario scenario, OracleRun.Divergence divergence, int attempts) {}

  private final OracleRun.Divergence target;
  private final OracleRun.Options options;
  private final int maxAttempts;
  private int attempts;
  private OracleScenario best;
  private OracleRun.Divergence bestDivergence;

  private OracleShrinker(OracleScenario sc, OracleRun.Divergence d, int maxAttempts) {
    this.best = sc;
    this.bestDivergence = d;
    this.target = d;
    this.maxAttempts = maxAttempts;
    this.options = d.kind().startsWith("sqlite") ? new OracleRun.Options(true, false)
        : d.kind().startsWith("h2") ? new OracleRun.Options(false, true) : OracleRun.Options.ENGINE_ONLY;
  }

  static Result shrink(OracleScenario sc, OracleRun.Divergence d, int maxAttempts) {
    OracleShrinker s = new OracleShrinker(sc, d, maxAttempts);
    s.run();
    return new Result(s.best, s.bestDivergence, s.attempts);
  }

  private boolean attempt(OracleScenario candidate) {
    if (attempts >= maxAttempts) {
      return false;
    }
    attempts++;
    OracleRun.Divergence d;
    try {
      d = OracleRun.run(candidate, options);
    } catch (RuntimeException e) {
      return false;
    }
    if (d != null && Objects.equals(d.query(), target.query()) && d.kind().equals(target.kind())) {
      best = candidate;
      bestDivergence = d;
      return true;
    }
    return false;
  }

  private void run() {
    if (target.query() != null) {
      for (int i = 0; i < best.queries().size(); i++) {
        if (best.queries().get(i).name().equals(target.query()) && best.queries().size() > 1) {
          attempt(best.onlyQueries(List.of(i)));
          break;
        }
      }
    }
    boolean progress = true;
    while (progress && attempts < maxAttempts) {
      progress = dropSteps() | dropWrites() | createEarlyOrLate() | nullValues();
    }
  }

  private boolean dropSteps() {
    boolean any = false;
    for (int chunk = Math.max(1, best.steps().size() / 2); chunk >= 1; chunk /= 2) {
      for (int from = 0; from < best.steps().size(); ) {
        int to = Math.min(from + chunk, best.steps().size());
        List<OracleHistory.Step> steps = new ArrayList<>(best.steps());
        steps.subList(from, to).clear();
        int createAt = best.createAt() - Math.max(0, Math.min(to, best.createAt()) - from);
        if (attempt(best.withSteps(steps, createAt))) {
          any = true;
        } else {
          from += chunk;
        }
      }
    }
    return any;
  }

  private boolean dropWrites() {
    boolean any = false;
    for (int i = 0; i < best.steps().size(); i++) {
      OracleHistory.Step s = best.steps().get(i);
      if (s instanceof OracleHistory.Sync y && y.truncate()) {
        any |= attempt(replace(i, new OracleHistory.Sync(y.table(), false, y.writes())));
      }
      List<OracleHistory.Write> ws = writes(best.steps().get(i));
      for (int w = 0; w < ws.size(); ) {
        List<OracleHistory.Write> fewer = new ArrayList<>(ws);
        fewer.remove(w);
        if (attempt(replace(i, withWrites(best.steps().get(i), fewer)))) {
          any = true;
          ws = fewer;
        } else {
          w++;
        }
      }
    }
    return any;
  }

  private boolean createEarlyOrLate() {
    boolean any = false;
    if (best.createAt() != 0) {
      any |= attempt(best.withSteps(best.steps(), 0));
    }
    if (best.createAt() != best.steps().size()) {
      any |= attempt(best.withSteps(best.steps(), best.steps().size()));
    }
    return any;
  }

  private boolean nullValues() {
    boolean any = false;
    for (int i = 0; i < best.steps().size(); i++) {
      List<OracleHistory.Write> ws = writes(best.steps().get(i));
      for (int w = 0; w < ws.size(); w++) {
        Row row = ws.get(w).row();
        if (row == null) {
          continue;
        }
        for (int c = 1; c < row.width(); c++) {
          if (row.get(c) == null) {
            continue;
          }
          List<OracleHistory.Write> next = new ArrayList<>(ws);
          next.set(w, new OracleHistory.Write(ws.get(w).table(), ws.get(w).id(), row.with(c, null)));
          if (attempt(replace(i, withWrites(best.steps().get(i), next)))) {
            any = true;
            ws = next;
            row = next.get(w).row();
          }
        }
      }
    }
    return any;
  }

  private OracleScenario replace(int i, OracleHistory.Step s) {
    List<OracleHistory.Step> steps = new ArrayList<>(best.steps());
    steps.set(i, s);
    return best.withSteps(steps, best.createAt());
  }

  private static List<OracleHistory.Write> writes(OracleHistory.Step s) {
    if (s instanceof OracleHistory.Sync y) {
      return y.writes();
    }
    if (s instanceof OracleHistory.Apply a) {
      return a.writes();
    }
    return List.of();
  }

  private static OracleHistory.Step withWrites(OracleHistory.Step s, List<OracleHistory.Write> ws) {
    if (s instanceof OracleHistory.Sync y) {
      return new OracleHistory.Sync(y.table(), y.truncate(), ws);
    }
    OracleHistory.Apply a = (OracleHistory.Apply) s;
    return new OracleHistory.Apply(a.tx(), ws);
  }
}
