package dev.rivulet.query;

import java.util.ArrayList;
import java.util.List;

/**
 * What one collection publishes for one transaction, built once and shared by its subscribers:
 * the net change per key as keyed events, the same as {@link Change}s (made on first use), and,
 * for an ordered live query with window subscribers, the window's steps.
 *
 * <p>Immutable once built (the lazy list is made under the database's monitor, where every
 * publication is handed out).
 */
final class Publication {
  final long txId;
  final List<ChangeEvent> events;
  final List<WindowDelta> window; // null when nobody subscribes to the window
  private List<Change> changes;

  Publication(long txId, List<ChangeEvent> events, List<WindowDelta> window) {
    this.txId = txId;
    this.events = events;
    this.window = window;
  }

  List<Change> changes() {
    if (changes == null) {
      changes = toChanges(events);
    }
    return changes;
  }

  static List<Change> toChanges(List<ChangeEvent> events) {
    List<Change> out = new ArrayList<>(events.size());
    for (ChangeEvent e : events) {
      out.add(switch (e.type()) {
        case INSERT -> new Change.Add(e.value());
        case DELETE -> new Change.Remove(e.previous());
        case UPDATE -> new Change.Edit(e.value(), e.previous());
      });
    }
    return List.copyOf(out);
  }
}
