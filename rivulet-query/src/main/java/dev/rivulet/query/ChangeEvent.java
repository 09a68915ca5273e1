package dev.rivulet.query;

import dev.rivulet.engine.Row;

/**
 * One change of a collection's keyed rows, as published after a transaction.
 *
 * @param type insert, update or delete
 * @param key the row's key
 * @param value the new row (null for a delete)
 * @param previous the row before (null for an insert)
 */
public record ChangeEvent(Type type, Row key, Row value, Row previous) {
  /** Kinds of change. */
  public enum Type { INSERT, UPDATE, DELETE }
}
