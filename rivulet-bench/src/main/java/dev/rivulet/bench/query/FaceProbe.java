package dev.rivulet.bench.query;

import dev.rivulet.engine.Row;
import dev.rivulet.query.Change;
import dev.rivulet.query.ChangeBatch;
import dev.rivulet.query.ChangeEvent;
import dev.rivulet.query.KeyedBatch;
import dev.rivulet.query.KeyedRow;
import dev.rivulet.query.LiveCollection;
import dev.rivulet.query.LiveQuery;
import dev.rivulet.query.SubscribeOptions;
import dev.rivulet.query.WindowBatch;
import dev.rivulet.query.WindowDelta;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One subscriber of one output face of a live query, as the benchmarks attach it: its callback
 * does minimal work (counts the batch and its items, and either keeps a reference to the last
 * batch or, when collecting, appends the batch to a list), so that the timed commit carries the
 * face's cost and little else. A collecting probe can then fold the collected batches, outside
 * any timed section, into a mirror of the result (a map by key for the keyed face, a multiset of
 * rows for the change-batch face, a list for the window face) and compare it with the query's
 * rows: the reconstruction check.
 *
 * <p>Thread-safety: the callback may run on the subscribing thread (initial state) and then on
 * writers' threads; the collected list is guarded by its own monitor. Counters are plain fields,
 * written by whichever thread delivers (the database delivers one batch at a time).
 */
final class FaceProbe implements AutoCloseable {
  /** The faces a benchmark can attach; {@link #NONE} attaches nothing. */
  enum Face {
    NONE, KEYED, CHANGES, WINDOW;

    String id() {
      return name().toLowerCase(Locale.ROOT);
    }

    static Face parse(String s) {
      try {
        return valueOf(s.strip().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("unknown face '" + s + "' (none, keyed, changes, window)");
      }
    }

    static List<Face> parseList(String csv) {
      List<Face> out = new ArrayList<>();
      for (String s : csv.split(",")) {
        Face f = parse(s);
        if (!out.contains(f)) {
          out.add(f);
        }
      }
      return out;
    }
  }

  final Face face;
  private final boolean collect;
  private final LiveCollection.Subscription subscription; // null for NONE
  private final Consumer<Object> hook; // called with each batch first; null for none
  private final List<Object> collected = new ArrayList<>();
  /** Batches delivered, and their items (events, changes or deltas). */
  long batches;
  long items;
  /** The last batch delivered (kept, so that nothing about it can be optimised away). */
  Object last;

  // The mirror: one of these, by face.
  private final Map<Row, Row> byKey = new HashMap<>();
  private final Map<Row, Integer> bag = new HashMap<>();
  private final List<Row> list = new ArrayList<>();
  private long lastTx = -1;
  private String problem;

  private FaceProbe(Face face, boolean collect, LiveQuery q, SubscribeOptions options, Consumer<Object> hook) {
    this.face = face;
    this.collect = collect;
    this.hook = hook;
    if (face == Face.KEYED && collect && !options.initialState()) {
      // No initial state asked for: the mirror starts from the rows now (the caller makes sure
      // no transaction runs between this and the subscription).
      for (KeyedRow e : q.entries()) {
        byKey.put(e.key(), e.row());
      }
      lastTx = q.txId();
    }
    subscription = switch (face) {
      case NONE -> null;
      case KEYED -> q.subscribe(options, (KeyedBatch b) -> accept(b, b.events().size()));
      case CHANGES -> q.subscribeChanges(options, b -> accept(b, b.changes().size()));
      case WINDOW -> {
        if (!q.ordered()) {
          throw new IllegalArgumentException("the window face needs an ordered query; '" + q.name() + "' has no order by");
        }
        yield q.subscribeWindow(options, b -> accept(b, b.deltas().size()));
      }
    };
  }

  /** Subscribes a probe of {@code face} to {@code q}; {@code collect} keeps the batches for {@link #fold}. */
  static FaceProbe open(Face face, LiveQuery q, SubscribeOptions options, boolean collect) {
    return new FaceProbe(face, collect, q, options, null);
  }

