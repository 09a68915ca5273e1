package dev.rivulet.query;

import dev.rivulet.engine.Row;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The oracle's subscriber to every collection and live query of one run: folds each published
 * {@link ChangeEvent} into the rows the collection had when watched (reconstruction), and inside
 * each listener call records what every collection and live query reads at that moment
 * (coherence), to be compared with the state after the transaction.
 *
 * <p>Event rules checked as events arrive: an insert names an absent key, an update or delete names
 * a present key with the folded row as its previous row, an update changes the row, and one
 * transaction's events name each key at most once (they are its net change).
 */
final class EventLedger {
  private final Object lock;
  private final Supplier<List<BaseCollection>> everything;
  private final Map<BaseCollection, Map<Row, Row>> folded = new IdentityHashMap<>();
  private final Map<BaseCollection, Integer> calls = new IdentityHashMap<>();
  private final List<Map<BaseCollection, List<Row>>> snapshots = new ArrayList<>();
  private final List<String> errors = new ArrayList<>();

  /**
   * @param lock the database, whose monitor guards the collections' internal rows
   * @param everything the collections and live queries a listener snapshots
   */
  EventLedger(Object lock, Supplier<List<BaseCollection>> everything) {
    this.lock = lock;
    this.everything = everything;
  }

  /** Starts folding {@code c}'s events from its current rows. */
  void watch(BaseCollection c) {
    synchronized (lock) {
      folded.put(c, c.snapshot());
    }
    c.subscribe(events -> onEvents(c, events));
  }

  /** Forgets the listener calls and snapshots of the previous transaction. */
  void startTransaction() {
    calls.clear();
    snapshots.clear();
  }

  /** The first broken event rule so far, or null. */
  String firstError() {
    return errors.isEmpty() ? null : errors.get(0) + (errors.size() > 1 ? " (and " + (errors.size() - 1) + " more)" : "");
  }

  /** The rows {@code c}'s events fold into (key to row). */
  Map<Row, Row> folded(BaseCollection c) {
    return folded.get(c);
  }

  private void onEvents(BaseCollection c, List<ChangeEvent> events) {
    calls.merge(c, 1, Integer::sum);
    Map<Row, Row> f = folded.get(c);
    Set<Row> seen = new HashSet<>();
    for (ChangeEvent e : events) {
      if (!seen.add(e.key())) {
        errors.add(c.name() + ": key " + e.key() + " twice in one transaction's events " + events
            + " (a transaction's events are its net change per key)");
      }
      Row current = f.get(e.key());
      switch (e.type()) {
        case INSERT -> {
          if (current != null || e.value() == null || e.previous() != null) {
            errors.add(c.name() + ": bad insert " + e + " (folded row " + current + ")");
          }
          f.put(e.key(), e.value());
        }
        case UPDATE -> {
          if (current == null || !current.equals(e.previous()) || e.value() == null || e.value().equals(e.previous())) {
            errors.add(c.name() + ": bad update " + e + " (folded row " + current + ")");
          }
          f.put(e.key(), e.value());
        }
        case DELETE -> {
          if (current == null || !current.equals(e.previous()) || e.value() != null) {
            errors.add(c.name() + ": bad delete " + e + " (folded row " + current + ")");
          }
          f.remove(e.key());
        }
      }
    }
    Map<BaseCollection, List<Row>> snap = new IdentityHashMap<>();
    for (BaseCollection x : everything.get()) {
      snap.put(x, x.rows());
    }
    snapshots.add(snap);
  }

  /**
   * Null when, in the transaction just run, every listener ran at most once and read, for every
   * collection and live query, what it holds now (the same list when {@code ordered}, else the same
   * multiset); else what was read that should not have been. Adds the comparisons to {@code checks}.
   */
  String coherenceMismatch(Predicate<BaseCollection> ordered, long[] checks) {
    for (Map.Entry<BaseCollection, Integer> e : calls.entrySet()) {
      if (e.getValue() > 1) {
        return e.getKey().name() + "'s listener ran " + e.getValue() + " times for one transaction";
      }
    }
    for (Map<BaseCollection, List<Row>> snap : snapshots) {
      for (Map.Entry<BaseCollection, List<Row>> e : snap.entrySet()) {
        List<Row> now = e.getKey().rows();
        boolean same = ordered.test(e.getKey()) ? now.equals(e.getValue())
            : ResultMatch.sameMultiset(now, e.getValue());
        checks[0]++;
        if (!same) {
          return "a listener read " + e.getKey().name() + " as " + e.getValue() + " but after the transaction it is "
              + now;
        }
      }
    }
    return null;
  }
}
