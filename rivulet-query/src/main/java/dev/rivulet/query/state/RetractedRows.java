package dev.rivulet.query.state;

import dev.rivulet.engine.Row;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * The stored rows a result change retracts, by identity, while a live query installs the change:
 * an insertion that replaces one of them takes it out ({@link #remove}); the rest are removed from
 * the result. A scan while small (the usual one or two rows), an identity set once large.
 *
 * <p>Not thread-safe: scratch state of one live query, guarded by its database's monitor.
 */
public final class RetractedRows implements Iterable<Row> {
  private static final int SCAN = 16;
  private final List<Row> small = new ArrayList<>();
  private Set<Row> large; // replaces the list once there are more than SCAN rows

  public void add(Row stored) {
    if (large != null) {
      large.add(stored);
      return;
    }
    small.add(stored);
    if (small.size() > SCAN) {
      large = Collections.newSetFromMap(new IdentityHashMap<>());
      large.addAll(small);
      small.clear();
    }
  }

  public boolean isEmpty() {
    return large != null ? large.isEmpty() : small.isEmpty();
  }

  /** Takes {@code stored} out; whether it was here. */
  public boolean remove(Row stored) {
    if (large != null) {
      return large.remove(stored);
    }
    for (int i = 0; i < small.size(); i++) {
      if (small.get(i) == stored) {
        Row last = small.remove(small.size() - 1);
        if (i < small.size()) {
          small.set(i, last);
        }
        return true;
      }
    }
    return false;
  }

  @Override
  public Iterator<Row> iterator() {
    return large != null ? large.iterator() : small.iterator();
  }

  /**
   * The rows while few (at most {@value #SCAN}, the usual run's), read by index without an
   * iterator; null once they are kept in a set ({@link #iterator} then).
   */
  public List<Row> few() {
    return large == null ? small : null;
  }

  /** Empties this for the next run; a set grown by a large run is let go. */
  public void clear() {
    large = null;
    small.clear();
  }
}
