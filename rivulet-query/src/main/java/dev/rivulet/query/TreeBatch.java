package dev.rivulet.query;

import java.util.List;

/**
 * What the change-tree face delivers: once the whole current result as {@link CaughtChange.Add}s
 * ({@code hydrated}), then per transaction exactly that transaction's changes, tagged with its id.
 *
 * @param txId the transaction the batch reflects
 * @param hydrated whether this is the initial result
 */
public record TreeBatch(long txId, boolean hydrated, List<CaughtChange> changes) {
  public TreeBatch {
    changes = List.copyOf(changes);
  }
}
