package dev.rivulet.query;

import dev.rivulet.engine.Bytes;
import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;

/**
 * The oracle's table of the Java class a user gets for each column type (the README's promise
 * that values handed out have their column's Java type), written apart from the engine's own
 * {@code ColumnType.present}: INT is a {@code Long} (a {@code BigInteger} beyond 64 bits), DOUBLE
 * a {@code Double} (also 2.0), DECIMAL a {@code BigDecimal} (a {@code Double} only when not
 * finite), STRING a {@code String}, BOOL a {@code Boolean}, BYTES {@code Bytes}, DATE a {@code
 * LocalDate}, TIMESTAMP an {@code Instant}; ANY anything. The oracle applies it to the schema the
 * reference gives (a collection's declaration, {@link Shapes} over the reference typing table for a
 * live query), not to the schema the system reports, so a mistyped expression cannot vouch for its
 * own values.
 */
final class JavaTypes {
  private JavaTypes() {}

  static boolean fits(ColumnType t, Object v) {
    if (v == null) {
      return true;
    }
    return switch (t) {
      case INT -> v instanceof Long || v instanceof BigInteger;
      case DOUBLE -> v instanceof Double;
      case DECIMAL -> v instanceof BigDecimal || v instanceof Double d && !Double.isFinite(d);
      case STRING -> v instanceof String;
      case BOOL -> v instanceof Boolean;
      case BYTES -> v instanceof Bytes;
      case DATE -> v instanceof LocalDate;
      case TIMESTAMP -> v instanceof Instant;
      case ANY -> true;
    };
  }

  /** Null when every value of {@code row} (its first {@code schema.width()}) fits its column; else which does not. */
  static String mismatch(Schema schema, Row row) {
    if (row == null) {
      return null;
    }
    for (int i = 0; i < Math.min(schema.width(), row.width()); i++) {
      Object v = row.get(i);
      if (!fits(schema.column(i).type(), v)) {
        return "column " + schema.column(i).name() + " (" + schema.column(i).type() + ") of " + row + " is handed out as "
            + v.getClass().getSimpleName() + " " + v;
      }
    }
    return null;
  }
}
