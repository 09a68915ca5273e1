package dev.rivulet.query;

import dev.rivulet.engine.Row;
import java.util.Objects;

/**
 * One row-level change to a source collection, the input side of the change-tree face: {@code
 * SourceCollection.apply} takes a list of them as one transaction.
 */
public sealed interface SourceChange {
  /** Insert {@code row} (its key must be absent). */
  record Add(Row row) implements SourceChange {
    public Add {
      Objects.requireNonNull(row, "row");
    }
  }

  /** Delete {@code row} (the row with its key must be present). */
  record Remove(Row row) implements SourceChange {
    public Remove {
      Objects.requireNonNull(row, "row");
    }
  }

  /** Replace {@code old} with {@code row}, which has the same key. */
  record Edit(Row row, Row old) implements SourceChange {
    public Edit {
      Objects.requireNonNull(row, "row");
      Objects.requireNonNull(old, "old");
    }
  }
}
