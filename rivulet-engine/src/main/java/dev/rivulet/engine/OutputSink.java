package dev.rivulet.engine;

/**
 * A named graph output: collects the change its upstream emitted in one run. A positioned change
 * (from an order/top-K operator) is kept as emitted; any other is consolidated.
 */
final class OutputSink extends Operator {
  final Delta collected = new Delta();
  private ZSet snapshot = ZSet.empty();

  OutputSink(Operator upstream) {
    super("output", upstream.schema, upstream);
  }

  @Override
  void step() {
    Delta in = inputs[0];
    examined += in.size;
    for (int i = 0; i < in.size; i++) {
      if (in.positions != null) {
        collected.add(in.rows[i], in.weights[i], in.positions[i]);
      } else {
        collected.add(in.rows[i], in.weights[i]);
      }
    }
  }

  void beginRun() {
    collected.clear();
    snapshot = null;
  }

  void endRun() {
    if (collected.positions == null) {
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
