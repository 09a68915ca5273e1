package dev.rivulet.query.expr;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Column;
import dev.rivulet.engine.ColumnType;
import dev.rivulet.engine.Row;
import dev.rivulet.engine.Schema;
import dev.rivulet.query.Expr;
import dev.rivulet.query.QueryException;
import dev.rivulet.testkit.Seeds;
import java.math.BigDecimal;
import java.util.Random;
import java.util.function.Predicate;

/**
 * The table {@code t} that {@link ColumnEqualsTest} and {@link ColumnTestsTest} compile where-tests
 * over (a column of every type), its random rows (values from small domains, so that they repeat,
 * and NULL one time in five), and their check against the general tree.
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

  /** Rows {@link #agreesWithGeneral} tries. */
  static final int ROWS = 40;

  private ColumnTestRows() {
  }

  /**
   * Asserts that {@code fast}, the compiled where-test {@code e}, accepts exactly the rows the
   * general tree makes TRUE, on {@link #ROWS} random rows; returns how many it accepted.
   */
  static int agreesWithGeneral(Predicate<Row> fast, Expr e, Random rnd, long seed) {
    Evaluator general = ExprCompiler.compile(e, SCOPE, "where");
    int accepted = 0;
    for (int r = 0; r < ROWS; r++) {
      Row row = row(rnd);
      boolean want = Boolean.TRUE.equals(general.eval(row));
      assertThat(fast.test(row)).as("seed %d: %s on %s (replay: %s)", seed, e, row, Seeds.replayHint(seed))
          .isEqualTo(want);
      accepted += want ? 1 : 0;
    }
    return accepted;
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
