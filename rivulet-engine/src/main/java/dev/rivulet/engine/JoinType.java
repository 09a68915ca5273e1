package dev.rivulet.engine;

/**
 * Kinds of keyed equi-join. Keys compare with SQL semantics: a key with a null column matches
 * nothing. Output rows are the left columns followed by the right columns, except {@link #ANTI},
 * whose output is the left rows that have no match.
 */
public enum JoinType {
  INNER,
  /** Every left row; right columns null where it has no match. */
  LEFT,
  /** Every right row; left columns null where it has no match. */
  RIGHT,
  /** Every row of both sides; the other side's columns null where there is no match. */
  FULL,
  /** Left rows with no match on the right (SQL {@code NOT EXISTS}). */
  ANTI
}
