package dev.rivulet.query.face;

import dev.rivulet.query.Change;
import dev.rivulet.query.ChangeEvent;
import dev.rivulet.query.WindowDelta;
import java.util.List;

/**
 * What one collection publishes for one transaction, built once and shared by its subscribers:
 * the net change per key as keyed events, the same as {@link Change}s (made on first use), and,
 * for an ordered live query with window subscribers, the window's steps; and, while change-tree
 * subscribers exist, the net change per key as stored rows and (ordered live queries) the steps
 * that place them, never a reset.
 *
 * <p>Immutable once built (the lazy list is made under the database's monitor, where every
 * publication is handed out).
 */
public final class Publication {
  public final long txId;
  public final List<ChangeEvent> events;
  public final List<WindowDelta> window; // null when nobody subscribes to the window
  public final List<StoredChange> stored; // null when nobody subscribes to the change tree
  public final List<WindowDelta> positions; // the tree's root steps; null unless ordered and stored
  private List<Change> changes;

  public Publication(long txId, List<ChangeEvent> events, List<WindowDelta> window, List<StoredChange> stored,
      List<WindowDelta> positions) {
    this.txId = txId;
    this.events = events;
    this.window = window;
    this.stored = stored;
    this.positions = positions;
  }

  public List<Change> changes() {
    if (changes == null) {
      changes = toChanges(events);
    }
    return changes;
  }

  public static List<Change> toChanges(List<ChangeEvent> events) {
    // An immutable list (ChangeBatch keeps it without copying), made from an exact array, no
    // iterator; one change (an update's) without the array.
    if (events.size() == 1) {
      return List.of(change(events.get(0)));
    }
    Change[] out = new Change[events.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = change(events.get(i));
    }
    return List.of(out);
  }

  private static Change change(ChangeEvent e) {
    return switch (e.type()) {
      case INSERT -> new Change.Add(e.value());
      case DELETE -> new Change.Remove(e.previous());
      case UPDATE -> new Change.Edit(e.value(), e.previous());
    };
  }
}
