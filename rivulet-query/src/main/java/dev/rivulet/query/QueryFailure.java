package dev.rivulet.query;

import dev.rivulet.engine.Output;
import dev.rivulet.engine.RivuletException;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.RowList;
import dev.rivulet.engine.internal.EngineAccess;
import dev.rivulet.query.state.ResultConflicts;
import java.util.List;
import java.util.Map;

/**
 * The failure and recovery state of one {@link LiveQuery}: while the query cannot show a valid
 * result (two rows for one key, or a source in error), its last published rows stay as they are
 * and the full result is kept aside ({@link ResultConflicts}) from the graph's changes; the query
 * recovers, publishing the difference, when the result is valid and its sources are healthy
 * again. A closed source, or any other failure, is final. See {@link LiveQuery} for the contract.
 *
 * <p>Owned by its live query; guarded by the database's monitor.
 */
final class QueryFailure {
  private static final EngineAccess ENGINE = EngineAccess.get();
  private final LiveQuery q;
  private final Output output;
  private ResultConflicts conflicts; // the full result while failed (and recoverable)
  private BaseCollection errorSource; // the source the error names, or null
  private Object errorSourceState; // and what it was about (see stateOf)
  private RuntimeException duplicate; // the duplicate-key error the running run threw

  QueryFailure(LiveQuery q, Output output) {
    this.q = q;
    this.output = output;
  }

  /** Whether the query is failed but can recover (its changes are folded aside). */
  boolean recoverable() {
    return conflicts != null;
  }

  /** Whether {@code e} is the duplicate-key error this query's last run threw. */
  boolean isDuplicate(RuntimeException e) {
    return e == duplicate;
  }

  /**
   * Fails this query on what its run (or sending changes to it) threw: a duplicate key recovers
   * (see {@link #settle}); anything else is final. Readers see none of the run's partial change.
   */
  void runFailed(RuntimeException e) {
    q.change.clear();
    if (e != duplicate) {
      conflicts = null;
      errorSource = null;
      if (q.ordered != null) {
        q.ordered.abandonFailed();
      }
    }
    duplicate = null;
    q.fail(e);
  }

  /**
   * Before a run: when a source is in error or closed, fails this query (naming the source) with
   * its last published rows kept, so that the run folds aside.
   */
  void checkSources() {
    if (!q.runnable()) {
      return;
    }
    BaseCollection bad = failedSource();
    if (bad != null && conflicts == null) {
      freeze();
      q.fail(sourceError(bad));
    }
  }

  /**
   * After a run (or when the transaction did not run this query): settles its status. A closed
   * source fails it for good; a source in error keeps it failed, naming the source; otherwise a
   * failed query whose full result is valid recovers; then an open query's status follows its
   * sources'.
   */
  void settle() {
    if (!q.runnable()) {
      return;
    }
    BaseCollection bad = failedSource();
    if (bad != null) {
      if (conflicts == null) {
        freeze();
      }
      if (bad.statusNow() == Status.CLOSED) {
        conflicts = null; // for good: a closed source never changes again
        if (q.ordered != null) {
          q.ordered.abandonFailed();
        }
      }
      if (errorSource != bad || errorSourceState != stateOf(bad)) {
        q.fail(sourceError(bad));
      }
      return;
    }
    if (conflicts != null) {
      Row key = conflicts.someInvalidKey();
      if (key != null) {
        if (errorSource != null) {
          List<Row> two = conflicts.rowsOf(key);
          q.fail(q.conflicted(two.get(0)) ? duplicateOf(two.get(0)) : duplicateKey(key, two.get(0), two.get(1)));
        }
        return;
      }
      recoverNow();
    }
    q.updateReadiness();
  }

  /** A source that is in error or closed, or null. */
  BaseCollection failedSource() {
    for (BaseCollection s : q.sources) {
      Status st = s.statusNow();
      if (st == Status.ERROR || st == Status.CLOSED) {
        return s;
      }
    }
    return null;
  }

  /** What a source error is about: the source's error, or the source itself once it is closed. */
  private static Object stateOf(BaseCollection bad) {
    return bad.statusNow() == Status.CLOSED ? bad : bad.errorNow();
  }

