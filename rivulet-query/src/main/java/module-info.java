/**
 * Rivulet's query layer: the query builder, live collections and live queries, transactions and
 * the three output faces. Its public API is the package {@code dev.rivulet.query}; the compiler,
 * expressions, collection state and face machinery are internal.
 */
module dev.rivulet.query {
  requires transitive dev.rivulet.engine;

  exports dev.rivulet.query;
}
