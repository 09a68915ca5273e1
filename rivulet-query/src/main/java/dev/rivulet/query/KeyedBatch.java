package dev.rivulet.query;

import java.util.List;

/**
 * One delivery of the keyed-event face: the net change per key of transaction {@code txId}, or,
 * when {@code initial}, the rows at {@code txId} as inserts (a subscription asked for its initial
 * state).
 *
 * @param txId the transaction whose state the events reach
 * @param initial whether this is the initial state rather than a transaction's change
 * @param events the events, each key at most once; immutable
 */
public record KeyedBatch(long txId, boolean initial, List<ChangeEvent> events) {
  public KeyedBatch {
    events = List.copyOf(events);
  }
}
