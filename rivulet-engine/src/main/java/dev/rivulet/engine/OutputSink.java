package dev.rivulet.engine;

/**
 * A named graph output: collects the change its upstream emitted in one run. A positioned change
 * (from an order/top-K operator) is kept as emitted; any other is consolidated, except an
 * insert-only change of a keyed output ({@link GraphBuilder#keyedOutput}), which is kept as
 * emitted: its consumer installs rows by key and rejects two rows of one key either way, so
 * summing equal rows by hash would change nothing it does. The run's first unpositioned batch is
 * taken over whole ({@link Delta#takeOver}, unit weights kept), not copied entry by entry.
 */
final class OutputSink extends Operator {
  final Delta collected = new Delta();
  private ZSet snapshot = ZSet.empty();
  private final boolean keyed;
  private boolean retracting; // the run's change has a weight below 1

  OutputSink(Operator upstream) {
    this(upstream, false);
  }

  OutputSink(Operator upstream, boolean keyed) {
    super("output", upstream.schema, upstream);
    this.keyed = keyed;
  }

  @Override
  boolean readsUnitWeights() {
    return true; // a batch taken over whole keeps them; the copying loop materializes
  }

  @Override
  void step() {
    Delta in = inputs[0];
    examined += in.size;
    if (in.positions == null && collected.isEmpty()) {
      // The run's first batch, unpositioned (a hydration's whole result): taken over, not copied.
      for (int i = 0; !in.unitWeights() && i < in.size; i++) {
        retracting |= in.weights[i] < 1;
      }
      collected.takeOver(in);
      handOffs++;
      return;
    }
    in.materialize();
    for (int i = 0; i < in.size; i++) {
      if (in.positions != null) {
        collected.add(in.rows[i], in.weights[i], in.positions[i]);
      } else {
        collected.add(in.rows[i], in.weights[i]);
      }
      retracting |= in.weights[i] < 1;
    }
  }

  void beginRun() {
    collected.clear();
    snapshot = null;
    retracting = false;
  }

  void endRun() {
    if (collected.positions == null && (retracting || !keyed)) {
      collected.consolidate();
    }
  }

  ZSet delta() {
    if (snapshot == null) {
      snapshot = collected.toZSet();
    }
    return snapshot;
  }

  @Override
  long retained() {
    return 0;
  }
}
