package dev.rivulet.query;

import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The oracle's subscriber to every collection and live query of one run, through all three output
 * faces: folds each published {@link ChangeEvent} into the initial state delivered with the
 * subscription (reconstruction), and inside each listener call records what every collection and
 * live query reads at that moment (coherence), to be compared with the state after the
 * transaction; folds the change batches of a callback subscription and of a pull sink into
 * multisets of rows; folds an ordered live query's window steps, applied by index, into a list;
 * folds the change-tree face (a callback subscription and a pull sink) into trees ({@link
 * TreeFold}), each batch checked as it is applied.
 * Every delivery must name the transaction just run, each transaction at most once per
 * subscription, and ids must strictly increase.
 *
 * <p>Event rules checked as events arrive: an insert names an absent key, an update or delete names
 * a present key with the folded row as its previous row, an update changes the row, and one
 * transaction's events name each key at most once (they are its net change).
 */
final class EventLedger {
  private final Object lock;
  private final Supplier<List<BaseCollection>> everything;
  private final Function<BaseCollection, Schema> typing;
  private final Map<BaseCollection, Map<Row, Row>> folded = new IdentityHashMap<>();
  private final Map<BaseCollection, Integer> calls = new IdentityHashMap<>();
  private final List<Map<BaseCollection, List<Row>>> snapshots = new ArrayList<>();
  private final List<String> errors = new ArrayList<>();
  private final Map<BaseCollection, Map<Row, Integer>> changeFold = new IdentityHashMap<>();
  private final Map<BaseCollection, ChangeSink> sinks = new IdentityHashMap<>();
  private final Map<BaseCollection, Map<Row, Integer>> sinkFold = new IdentityHashMap<>();
  private final Map<BaseCollection, List<Row>> windowFold = new IdentityHashMap<>();
  private final Map<BaseCollection, TreeFold> treeFold = new IdentityHashMap<>();
  private final Map<BaseCollection, ChangeTreeSink> treeSinks = new IdentityHashMap<>();
  private final Map<BaseCollection, TreeFold> treeSinkFold = new IdentityHashMap<>();
  private final Map<String, Long> lastTx = new HashMap<>(); // per subscription: the last id delivered
  private final List<Long> delivered = new ArrayList<>(); // ids delivered in the running transaction

  /**
   * @param lock the database, whose monitor guards the collections' internal rows
   * @param everything the collections and live queries a listener snapshots
   * @param typing the schema whose column types every value handed out by a collection or live query
   *     must fit ({@link JavaTypes}): the test's own declaration for a collection, the reference
   *     typing ({@link Shapes}) for a live query, never the schema the system reports
   */
  EventLedger(Object lock, Supplier<List<BaseCollection>> everything, Function<BaseCollection, Schema> typing) {
    this.lock = lock;
    this.everything = everything;
    this.typing = typing;
  }

  /**
   * Subscribes to every face of {@code c}: the keyed events and the change batches with their
   * initial state, a change sink, and, for an ordered live query, its window.
   */
  void watch(BaseCollection c) {
    c.subscribe(SubscribeOptions.sync().withInitialState(), b -> onKeyed(c, b));
    if (!folded.containsKey(c)) {
      errors.add(c.name() + ": no initial state delivered at subscription");
      folded.put(c, new HashMap<>());
    }
    changeFold.put(c, new HashMap<>());
    c.subscribeChanges(SubscribeOptions.sync(), b -> {
      tx(c.name() + " changes", b.txId(), b instanceof ChangeBatch.Hydrated);
      fold(c, c.name() + " changes", changeFold.get(c), b);
    });
    ChangeSink sink = c.changeSink(1 << 20);
    sinks.put(c, sink);
    sinkFold.put(c, new HashMap<>());
    fold(c, c.name() + " sink", sinkFold.get(c), sink.hydrate());
    if (c instanceof LiveQuery q && q.ordered()) {
      windowFold.put(c, new ArrayList<>());
      q.subscribeWindow(SubscribeOptions.sync(), b -> onWindow(q, b));
    }
    boolean ordered = c instanceof LiveQuery q && q.ordered();
    c.subscribeTree(SubscribeOptions.sync(), b -> {
      tx(c.name() + " tree", b.txId(), b.hydrated());
      if (b.hydrated()) {
        treeFold.put(c, TreeFold.hydrate(ordered, b, errors, c.name() + " tree"));
      } else {
        foldTree(c, c.name() + " tree", treeFold.get(c), b);
      }
    });
    if (!treeFold.containsKey(c)) {
      errors.add(c.name() + " tree: no hydration delivered at subscription");
      treeFold.put(c, new TreeFold(ordered));
    }
    ChangeTreeSink treeSink = c.changeTreeSink(1 << 20);
    treeSinks.put(c, treeSink);
    treeSinkFold.put(c, TreeFold.hydrate(ordered, treeSink.hydrate(), errors, c.name() + " tree sink"));
  }