  RivuletException sourceError(BaseCollection bad) {
    errorSource = bad;
    errorSourceState = stateOf(bad);
    if (bad.statusNow() == Status.CLOSED) {
      return new RivuletException("live query '" + q.name() + "': its source '" + bad.name() + "' is closed; it gets no"
          + " further changes");
    }
    Throwable cause = bad.errorNow();
    return new RivuletException("live query '" + q.name() + "': its source '" + bad.name() + "' is in error ("
        + (cause == null ? "no cause" : cause.getMessage()) + "); it recovers when the source does", cause);
  }

  /** Keeps the last published rows as they are and the full result aside, from now on. */
  void freeze() {
    conflicts = new ResultConflicts(q::keyOf, q::conflicted);
    q.rows.forEachRow(r -> conflicts.add(r, 1));
    if (q.ordered != null) {
      q.ordered.freeze();
    }
  }

  /**
   * Insertion {@code failed} of this run's change clashed with {@code other} (null: it is a
   * conflict row): undoes the insertions before it, so that the stored rows are the last published
   * ones again, keeps the full result aside to recover from, and throws the duplicate-key error.
   */
  void failOnDuplicate(int failed, Row other) {
    Row full = ENGINE.deltaRow(output, failed);
    Map<Row, Row> retractedByKey = new java.util.HashMap<>();
    for (int i = 0; i < ENGINE.deltaSize(output); i++) {
      if (ENGINE.deltaWeight(output, i) < 0) {
        retractedByKey.put(q.keyOf(ENGINE.deltaRow(output, i)), ENGINE.deltaRow(output, i));
      }
    }
    if (other != null && ENGINE.deltaWeight(output, failed) == 1) {
      q.rows.putRow(other); // putRow replaced it
    }
    for (int i = 0; i < failed; i++) {
      if (ENGINE.deltaWeight(output, i) > 0) {
        Row back = retractedByKey.get(q.keyOf(ENGINE.deltaRow(output, i)));
        if (back != null) {
          q.rows.putRow(back);
        } else {
          q.rows.removeRow(ENGINE.deltaRow(output, i));
        }
      }
    }
    conflicts = new ResultConflicts(q::keyOf, q::conflicted);
    q.rows.forEachRow(r -> conflicts.add(r, 1));
    for (int i = 0; i < ENGINE.deltaSize(output); i++) {
      conflicts.add(ENGINE.deltaRow(output, i), ENGINE.deltaWeight(output, i));
    }
    if (q.ordered != null) {
      q.ordered.failed(output);
    }
    duplicate = other == null ? duplicateOf(full) : duplicateKey(q.keyOf(full), full, other);
    throw duplicate;
  }

  /** The duplicate-key error of a conflict row: its first two contributors. */
  RivuletException duplicateOf(Row conflict) {
    RowList all = (RowList) conflict.get(q.conflictAt);
    return duplicateKey(q.keyOf(conflict), all.get(0), all.get(1));
  }

  RivuletException duplicateKey(Row key, Row one, Row other) {
    errorSource = null;
    return new RivuletException("live query '" + q.name() + "': duplicate key " + key + ": rows "
        + q.visible(one) + " and " + q.visible(other) + " both have it; give the query a key that identifies"
        + " its rows (it recovers when the key is unique again)");
  }

  /** In error: folds the run's change aside. */
  void foldWhileFailed() {
    for (int i = 0; i < ENGINE.deltaSize(output); i++) {
      conflicts.add(ENGINE.deltaRow(output, i), ENGINE.deltaWeight(output, i));
    }
    if (q.ordered != null) {
      q.ordered.applyWhileFailed(output);
    }
  }

  /** The full result is valid and every source healthy: it becomes the rows (the difference is published). */
  void recoverNow() {
    Map<Row, Row> now = conflicts.rows();
    conflicts = null;
    errorSource = null;
    errorSourceState = null;
    for (Row key : q.rows.keys()) {
      if (!now.containsKey(key)) {
        q.install(key, null);
      }
    }
    now.forEach(q::install);
    if (q.ordered != null) {
      q.ordered.recovered(q.db.lastTxId());
    }
    q.recover();
  }

}
