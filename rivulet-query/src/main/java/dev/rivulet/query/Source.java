package dev.rivulet.query;

import dev.rivulet.engine.Schema;
import java.util.List;

/**
 * Something a query can read: a named relation with a schema and key columns. Collections and
 * live queries are sources.
 */
public interface Source {
  /** A name for messages; not an identity. */
  String name();

  Schema schema();

  /** The columns whose values identify a row; their tuple is the row's key. */
  List<String> keyColumns();
}
