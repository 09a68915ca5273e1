package dev.rivulet.query;

import dev.rivulet.engine.Output;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.internal.EngineAccess;
import dev.rivulet.query.face.Delivery;
import dev.rivulet.query.face.Publication;
import dev.rivulet.query.face.WindowSteps;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The order of an ordered live query's result and its window face: the stored rows in window
 * order, kept by splicing each positioned change of the graph's output; the window subscribers;
 * and, while any subscribes, each transaction's {@link WindowDelta} steps. While the query is
 * failed (and can recover), the order of the full result is kept aside and becomes the window
 * when it recovers (subscribers then receive a reset).
 *
 * <p>Guarded by the owning database's monitor.
 */
final class ResultOrder {
  private static final EngineAccess ENGINE = EngineAccess.get();
  private final LiveQuery query;
  private final int[] order; // the columns of a stored row's cursor
  private WindowSteps.View view; // made when a face first needs steps: see view()
  private List<Row> window = new ArrayList<>();
  private List<Row> failedWindow; // while the query is failed and can recover
  private int subscribers;
  private List<WindowDelta> steps; // this transaction's, while someone subscribes
  private List<WindowDelta> treeSteps; // a recovery's diff for the change-tree face (steps is a reset)

  ResultOrder(LiveQuery query, int[] order) {
    this.query = query;
    this.order = order;
  }

  /**
   * How the steps show a stored row: made on first use, so that a query nobody watches by window
   * or change tree does not load the view's class.
   */
  private WindowSteps.View view() {
    if (view == null) {
      view = new WindowSteps.View() {
        @Override
        public Row visible(Row stored) {
          return query.publicRow(stored);
        }

        @Override
        public Row key(Row stored) {
          return query.keyOf(stored);
        }

        @Override
        public Cursor cursor(Row stored) {
          return cursorOf(stored);
        }
      };
    }
    return view;
  }

  /** The cursor of a stored row: its sort-key values, then its key. */
  Cursor cursorOf(Row stored) {
    Object[] values = new Object[order.length];
    for (int i = 0; i < order.length; i++) {
      values[i] = stored.get(order[i]);
    }
    return Cursor.ofCanonical(values);
  }

  /** The stored rows in order (live: the caller must not keep it past the monitor). */
  List<Row> rows() {
    return window;
  }

  /**
   * Applies the run's positioned change, which the query installs: first, while window or
   * change-tree subscribers exist, turns it into this transaction's steps.
   */
  void apply(Output output) {
    if (subscribers > 0 || query.treeSubscribed()) {
      WindowSteps s = new WindowSteps(view(), query.db.lastTxId());
      for (int i = 0; i < ENGINE.deltaSize(output); i++) {
        if (ENGINE.deltaWeight(output, i) < 0) {
          s.removed(ENGINE.deltaRow(output, i), ENGINE.deltaPosition(output, i));
        } else {
          s.added(ENGINE.deltaRow(output, i), ENGINE.deltaPosition(output, i));
        }
      }
      steps = s.steps();
    }
    ENGINE.spliceDeltaInto(output, window);
  }

  /** The query failed on this run's change: the window stays, the full result's order is kept aside. */
  void failed(Output output) {
    steps = null;
    treeSteps = null;
    failedWindow = new ArrayList<>(window);
    ENGINE.spliceDeltaInto(output, failedWindow);
  }

  /** The query failed before this run (a source did): the window stays, its order is kept aside. */
  void freeze() {
    steps = null;
    treeSteps = null;
    failedWindow = new ArrayList<>(window);
  }

  /** The query failed for good: the order kept aside is dropped. */
  void abandonFailed() {
    failedWindow = null;
  }

  /** While failed: a later run's change. */
  void applyWhileFailed(Output output) {
    ENGINE.spliceDeltaInto(output, failedWindow);
  }

  /**
   * The query recovered: the full result's order is the window; window subscribers get a reset,
   * change-tree subscribers the steps from the window they saw.
   */
  void recovered(long txId) {
    List<Row> seen = window;
    window = failedWindow;
    failedWindow = null;
    if (subscribers > 0) {
      steps = WindowSteps.reset(window, view(), txId);
    }
    if (query.treeSubscribed()) {
      treeSteps = WindowSteps.diff(seen, window, view(), txId);
    }
  }

  /** Drops this transaction's steps (the query failed). */
  void discardSteps() {
    steps = null;
    treeSteps = null;
  }

  /** This transaction's steps for the change-tree face, not taken (see {@link #takeSteps}). */
  List<WindowDelta> treeSteps() {
    List<WindowDelta> out = treeSteps != null ? treeSteps : steps;
    treeSteps = null;
    return out;
  }

  /**
   * This transaction's steps, taken; null when nobody subscribes. The change-tree face's (see
   * {@link #treeSteps}) are dropped too: the publication reads them first.
   */
  List<WindowDelta> takeSteps() {
    List<WindowDelta> out = steps;
    steps = null;
    treeSteps = null;
    return out;
  }

  /** Registers a window subscriber: its first delivery is a reset to the current window. */
  Subscriber<WindowBatch> register(SubscribeOptions options, Consumer<WindowBatch> listener,
      Function<Delivery<WindowBatch>, WindowBatch> resetter) {
    return query.register(options.withInitialState(), listener, resetter, false, txId -> {
      subscribers++;
      List<Row> now = new ArrayList<>(window);
      return () -> new WindowBatch(txId, WindowSteps.reset(now, view(), txId));
    }, ResultOrder::batch);
  }

  /** Makes a window mailbox (of a reanchored window) follow this query. */
  Subscriber<WindowBatch> adopt(Delivery<WindowBatch> delivery) {
    Subscriber<WindowBatch> s = new Subscriber<>(query, ResultOrder::batch, delivery, query.db.lastTxId(), false);
    query.attach(s);
    subscribers++;
    return s;
  }

  /** Stops a window subscriber. */
  void drop(Subscriber<WindowBatch> s) {
    if (query.detach(s)) {
      subscribers--;
    }
  }

  private static WindowBatch batch(Publication p) {
    return p.window == null || p.window.isEmpty() ? null : new WindowBatch(p.txId, p.window);
  }

  /** A reset to the current window (caller holds the monitor). */
  WindowBatch reset(long txId) {
    return new WindowBatch(txId, WindowSteps.reset(window, view(), txId));
  }

  WindowSnapshot snapshot(long txId) {
    List<WindowSnapshot.Entry> out = new ArrayList<>(window.size());
    for (int i = 0; i < window.size(); i++) {
      Row full = window.get(i);
      out.add(new WindowSnapshot.Entry(i, query.keyOf(full), query.publicRow(full), cursorOf(full)));
    }
    return new WindowSnapshot(txId, out);
  }

  /** The steps from this window to {@code next}'s (a reanchor). */
  List<WindowDelta> diffTo(ResultOrder next, long txId) {
    return WindowSteps.diff(window, next.window, next.view(), txId);
  }
}
