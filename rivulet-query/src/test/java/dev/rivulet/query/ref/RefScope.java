package dev.rivulet.query.ref;

import dev.rivulet.query.Expr;

/** Where the reference finds a column of the row it evaluates over: its position and type. */
@FunctionalInterface
public interface RefScope {
  /** One resolved column. */
  record Slot(int index, RefType type) {}

  /** The slot of {@code col}; throws {@link IllegalArgumentException} for an unknown column. */
  Slot slot(Expr.Col col);
}
