package dev.rivulet.engine;

import java.util.function.Consumer;

/**
 * A relation's current rows, each once, handed over one by one (a collection's rows for an
 * operator that indexes them itself, see {@link Stream#semiJoin}). Read under the caller's lock.
 */
public interface RowSource {
  /** How many rows {@link #forEachRow} gives. */
  int size();

  /** Calls {@code sink} with every row, once per unit of its multiplicity. */
  void forEachRow(Consumer<Row> sink);
}