  /** Folds one batch of the change-tree face; a batch that does not fit is an error. */
  private void foldTree(BaseCollection c, String who, TreeFold f, TreeBatch b) {
    if (b.hydrated()) {
      errors.add(who + ": a second hydration, transaction " + b.txId());
      return;
    }
    if (b.changes().isEmpty()) {
      errors.add(who + ": an empty batch for transaction " + b.txId());
    }
    for (CaughtChange ch : b.changes()) {
      typedTree(who, c, ch);
      String bad = f.apply(ch);
      if (bad != null) {
        errors.add(who + ", transaction " + b.txId() + ": " + bad);
        return;
      }
    }
  }

  /** Checks the Java classes of the rows a change-tree change hands out (flat results: the visible rows). */
  private void typedTree(String who, BaseCollection c, CaughtChange ch) {
    if (!c.shape().relationships().isEmpty()) {
      return; // a nested result's node rows are its scalar columns only
    }
    if (ch instanceof CaughtChange.Add a) {
      typed(who, c, a.node().row());
    } else if (ch instanceof CaughtChange.Remove r) {
      typed(who, c, r.node().row());
    } else if (ch instanceof CaughtChange.Edit e) {
      typed(who, c, e.old());
      typed(who, c, e.row());
    } else {
      errors.add(who + ": a Child change on a flat result: " + ch);
    }
  }

  /** Forgets the listener calls and snapshots of the previous transaction. */
  void startTransaction() {
    calls.clear();
    snapshots.clear();
    delivered.clear();
  }

  /**
   * Null when every delivery of the transaction just run named {@code txId}; else what was wrong.
   */
  String txMismatch(long txId) {
    for (long t : delivered) {
      if (t != txId) {
        return "a delivery named transaction " + t + " but the transaction just run is " + txId + " (all: "
            + delivered + ")";
      }
    }
    return null;
  }

  /**
   * Null when the change-batch folds (callback and sink) of {@code c} hold the multiset {@code
   * rows} and, for an ordered live query, its folded window equals {@code rows}; else what differs.
   */
  String facesMismatch(BaseCollection c, List<Row> rows) {
    for (ChangeBatch b : sinks.get(c).take()) {
      if (b instanceof ChangeBatch.Hydrated) {
        return c.name() + ": the sink's take() returned a Hydrated batch";
      }
      fold(c, c.name() + " sink", sinkFold.get(c), b);
    }
    Map<Row, Integer> want = counts(rows);
    if (!want.equals(changeFold.get(c))) {
      return c.name() + ": change batches fold into " + changeFold.get(c) + ", rows are " + want;
    }
    if (!want.equals(sinkFold.get(c))) {
      return c.name() + ": the change sink's batches fold into " + sinkFold.get(c) + ", rows are " + want;
    }
    List<Row> window = windowFold.get(c);
    if (window != null && !window.equals(rows)) {
      return c.name() + ": window steps fold into " + window + ", rows are " + rows;
    }
    for (TreeBatch b : treeSinks.get(c).take()) {
      foldTree(c, c.name() + " tree sink", treeSinkFold.get(c), b);
    }
    boolean ordered = c instanceof LiveQuery q && q.ordered();
    if (!c.shape().relationships().isEmpty()) {
      return null; // a nested result's tree is checked against its rows by NestedTreeFaceTest
    }
    for (TreeFold f : List.of(treeFold.get(c), treeSinkFold.get(c))) {
      String who = c.name() + (f == treeFold.get(c) ? " tree" : " tree sink");
      if (f.nodes().stream().anyMatch(n -> !n.relationships().isEmpty())) {
        return who + ": a flat result folds into nodes with relationships " + f.nodes();
      }
      if (ordered ? !f.rows().equals(rows) : !counts(f.rows()).equals(want)) {
        return who + ": change-tree batches fold into " + f.rows() + ", rows are " + rows;
      }
    }
    return null;
  }

  private static Map<Row, Integer> counts(List<Row> rows) {
    Map<Row, Integer> out = new HashMap<>();
    for (Row r : rows) {
      out.merge(r, 1, Integer::sum);
    }
    return out;
  }

  /** Checks a delivery's transaction id: one per subscription, increasing; records it. */
  private void tx(String subscription, long txId, boolean initial) {
    Long last = lastTx.put(subscription, txId);
    if (last != null && txId <= last) {
      errors.add(subscription + ": transaction " + txId + " delivered after " + last);
    }
    if (!initial) {
      delivered.add(txId);
    }
  }

