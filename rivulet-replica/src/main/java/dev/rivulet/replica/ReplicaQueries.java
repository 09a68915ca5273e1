package dev.rivulet.replica;

import dev.rivulet.query.LiveQuery;
import dev.rivulet.query.Query;
import dev.rivulet.query.QueryException;
import dev.rivulet.query.Source;
import dev.rivulet.query.Status;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * The live queries created through a replica, each with the query it was built from, so that a
 * schema change can re-create them over the new mirrors ({@link #requery}); every live query ever
 * created for an entry leads to it ({@link #current}).
 *
 * <p>Owned by its replica: used under the replica's monitor.
 */
final class ReplicaQueries {
  private static final class Entry {
    final String name;
    Query query;
    LiveQuery current; // null once it failed
    RuntimeException error;

    Entry(String name, Query query, LiveQuery current) {
      this.name = name;
      this.query = query;
      this.current = current;
    }
  }

  private final List<Entry> entries = new ArrayList<>();
  private final Map<LiveQuery, Entry> byQuery = new IdentityHashMap<>();

  /** Keeps {@code q}, built from {@code query}; forgets the entries whose live query was closed. */
  void register(String name, Query query, LiveQuery q) {
    entries.removeIf(ReplicaQueries::closed);
    byQuery.values().removeIf(ReplicaQueries::closed);
    Entry e = new Entry(name, query, q);
    entries.add(e);
    byQuery.put(q, e);
  }

  private static boolean closed(Entry e) {
    return e.current != null && e.current.status() == Status.CLOSED;
  }

  /**
   * The live query that stands for {@code q} now: {@code q} itself, unless a schema change
   * re-created it (then the newest one).
   *
   * @throws QueryException when a schema change left it failed (the error names the cause)
   */
  LiveQuery current(LiveQuery q) {
    Entry e = byQuery.get(q);
    if (e == null) {
      return q;
    }
    if (e.current == null) {
      QueryException failed = new QueryException("live query '" + e.name + "' no longer compiles after a schema"
          + " change: " + e.error.getMessage());
      failed.initCause(e.error);
      throw failed;
    }
    return e.current;
  }

  /**
   * Re-creates, in creation order, each live query that reads a source of {@code replaced}
   * (identity map: old mirror to new mirror, null for gone) with {@code create}; a re-created
   * query is added to {@code replaced} so that the queries reading it follow, a failed one maps
   * to null.
   */
  List<SchemaChange.Requery> requery(Map<Source, Source> replaced, BiFunction<String, Query, LiveQuery> create) {
    List<SchemaChange.Requery> out = new ArrayList<>();
    for (Entry e : entries) {
      if (e.current == null || closed(e)) {
        continue; // failed before, or closed by its owner: not brought back
      }
      LiveQuery before = e.current;
      try {
        Query rebound = QueryRebind.rebind(e.query, replaced);
        if (rebound == null) {
          continue;
        }
        LiveQuery after = create.apply(e.name, rebound);
        e.query = rebound;
        e.current = after;
        byQuery.put(after, e);
        replaced.put(before, after);
        out.add(new SchemaChange.Requery(before, after, null));
      } catch (RuntimeException ex) {
        e.current = null;
        e.error = ex;
        replaced.put(before, null);
        out.add(new SchemaChange.Requery(before, null, ex));
      }
    }
    return out;
  }
}
