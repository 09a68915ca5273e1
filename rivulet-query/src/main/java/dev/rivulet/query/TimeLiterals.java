package dev.rivulet.query;

import dev.rivulet.engine.ColumnType;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/**
 * The parsing behind {@link Exprs#date} and {@link Exprs#timestamp}, in a class of its own: its
 * handlers of {@link DateTimeParseException} make the verifier load the JDK's parse exceptions,
 * which an application that writes no temporal literal, most of them, then never loads.
 */
final class TimeLiterals {
  private TimeLiterals() {}

  static Expr.Lit date(String isoDate) {
    try {
      return new Expr.Lit(LocalDate.parse(isoDate), ColumnType.DATE);
    } catch (DateTimeParseException e) {
      throw new QueryException("date literal '" + isoDate + "' is not yyyy-mm-dd: " + e.getMessage());
    }
  }

  static Expr.Lit timestamp(String text) {
    String t = text.trim();
    try {
      return new Expr.Lit(OffsetDateTime.parse(t.replace(' ', 'T')), ColumnType.TIMESTAMP);
    } catch (DateTimeParseException offsetMissing) {
      try {
        return new Expr.Lit(LocalDateTime.parse(t.replace(' ', 'T')), ColumnType.TIMESTAMP);
      } catch (DateTimeParseException e) {
        throw new QueryException("timestamp literal '" + text + "' is not an ISO-8601 date-time: " + e.getMessage());
      }
    }
  }
}
