package dev.rivulet.query;

import dev.rivulet.engine.Row;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A row of a (possibly nested) result with its relationships: {@code row} holds the row's scalar
 * columns (every select column that is not a relationship, a concatenation included), and {@code
 * relationships} maps each relationship slot (the index of an array, one or collection include
 * among the query's relationship includes, in select order; see {@link
 * LiveQuery#relationships()}) to its child nodes in the child query's order. A flat query's nodes
 * have no relationships. Immutable and fully owned.
 *
 * <p>A collection include's slot holds its bucket's rows (in the child's order); a later change
 * inside the bucket arrives as a {@link CaughtChange.Child} change of every node showing the
 * bucket, in the batch of the transaction that made it. A removed node shows its buckets as the
 * subscriber has them (before the transaction), so it equals the node a consumer folded.
 */
public record CaughtNode(Row row, SortedMap<Integer, List<CaughtNode>> relationships) {
  public CaughtNode {
    Objects.requireNonNull(row, "row");
    TreeMap<Integer, List<CaughtNode>> copy = new TreeMap<>();
    relationships.forEach((k, v) -> copy.put(k, List.copyOf(v)));
    relationships = Collections.unmodifiableSortedMap(copy);
  }

  /** A node without relationships. */
  public CaughtNode(Row row) {
    this(row, new TreeMap<>());
  }
}
