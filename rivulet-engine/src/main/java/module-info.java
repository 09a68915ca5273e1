/**
 * Rivulet's incremental dataflow engine: weighted multisets, the graph and its run loop, the
 * operators. Its public API is {@code dev.rivulet.engine}; the ordered and keyed state structures
 * are internal, and the shortcuts the query layer uses are exported to it alone.
 */
module dev.rivulet.engine {
  requires java.sql; // values given as java.sql.Date / Timestamp are accepted and made canonical

  exports dev.rivulet.engine;
  exports dev.rivulet.engine.internal to dev.rivulet.query;
}
