package dev.rivulet.query.compile;

import dev.rivulet.engine.Schema;
import dev.rivulet.engine.Stream;

/**
 * A compiled query: the engine stream of its result and how its rows are laid out. The first
 * {@code visible.width()} columns of each row are the visible result; {@code keys} are the
 * indexes of the columns whose tuple is the row's key (they may overlap the visible ones, and
 * hidden columns may follow). An ordered result is positioned (see {@code ZSet}).
 *
 * @param stream the result's stream in the graph
 * @param visible the visible columns
 * @param keys indexes of the key columns within each row
 * @param ordered whether the stream is a positioned window
 * @param order for an ordered result, the indexes of the columns of its total order (the sort
 *     keys, then the key columns): a row's cursor; else empty
 */
public record Compiled(Stream stream, Schema visible, int[] keys, boolean ordered, int[] order) {
  Compiled(Stream stream, Schema visible, int[] keys) {
    this(stream, visible, keys, false, new int[0]);
  }
}
