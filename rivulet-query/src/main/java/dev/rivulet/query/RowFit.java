package dev.rivulet.query;

import dev.rivulet.engine.Bytes;
import dev.rivulet.engine.Column;
import dev.rivulet.engine.Schema;
import java.time.Instant;
import java.time.LocalDate;

/**
 * The common case of {@link Schema#check} for a load's rows, without a call per value: true when
 * canonical values fit a schema by their classes alone (a {@code Long} in an INT column, a {@code
 * Double} in a DOUBLE one, a {@code String} in a STRING one, ..., NULL where allowed). False means
 * only "not settled here" (a {@code Long} in a DOUBLE or DECIMAL column, a huge integer, a wrong
 * value): the caller then checks the row with the schema, which also names what does not fit.
 *
 * <p>Immutable.
 */
final class RowFit {
  private static final byte ANY = 0;
  private static final byte LONG = 1;
  private static final byte DOUBLE = 2;
  private static final byte STRING = 3;
  private static final byte BOOL = 4;
  private static final byte BYTES = 5;
  private static final byte DATE = 6;
  private static final byte TIMESTAMP = 7;
  private static final byte GENERAL = 8; // settled by the schema only
  private final byte[] kinds;
  private final boolean[] nullable;

  RowFit(Schema schema) {
    kinds = new byte[schema.width()];
    nullable = new boolean[kinds.length];
    for (int i = 0; i < kinds.length; i++) {
      Column c = schema.column(i);
      nullable[i] = c.nullable();
      kinds[i] = switch (c.type()) {
        case INT -> LONG;
        case DOUBLE -> DOUBLE;
        case STRING -> STRING;
        case BOOL -> BOOL;
        case BYTES -> BYTES;
        case DATE -> DATE;
        case TIMESTAMP -> TIMESTAMP;
        case ANY -> ANY;
        case DECIMAL -> GENERAL;
      };
    }
  }

  /** True when the canonical {@code values} of a row fit by their classes (see the class comment). */
  boolean fits(Object[] values) {
    if (values.length != kinds.length) {
      return false;
    }
    for (int i = 0; i < values.length; i++) {
      Object v = values[i];
      boolean ok = v == null ? nullable[i] : switch (kinds[i]) {
        case LONG -> v instanceof Long;
        case STRING -> v instanceof String;
        case DOUBLE -> v instanceof Double;
        case BOOL -> v instanceof Boolean;
        case BYTES -> v instanceof Bytes;
        case DATE -> v instanceof LocalDate;
        case TIMESTAMP -> v instanceof Instant;
        case ANY -> true;
        default -> false;
      };
      if (!ok) {
        return false;
      }
    }
    return true;
  }
}
