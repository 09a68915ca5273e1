package dev.rivulet.replica;

import dev.rivulet.engine.Row;
import java.sql.SQLException;
import org.sqlite.Function;

/**
 * A SQLite capture function: one per mirrored table and operation ({@link #name}), called by the
 * replica's TEMP trigger of that table and operation for every changed row. Its arguments are what
 * the mirror needs of the row and nothing more (each value costs two JNI calls): an insert passes
 * the new row, an update the new row then the old key, a delete the old key. It appends the change
 * to the replica's {@link CaptureBuffer}.
 *
 * <p>Owned by the replica's write connection: called only on the thread that runs a statement,
 * under the replica's monitor.
 */
final class Capture extends Function {
  static final int INSERT = 0;
  static final int UPDATE = 1;
  static final int DELETE = 2;

  private final String table;
  private final int op;
  private final int width;
  private final int keyWidth;
  private final CaptureBuffer buffer;

  /** Captures operation {@code op} on {@code t} into {@code buffer}. */
  Capture(TableInfo t, int op, CaptureBuffer buffer) {
    this.table = t.name();
    this.op = op;
    this.width = t.columns().size();
    this.keyWidth = t.keys().size();
    this.buffer = buffer;
  }

  /** The SQL name of the function for operation {@code op} on the {@code index}-th mirrored table. */
  static String name(int index, int op) {
    return "rivulet_capture_" + index + "_" + "iud".charAt(op);
  }

  @Override
  protected void xFunc() throws SQLException {
    Row after = op == DELETE ? null : row(0, width);
    Row oldKey = op == INSERT ? null : row(op == UPDATE ? width : 0, keyWidth);
    buffer.add(table, oldKey, after); // no result(): the call's value (NULL) is never read
  }

  private Row row(int from, int n) throws SQLException {
    Object[] values = new Object[n];
    for (int i = 0; i < n; i++) {
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
