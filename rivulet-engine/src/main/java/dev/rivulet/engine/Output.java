package dev.rivulet.engine;

/** Handle on a graph output: the change of the last {@link Graph#run}. */
public final class Output {
  private final String name;
  private final OutputSink sink;

  Output(String name, OutputSink sink) {
    this.name = name;
    this.sink = sink;
  }

  public String name() {
    return name;
  }

  public Schema schema() {
    return sink.schema;
  }

  /**
   * The change of the last run: consolidated, or, when the output is an order/top-K window,
   * positioned as described in {@link ZSet}.
   */
  public ZSet delta() {
    return sink.delta();
  }

  /** Number of entries in the last change, without materializing it. */
  public int deltaSize() {
    return sink.collected.size;
  }
}
