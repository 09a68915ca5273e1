package dev.rivulet.query.compile;

import dev.rivulet.query.Source;
import dev.rivulet.query.SubsetRequest;
import java.util.List;

/**
 * A read of a lazily loaded source that a live query's demand adapter serves: the graph output
 * of the demanded values (an include's active buckets: the distinct non-NULL correlation values
 * of its parents) and the source columns they are values of. A read that is not correlated (the
 * root, or a join inside a block) demands the whole source: no output, no columns.
 *
 * <p>{@code order} and {@code limit} are what the read's block keeps of each value's rows when
 * nothing between the source and the block's window changes which rows there are ({@link
 * DemandPushdown}): then a request need only load each value's first {@code limit} rows in that
 * order that pass {@code filter} (the block's where over the source's rows; null: every row).
 * Otherwise no order and {@link SubsetRequest#UNLIMITED}.
 *
 * @param output the graph output of the demanded values, or null for a whole-source read
 */
public record DemandEdge(String output, Source source, List<String> columns, List<SubsetRequest.Order> order,
    int limit, java.util.function.Predicate<dev.rivulet.engine.Row> filter) {
  public DemandEdge {
    columns = List.copyOf(columns);
    order = List.copyOf(order);
  }

  /** A read of whole values (or of the whole source), in no order. */
  public DemandEdge(String output, Source source, List<String> columns) {
    this(output, source, columns, List.of(), SubsetRequest.UNLIMITED, null);
  }

  /** This read with the order and limit {@code window} allows (null: unchanged). */
  DemandEdge pushed(DemandPushdown.Window window) {
    return window == null ? this
        : new DemandEdge(output, source, columns, window.order(), window.limit(), window.filter());
  }
}
