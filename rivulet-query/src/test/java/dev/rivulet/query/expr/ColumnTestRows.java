package dev.rivulet.query.expr;

import dev.rivulet.engine.Column;
import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.query.QueryException;
import java.math.BigDecimal;
import java.util.Random;

/**
 * The table {@code t} that {@link ColumnEqualsTest} and {@link ColumnTestsTest} compile where-tests
 * over (a column of every type), and its random rows: values from small domains, so that they
 * repeat, and NULL one time in five.
 */
final class ColumnTestRows {
  static final Schema S = Schema.parse("i INT, d DOUBLE, m DECIMAL, s STRING, b BOOL, x ANY");

  static final Scope SCOPE = (c, clause) -> {
    if (!c.alias().equals("t") || !S.has(c.column())) {
      throw new QueryException(clause + ": unknown column " + c);
    }
    Column column = S.column(S.indexOf(c.column()));
    return new Scope.Slot(S.indexOf(c.column()), column.type(), column.nullable());
  };

  private ColumnTestRows() {
  }

  static Row row(Random rnd) {
    Object[] values = new Object[S.width()];
    for (int i = 0; i < values.length; i++) {
      values[i] = value(S.column(i).type(), rnd);
    }
    return Row.of(values);
  }

  /** A value of {@code type} from a small domain, or NULL (one time in five). */
  static Object value(ColumnType type, Random rnd) {
    if (rnd.nextInt(5) == 0) {
      return null;
    }
    return switch (type) {
      case INT -> (long) rnd.nextInt(4);
      case DOUBLE -> rnd.nextInt(8) / 2.0;
      case DECIMAL -> new BigDecimal(rnd.nextInt(8)).movePointLeft(1).setScale(1 + rnd.nextInt(2)); // 2.50 = 2.5
      case STRING -> rnd.nextBoolean() ? "open" : "s" + rnd.nextInt(3);
      case BOOL -> rnd.nextBoolean();
      default -> rnd.nextBoolean() ? (Object) (long) rnd.nextInt(4) : "s" + rnd.nextInt(3);
    };
  }
}
