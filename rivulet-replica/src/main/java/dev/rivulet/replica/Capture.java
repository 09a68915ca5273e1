package dev.rivulet.replica;

import dev.rivulet.engine.Row;
import java.sql.SQLException;
import java.util.Map;
import org.sqlite.Function;

/**
 * The SQLite capture function the replica's TEMP triggers call for every changed row, {@code
 * rivulet_capture(table, op, old values..., new values...)}: it appends the row's old and new values
 * (null for the side that does not exist) to the replica's {@link CaptureBuffer}.
 *
 * <p>Owned by the replica's write connection: called only on the thread that runs a statement,
 * under the replica's monitor.
 */
final class Capture extends Function {
  static final String NAME = "rivulet_capture";

  private final Map<String, Integer> widths;
  private final CaptureBuffer buffer;

  Capture(Map<String, Integer> widths, CaptureBuffer buffer) {
    this.widths = widths;
    this.buffer = buffer;
  }

  @Override
  protected void xFunc() throws SQLException {
    String table = value_text(0);
    String op = value_text(1); // 'I', 'U' or 'D': which sides exist
    int width = widths.get(table);
    Row before = op.equals("I") ? null : row(2, width);
    Row after = op.equals("D") ? null : row(2 + width, width);
    result();
    buffer.add(table, before, after);
  }

  private Row row(int from, int width) throws SQLException {
    Object[] values = new Object[width];
    for (int i = 0; i < width; i++) {
      values[i] = value(from + i);
    }
    return Row.of(values);
  }

  private Object value(int i) throws SQLException {
    return switch (value_type(i)) {
      case 1 -> value_long(i);
      case 2 -> value_double(i);
      case 3 -> value_text(i);
      case 4 -> value_blob(i);
      default -> null;
    };
  }
}
