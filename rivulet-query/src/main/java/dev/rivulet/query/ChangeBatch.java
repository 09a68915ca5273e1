package dev.rivulet.query;

import java.util.List;

/**
 * What a change-batch subscriber receives: {@link Hydrated} once (the result when it subscribed,
 * as {@link Change.Add}s), then one {@link Changed} per later transaction that changed the result.
 * Folding the changes of every batch, in order, into the hydrated rows gives the result after the
 * last batch's transaction (the reconstruction invariant). Transaction ids strictly increase.
 */
public sealed interface ChangeBatch {
  /** The id of the transaction whose state this batch reaches. */
  long txId();

  /** The changes, in no particular order; each key at most once. Immutable. */
  List<Change> changes();

  /** The result at transaction {@code txId}, as additions. */
  record Hydrated(long txId, List<Change> changes) implements ChangeBatch {
    public Hydrated {
      changes = List.copyOf(changes);
    }
  }

  /** The net change of transaction {@code txId}. */
  record Changed(long txId, List<Change> changes) implements ChangeBatch {
    public Changed {
      changes = List.copyOf(changes);
    }
  }
}