  /** Records a row handed out whose values do not have their columns' Java classes. */
  private void typed(String who, BaseCollection c, Row row) {
    String m = JavaTypes.mismatch(typing.apply(c), row);
    if (m != null) {
      errors.add(who + ": " + m);
    }
  }

  private void fold(BaseCollection c, String who, Map<Row, Integer> f, ChangeBatch b) {
    for (Change ch : b.changes()) {
      typed(who, c, ch.row());
      if (ch instanceof Change.Edit e) {
        typed(who, c, e.old());
      }
      if (b instanceof ChangeBatch.Hydrated && !(ch instanceof Change.Add)) {
        errors.add(who + ": hydrated with " + ch);
      }
      if (ch instanceof Change.Add a) {
        f.merge(a.row(), 1, Integer::sum);
      } else if (ch instanceof Change.Remove r) {
        remove(who, f, r.row(), ch);
      } else {
        Change.Edit e = (Change.Edit) ch;
        if (e.row().equals(e.old())) {
          errors.add(who + ": an edit that changes nothing: " + e);
        }
        remove(who, f, e.old(), ch);
        f.merge(e.row(), 1, Integer::sum);
      }
    }
  }

  private void remove(String who, Map<Row, Integer> f, Row row, Change ch) {
    Integer n = f.get(row);
    if (n == null) {
      errors.add(who + ": " + ch + " of a row that is not there");
    } else if (n == 1) {
      f.remove(row);
    } else {
      f.put(row, n - 1);
    }
  }

  private void onWindow(LiveQuery q, WindowBatch b) {
    tx(q.name() + " window", b.txId(), !lastTx.containsKey(q.name() + " window"));
    List<Row> w = windowFold.get(q);
    for (WindowDelta d : b.deltas()) {
      typed(q.name() + " window", q, d.row());
      typed(q.name() + " window", q, d.old());
      String bad = null;
      switch (d.op()) {
        case RESET -> w.clear();
        case ENTER -> {
          if (d.newIndex() < 0 || d.newIndex() > w.size()) {
            bad = "index out of range";
          } else {
            w.add(d.newIndex(), d.row());
          }
        }
        case LEAVE -> {
          if (d.oldIndex() < 0 || d.oldIndex() >= w.size() || !w.get(d.oldIndex()).equals(d.row())) {
            bad = "does not name the row at its index";
          } else {
            w.remove(d.oldIndex());
          }
        }
        case MOVE, UPDATE -> {
          if (d.oldIndex() < 0 || d.oldIndex() >= w.size() || !w.get(d.oldIndex()).equals(d.old())) {
            bad = "does not name the row at its index";
          } else if (d.op() == WindowDelta.Op.UPDATE && d.oldIndex() != d.newIndex()) {
            bad = "an update that moves";
          } else {
            w.remove(d.oldIndex());
            if (d.newIndex() < 0 || d.newIndex() > w.size()) {
              bad = "index out of range";
            } else {
              w.add(d.newIndex(), d.row());
            }
          }
        }
      }
      if (bad == null && d.op() != WindowDelta.Op.RESET
          && (d.key() == null || d.cursor() == null || d.version() != b.txId())) {
        bad = "missing key or cursor, or a version other than the batch's transaction";
      }
      if (bad != null) {
        errors.add(q.name() + " window: " + d + " " + bad + " (window " + w + ")");
        return;
      }
    }
  }

  /** The first broken event rule so far, or null. */
  String firstError() {
    return errors.isEmpty() ? null : errors.get(0) + (errors.size() > 1 ? " (and " + (errors.size() - 1) + " more)" : "");
  }

  /** The rows {@code c}'s events fold into (key to row). */
  Map<Row, Row> folded(BaseCollection c) {
    return folded.get(c);
  }

  private void onKeyed(BaseCollection c, KeyedBatch b) {
    tx(c.name() + " keyed", b.txId(), b.initial());
    for (ChangeEvent e : b.events()) {
      typed(c.name() + " keyed", c, e.value());
      typed(c.name() + " keyed", c, e.previous());
    }
    if (b.initial()) {
      Map<Row, Row> f = new HashMap<>();
      for (ChangeEvent e : b.events()) {
        if (e.type() != ChangeEvent.Type.INSERT || f.put(e.key(), e.value()) != null) {
          errors.add(c.name() + ": bad initial state event " + e);
        }
      }
      folded.put(c, f);
      return;
    }
    onEvents(c, b.events());
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