  /** {@link #open}, with {@code hook} called with each batch (on the delivering thread) before it is taken. */
  static FaceProbe open(Face face, LiveQuery q, SubscribeOptions options, boolean collect, Consumer<Object> hook) {
    return new FaceProbe(face, collect, q, options, hook);
  }

  private void accept(Object batch, int n) {
    if (hook != null) {
      hook.accept(batch);
    }
    batches++;
    items += n;
    if (collect) {
      synchronized (collected) {
        collected.add(batch);
      }
    } else {
      last = batch;
    }
  }

  @Override
  public void close() {
    if (subscription != null) {
      subscription.close();
    }
  }

  /** Whether the subscription ended (it should not, before {@link #close}). */
  boolean ended() {
    return subscription != null && subscription.ended().isDone();
  }

  /** Why the subscription ended, or null while it runs. */
  LiveCollection.End endReason() {
    return subscription == null ? null : subscription.ended().getNow(null);
  }

  /** The folding problem found so far (an invariant a batch broke), or null. */
  String foldProblem() {
    return problem;
  }

  /** Takes the batches collected so far (for {@link #fold} later). */
  List<Object> take() {
    synchronized (collected) {
      List<Object> out = new ArrayList<>(collected);
      collected.clear();
      return out;
    }
  }

  /** Folds the batches collected so far into the mirror. */
  void fold() {
    fold(take());
  }

  /** Folds {@code batches} (from {@link #take}) into the mirror; a broken invariant is remembered. */
  void fold(List<Object> batches) {
    for (Object b : batches) {
      if (problem != null) {
        return;
      }
      switch (face) {
        case NONE -> {}
        case KEYED -> foldKeyed((KeyedBatch) b);
        case CHANGES -> foldChanges((ChangeBatch) b);
        case WINDOW -> foldWindow((WindowBatch) b);
      }
    }
  }

  private boolean tx(long txId, boolean first) {
    if (first ? lastTx > txId : lastTx >= txId) {
      problem = face.id() + ": transaction " + txId + " delivered after " + lastTx;
      return false;
    }
    lastTx = txId;
    return true;
  }

  private void foldKeyed(KeyedBatch b) {
    if (!tx(b.txId(), b.initial())) {
      return;
    }
    if (b.initial()) {
      byKey.clear();
    }
    for (ChangeEvent e : b.events()) {
      Row had = byKey.get(e.key());
      boolean ok = switch (e.type()) {
        case INSERT -> had == null && e.previous() == null;
        case UPDATE, DELETE -> had != null && had.equals(e.previous());
      };
      if (!ok) {
        problem = "keyed: tx " + b.txId() + " " + e.type() + " of key " + e.key() + " with previous " + e.previous()
            + ", the mirror has " + had;
        return;
      }
      if (e.type() == ChangeEvent.Type.DELETE) {
        byKey.remove(e.key());
      } else {
        byKey.put(e.key(), e.value());
      }
    }
  }

  private void foldChanges(ChangeBatch b) {
    boolean hydrated = b instanceof ChangeBatch.Hydrated;
    if (hydrated != (lastTx < 0)) {
      problem = "changes: " + (hydrated ? "a second Hydrated batch" : "a Changed batch before Hydrated") + " at tx "
          + b.txId();
      return;
    }
    if (!tx(b.txId(), hydrated)) {
      return;
    }
    for (Change c : b.changes()) {
      if (c instanceof Change.Add a) {
        bag.merge(a.row(), 1, Integer::sum);
      } else if (c instanceof Change.Remove r) {
        removeFromBag(r.row(), b);
      } else if (c instanceof Change.Edit e) {
        removeFromBag(e.old(), b);
        bag.merge(e.row(), 1, Integer::sum);
      }
    }
  }

  private void removeFromBag(Row row, ChangeBatch b) {
    Integer n = bag.get(row);
    if (n == null) {
      if (problem == null) {
        problem = "changes: tx " + b.txId() + " removes " + row + ", which the mirror has not";
      }
    } else if (n == 1) {
      bag.remove(row);
    } else {
      bag.put(row, n - 1);
    }
  }

