package dev.rivulet.query;

import dev.rivulet.engine.Row;
import java.util.Objects;

/**
 * One change of a result in the change-batch face: a row added, a row removed, or a row edited in
 * place (same key, new values). Rows are immutable and fully owned, safe to hand to another thread.
 * Nested results will add a {@code Child(row, relationship, change)} variant for a change inside a
 * row's relationship; a consumer's switch over this sealed type then names it.
 */
public sealed interface Change {
  /** The row after the change ({@link Remove}: the removed row). */
  Row row();

  /** A row that was not in the result is. */
  record Add(Row row) implements Change {
    public Add {
      Objects.requireNonNull(row, "row");
    }
  }

  /** A row that was in the result is not. */
  record Remove(Row row) implements Change {
    public Remove {
      Objects.requireNonNull(row, "row");
    }
  }

  /** The row with {@code old}'s key now holds {@code row}. */
  record Edit(Row row, Row old) implements Change {
    public Edit {
      Objects.requireNonNull(row, "row");
      Objects.requireNonNull(old, "old");
    }
  }
}
