package dev.rivulet.query;

import java.util.List;

/**
 * One delivery of the live-window face: the steps that take the window from its state after the
 * previous delivery to its state after transaction {@code txId}. The first delivery of a
 * subscription, and any delivery after which the consumer must start over, begins with a {@link
 * WindowDelta.Op#RESET} followed by an {@code ENTER} per row in order.
 *
 * @param txId the transaction whose window this delivery reaches
 * @param deltas the steps, applied in order (see {@link WindowDelta}); immutable
 */
public record WindowBatch(long txId, List<WindowDelta> deltas) {
  public WindowBatch {
    deltas = List.copyOf(deltas);
  }

  /** Whether this delivery starts over. */
  public boolean isReset() {
    return !deltas.isEmpty() && deltas.get(0).op() == WindowDelta.Op.RESET;
  }
}
