package dev.rivulet.replica;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * How a replica mirrors the database's tables: every table with a primary key is loaded whole when
 * the replica opens ({@link #eager()}), except the {@link #lazy} ones, which are {@link
 * dev.rivulet.query.LazyCollection}s: live queries load only the rows they demand, with SQL on the
 * table (see {@link SqliteReplica#lazyTable}). Immutable.
 *
 * @param lazyTables the tables loaded on demand, by the names the database stores
 */
public record ReplicaOptions(Set<String> lazyTables) {
  public ReplicaOptions {
    lazyTables = Set.copyOf(lazyTables);
  }

  /** Every table loaded when the replica opens. */
  public static ReplicaOptions eager() {
    return new ReplicaOptions(Set.of());
  }

  /** Tables {@code tables} loaded on demand, the others when the replica opens. */
  public static ReplicaOptions lazy(String... tables) {
    return new ReplicaOptions(new LinkedHashSet<>(Arrays.asList(tables)));
  }
}
