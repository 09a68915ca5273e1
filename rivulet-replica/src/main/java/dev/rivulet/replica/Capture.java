package dev.rivulet.replica;

import dev.rivulet.engine.Row;
import java.sql.SQLException;
import java.util.List;
import org.sqlite.Function;

/**
 * The SQLite capture function the replica's TEMP triggers call for every changed row. Its first
 * argument, a constant of the trigger ({@link #code}), names the table (its index in the mirrored
 * tables) and the operation; the others are what the mirror needs of the row, and nothing more
 * (each value costs two JNI calls): an insert passes the new row, an update the new row then the
 * old key, a delete the old key. It appends the change to the replica's {@link CaptureBuffer}.
 *
 * <p>Owned by the replica's write connection: called only on the thread that runs a statement,
 * under the replica's monitor.
 */
final class Capture extends Function {
  static final String NAME = "rivulet_capture";
  static final int INSERT = 0;
  static final int UPDATE = 1;
  static final int DELETE = 2;

  private final String[] names;
  private final int[] widths;
  private final int[] keyWidths;
  private final CaptureBuffer buffer;

  /** Captures changes of {@code tables} (a trigger names its table by its index here) into {@code buffer}. */
  Capture(List<TableInfo> tables, CaptureBuffer buffer) {
    int n = tables.size();
    this.names = new String[n];
    this.widths = new int[n];
    this.keyWidths = new int[n];
    for (int i = 0; i < n; i++) {
      TableInfo t = tables.get(i);
      names[i] = t.name();
      widths[i] = t.columns().size();
      keyWidths[i] = t.keys().size();
    }
    this.buffer = buffer;
  }

  /** The first argument of the capture call in the {@code op} trigger of table {@code table}. */
  static int code(int table, int op) {
    return table * 3 + op;
  }

  @Override
  protected void xFunc() throws SQLException {
    int code = value_int(0);
    int table = code / 3;
    int op = code % 3;
    int width = widths[table];
    Row after = op == DELETE ? null : row(1, width);
    Row oldKey = op == INSERT ? null : row(op == UPDATE ? 1 + width : 1, keyWidths[table]);
    buffer.add(names[table], oldKey, after); // no result(): the call's value (NULL) is never read
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
