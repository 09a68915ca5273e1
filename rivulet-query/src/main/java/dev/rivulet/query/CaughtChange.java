package dev.rivulet.query;

import dev.rivulet.engine.Row;
import java.util.Objects;

/**
 * One change of a result in the change-tree face: a node added or removed, a row edited in place,
 * or a change inside one relationship of a row that stays. Fully owned, safe to hand to another
 * thread.
 *
 * <p>Indexes follow the window face's convention: the changes of one list (the root of an ordered
 * query, or one relationship's children) apply in order, each index into the list as it stands.
 * A {@link Remove}'s index is where the node was, an {@link Add}'s where it goes; -1 where the list
 * has no order (the root of a query without order by). A row whose position or relationships
 * change while its scalar columns change too is a Remove then an Add; an {@link Edit} keeps the
 * row's position and its relationships.
 *
 * <p>An {@link Edit} or {@link Child} names its row by value (its scalar columns), so one is
 * emitted only where no sibling in the list as it stands shows the same row; where one does, the
 * row is replaced instead (a Remove and an Add, placed by index in an ordered list and by the
 * whole node in an unordered one).
 */
public sealed interface CaughtChange {
  /** A node (a row and its relationships) that was not in the list is, at {@code index}. */
  record Add(CaughtNode node, int index) implements CaughtChange {
    public Add {
      Objects.requireNonNull(node, "node");
    }
  }

  /** A node that was in the list at {@code index} is not. */
  record Remove(CaughtNode node, int index) implements CaughtChange {
    public Remove {
      Objects.requireNonNull(node, "node");
    }
  }

  /** The row {@code old} (same key, same position, same relationships) now holds {@code row}. */
  record Edit(Row old, Row row) implements CaughtChange {
    public Edit {
      Objects.requireNonNull(old, "old");
      Objects.requireNonNull(row, "row");
    }
  }

  /**
   * Inside relationship {@code relationship} of the row {@code row} (which stays, unchanged), the
   * children changed by {@code change}, itself possibly a {@code Child} change one level deeper.
   */
  record Child(Row row, int relationship, CaughtChange change) implements CaughtChange {
    public Child {
      Objects.requireNonNull(row, "row");
      Objects.requireNonNull(change, "change");
    }
  }
}
