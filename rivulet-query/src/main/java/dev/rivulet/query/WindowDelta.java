package dev.rivulet.query;

import dev.rivulet.engine.Row;

/**
 * One step of the live-window face. A consumer keeps the window as a list and applies each delta
 * in order; every index is into the list as it stands when that delta is applied:
 *
 * <ul>
 *   <li>{@code RESET}: clear the list (the {@code ENTER}s that follow rebuild it);
 *   <li>{@code ENTER}: insert {@code row} at {@code newIndex};
 *   <li>{@code LEAVE}: remove the row at {@code oldIndex};
 *   <li>{@code MOVE}: remove the row at {@code oldIndex}, then insert {@code row} (its new value,
 *       which may equal {@code old}) at {@code newIndex} of the list without it;
 *   <li>{@code UPDATE}: replace the row at {@code oldIndex} (== {@code newIndex}) with {@code row}.
 * </ul>
 *
 * @param op the kind of step
 * @param row the new row (ENTER, MOVE, UPDATE), or the leaving row (LEAVE); null for RESET
 * @param old the row before (MOVE, UPDATE, LEAVE), else null
 * @param key the row's result key (null for RESET)
 * @param oldIndex the index before (LEAVE, MOVE, UPDATE), else -1
 * @param newIndex the index after (ENTER, MOVE, UPDATE), else -1
 * @param cursor the row's position in the total order after the step (before, for LEAVE); null
 *     for RESET
 * @param version the id of the transaction that produced this step; a consumer that has applied
 *     a later version may discard it
 */
public record WindowDelta(Op op, Row row, Row old, Row key, int oldIndex, int newIndex, Cursor cursor, long version) {
  /** The kinds of step. */
  public enum Op { RESET, ENTER, LEAVE, MOVE, UPDATE }
}
