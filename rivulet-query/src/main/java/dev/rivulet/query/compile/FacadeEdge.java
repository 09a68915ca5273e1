package dev.rivulet.query.compile;

import dev.rivulet.engine.Row;
import java.util.Comparator;

/**
 * A collection include as the facade adapter needs it: the graph output of its routed buckets (the
 * distinct correlation values its parents route to, NULL ones included) and the output of the child rows of
 * active buckets (each holding its bucket's values at {@code partition}, its key at {@code keys}),
 * ordered among their bucket by {@code order}.
 *
 * @param nest the include, as the result's {@link RowShape} holds it
 * @param element the columns of a child row's element form (visible columns, then key)
 */
public record FacadeEdge(RowShape.Nest nest, String activeOutput, String rowsOutput, int[] partition, int[] keys,
    int[] element, Comparator<Row> order) {}
