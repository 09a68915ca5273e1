package dev.rivulet.bench;

import dev.rivulet.engine.Row;

/**
 * A seeded sequence of single-row updates against an {@link Issues} copy. The driver asks for
 * {@link #next}, sends {@code (before, after)} to the graph, applies {@code after} to the data and
 * then calls {@link #applied}; everything here runs outside the timed section.
 */
interface UpdateStream {
  /** The new version of one row of the data's current rows; the data is not changed. */
  Row next();

  /** Told after {@code after} replaced {@code before} in the data (to keep any side index current). */
  default void applied(Row before, Row after) {}
}
