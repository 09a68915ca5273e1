package dev.rivulet.query.state;

import dev.rivulet.engine.Row;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The full result of a live query that failed (on a duplicate key, or because a source did),
 * kept while it is in error so that it can recover: every row the graph emits with its weight, grouped by key, and the keys
 * that are not valid (more than one row, a weight other than 1, or a conflict row). The result is valid again
 * when no key is.
 *
 * <p>Not thread-safe: owned by one live query, guarded by its database's monitor.
 */
public final class ResultConflicts {
  private final Function<Row, Row> keyOf;
  private final java.util.function.Predicate<Row> conflicted;
  private final Map<Row, Map<Row, Long>> byKey = new HashMap<>();
  private final Set<Row> invalid = new HashSet<>();

  /** Conflicts of rows keyed by {@code keyOf}, none of which is a conflict row. */
  public ResultConflicts(Function<Row, Row> keyOf) {
    this(keyOf, row -> false);
  }

  /**
   * @param keyOf a row's key
   * @param conflicted whether a row stands for a key's incongruent contributors (such a row is
   *     never a valid value of its key)
   */
  public ResultConflicts(Function<Row, Row> keyOf, java.util.function.Predicate<Row> conflicted) {
    this.keyOf = keyOf;
    this.conflicted = conflicted;
  }

  /** Adds {@code weight} copies of {@code row} (negative: removes). */
  public void add(Row row, long weight) {
    Row key = keyOf.apply(row);
    Map<Row, Long> rows = byKey.computeIfAbsent(key, k -> new HashMap<>(2));
    rows.merge(row, weight, (a, b) -> a + b == 0 ? null : a + b);
    if (rows.isEmpty()) {
      byKey.remove(key);
      invalid.remove(key);
    } else if (rows.size() == 1 && rows.values().iterator().next() == 1
        && !conflicted.test(rows.keySet().iterator().next())) {
      invalid.remove(key);
    } else {
      invalid.add(key);
    }
  }

  public boolean valid() {
    return invalid.isEmpty();
  }

  /** A key that is not valid, for error messages; null when valid. */
  public Row someInvalidKey() {
    return invalid.isEmpty() ? null : invalid.iterator().next();
  }

  /** Two of the rows of {@code key} (a row twice when its weight is), for error messages. */
  public List<Row> rowsOf(Row key) {
    List<Row> out = new ArrayList<>(2);
    byKey.getOrDefault(key, Map.of()).forEach((row, w) -> {
      for (long i = 0; i < w && out.size() < 2; i++) {
        out.add(row);
      }
    });
    while (!out.isEmpty() && out.size() < 2) {
      out.add(out.get(0));
    }
    return out;
  }

  /** The row of each key; only when {@link #valid()}. */
  public Map<Row, Row> rows() {
    Map<Row, Row> out = new HashMap<>(byKey.size() * 2);
    byKey.forEach((k, rows) -> out.put(k, rows.keySet().iterator().next()));
    return out;
  }
}
