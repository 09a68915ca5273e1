package dev.rivulet.replica;

import dev.rivulet.engine.Row;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.sqlite.Function;

/**
 * The capture function the replica's TEMP triggers call for every changed row, {@code
 * rivulet_capture(table, op, old values..., new values...)}: it appends the row's old and new values
 * (null for the side that does not exist) to the running transaction's buffer. A failed statement
 * drops what it captured ({@link #truncate}), a rolled-back transaction all of it.
 *
 * <p>Owned by the replica's write connection: called only on the thread that runs a statement,
 * under the replica's lock.
 */
final class Capture extends Function {
  static final String NAME = "rivulet_capture";

  /** One captured row change. */
  record Changed(String table, Row before, Row after) {}

  private final java.util.Map<String, Integer> widths;
  private final List<Changed> buffer = new ArrayList<>();

  Capture(java.util.Map<String, Integer> widths) {
    this.widths = widths;
  }

  @Override
  protected void xFunc() throws SQLException {
    String table = value_text(0);
    String op = value_text(1); // 'I', 'U' or 'D': which sides exist
    int width = widths.get(table);
    Row before = op.equals("I") ? null : row(2, width);
    Row after = op.equals("D") ? null : row(2 + width, width);
    result();
    buffer.add(new Changed(table, before, after));
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

  /** How many changes are captured so far (a mark to {@link #truncate} to). */
  int mark() {
    return buffer.size();
  }

  /** Drops the changes captured after {@code mark}. */
  void truncate(int mark) {
    buffer.subList(mark, buffer.size()).clear();
  }

  /** The captured changes, taken (the buffer is emptied). */
  List<Changed> take() {
    List<Changed> out = new ArrayList<>(buffer);
    buffer.clear();
    return out;
  }
}
