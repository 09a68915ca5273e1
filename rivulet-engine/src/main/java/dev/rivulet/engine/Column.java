package dev.rivulet.engine;

import java.util.Objects;

/** A named, typed column of a {@link Schema}. */
public record Column(String name, ColumnType type, boolean nullable) {
  public Column {
    Objects.requireNonNull(name, "column name");
    Objects.requireNonNull(type, "column type");
    if (name.isBlank()) {
      throw new IllegalArgumentException("column name is blank");
    }
  }

  /** A nullable column. */
  public static Column of(String name, ColumnType type) {
    return new Column(name, type, true);
  }

  /** A column that rejects null. */
  public static Column notNull(String name, ColumnType type) {
    return new Column(name, type, false);
  }

  Column asNullable() {
    return nullable ? this : new Column(name, type, true);
  }

  @Override
  public String toString() {
    return name + " " + type + (nullable ? "" : " NOT NULL");
  }
}
