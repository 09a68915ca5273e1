package dev.rivulet.query.compile;

import dev.rivulet.query.Source;
import java.util.List;

/**
 * A read of a lazily loaded source that a live query's demand adapter serves: the graph output
 * of the demanded values (an include's active buckets: the distinct non-NULL correlation values
 * of its parents) and the source columns they are values of. A read that is not correlated (the
 * root, or a join inside a block) demands the whole source: no output, no columns.
 *
 * @param output the graph output of the demanded values, or null for a whole-source read
 */
public record DemandEdge(String output, Source source, List<String> columns) {
  public DemandEdge {
    columns = List.copyOf(columns);
  }
}
