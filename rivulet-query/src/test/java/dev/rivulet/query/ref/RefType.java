package dev.rivulet.query.ref;

import dev.rivulet.engine.ColumnType;

/**
 * The reference's own column types. A source declares its columns with the public {@link
 * ColumnType}; the reference reads that declaration by name ({@link #of}) and does all its typing
 * with this enum and {@link RefTypes}, never with the engine's or the query layer's type logic.
 */
public enum RefType {
  INT, DOUBLE, DECIMAL, STRING, BOOL, BYTES, DATE, TIMESTAMP,
  /** Not known here: the type of a NULL literal; every check accepts it. */
  ANY;

  /** The reference type of a declared column type (by name only). */
  public static RefType of(ColumnType declared) {
    return valueOf(declared.name());
  }

  /** The declared column type of the same name, to compare with a schema the system reports. */
  public ColumnType declared() {
    return ColumnType.valueOf(name());
  }

  public boolean numeric() {
    return this == INT || this == DOUBLE || this == DECIMAL;
  }
}
