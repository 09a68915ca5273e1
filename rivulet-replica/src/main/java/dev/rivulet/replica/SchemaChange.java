package dev.rivulet.replica;

import dev.rivulet.query.LiveQuery;
import java.util.List;

/**
 * What one schema-changing statement did to a replica's mirrors (see {@link SqliteReplica}'s rules
 * on schema changes): the tables it created, altered (columns, types or primary key changed) and
 * dropped, and what became of each live query created through the replica that read an altered or
 * dropped table. Immutable.
 *
 * @param created tables that appeared (mirrored when they have a primary key)
 * @param altered tables whose mirror was replaced by a new one, re-loaded with the new columns
 * @param dropped tables that disappeared (their mirrors are closed)
 * @param queries the live queries re-created over the new mirrors, or failed
 */
public record SchemaChange(List<String> created, List<String> altered, List<String> dropped, List<Requery> queries) {
  public SchemaChange {
    created = List.copyOf(created);
    altered = List.copyOf(altered);
    dropped = List.copyOf(dropped);
    queries = List.copyOf(queries);
  }

  /**
   * One live query that read a changed table: {@code before} is closed off (in error: its source is
   * closed); {@code after} is the same query compiled and hydrated over the new mirrors, or null
   * when it no longer compiles, {@code error} then saying why (naming the missing column or the
   * dropped table).
   */
  public record Requery(LiveQuery before, LiveQuery after, RuntimeException error) {}

  /** Whether the statement changed no table. */
  public boolean isEmpty() {
    return created.isEmpty() && altered.isEmpty() && dropped.isEmpty();
  }
}