  private void foldWindow(WindowBatch b) {
    if (lastTx < 0 && !b.isReset()) {
      problem = "window: the first batch (tx " + b.txId() + ") does not start with RESET";
      return;
    }
    if (!tx(b.txId(), b.isReset())) {
      return;
    }
    for (WindowDelta d : b.deltas()) {
      if (d.version() != b.txId()) {
        problem = "window: tx " + b.txId() + " has a " + d.op() + " step of version " + d.version();
        return;
      }
      int n = list.size();
      String bad = switch (d.op()) {
        case RESET -> {
          list.clear();
          yield null;
        }
        case ENTER -> {
          if (d.newIndex() < 0 || d.newIndex() > n) {
            yield "ENTER at " + d.newIndex() + " of " + n;
          }
          list.add(d.newIndex(), d.row());
          yield null;
        }
        case LEAVE -> {
          if (d.oldIndex() < 0 || d.oldIndex() >= n || !list.get(d.oldIndex()).equals(d.row())) {
            yield "LEAVE of " + d.row() + " at " + d.oldIndex() + " of " + n;
          }
          list.remove(d.oldIndex());
          yield null;
        }
        case MOVE -> {
          if (d.oldIndex() < 0 || d.oldIndex() >= n || !list.get(d.oldIndex()).equals(d.old())
              || d.newIndex() < 0 || d.newIndex() >= n) {
            yield "MOVE of " + d.old() + " from " + d.oldIndex() + " to " + d.newIndex() + " of " + n;
          }
          list.remove(d.oldIndex());
          list.add(d.newIndex(), d.row());
          yield null;
        }
        case UPDATE -> {
          if (d.oldIndex() != d.newIndex() || d.oldIndex() < 0 || d.oldIndex() >= n
              || !list.get(d.oldIndex()).equals(d.old())) {
            yield "UPDATE of " + d.old() + " at " + d.oldIndex() + "/" + d.newIndex() + " of " + n;
          }
          list.set(d.oldIndex(), d.row());
          yield null;
        }
      };
      if (bad != null) {
        problem = "window: tx " + b.txId() + ": " + bad + (n > d.oldIndex() && d.oldIndex() >= 0
            ? " (the mirror has " + list.get(d.oldIndex()) + " there)" : "");
        return;
      }
    }
  }

  /**
   * Null when the folded mirror equals the query's current rows ({@code rows}, in order for an
   * ordered query, and {@code entries}, read at the same transaction), else what differs.
   */
  String check(List<Row> rows, List<KeyedRow> entries, String when) {
    if (problem != null) {
      return when + ": " + problem;
    }
    String diff = switch (face) {
      case NONE -> null;
      case KEYED -> {
        if (byKey.size() != entries.size()) {
          yield "keyed mirror has " + byKey.size() + " rows, the query " + entries.size();
        }
        for (KeyedRow e : entries) {
          Row m = byKey.get(e.key());
          if (!e.row().equals(m)) {
            yield "keyed mirror has " + m + " for key " + e.key() + ", the query " + e.row();
          }
        }
        yield null;
      }
      case CHANGES -> {
        Map<Row, Integer> want = new HashMap<>();
        for (Row r : rows) {
          want.merge(r, 1, Integer::sum);
        }
        if (!want.equals(bag)) {
          int size = bag.values().stream().mapToInt(Integer::intValue).sum();
          Row missing = want.keySet().stream().filter(r -> !want.get(r).equals(bag.get(r))).findFirst().orElse(null);
          yield "change-batch mirror has " + size + " rows, the query " + rows.size()
              + (missing != null ? "; first differing row " + missing : "");
        }
        yield null;
      }
      case WINDOW -> {
        for (int i = 0; i < Math.max(rows.size(), list.size()); i++) {
          Row a = i < list.size() ? list.get(i) : null;
          Row e = i < rows.size() ? rows.get(i) : null;
          if (e == null || !e.equals(a)) {
            yield "window mirror has " + a + " at " + i + ", the query " + e + " (sizes " + list.size() + " and "
                + rows.size() + ")";
          }
        }
        yield null;
      }
    };
    return diff == null ? null : when + ": " + diff;
  }
}
