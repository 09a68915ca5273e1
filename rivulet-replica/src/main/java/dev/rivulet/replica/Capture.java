package dev.rivulet.replica;

import dev.rivulet.engine.Row;
import java.sql.SQLException;
import org.sqlite.Function;

/**
 * A SQLite capture function: one per mirrored table and operation ({@link #name}), called by the
 * replica's TEMP trigger of that table and operation for every changed row. Its arguments are what
 * the mirror needs of the row and nothing more (each value costs two JNI calls): an insert passes
 * the new row, an update that keeps the primary key the new row (the old key is the new row's, taken
 * in Java), an update that changes it the new row then the old key, a delete the old key. It
 * appends the change to the replica's {@link CaptureBuffer}.
 *
 * <p>Owned by the replica's write connection: called only on the thread that runs a statement,
 * under the replica's monitor.
 */
final class Capture extends Function {
  static final int INSERT = 0;
  /** An update that keeps the primary key (SQLite's trigger {@code WHEN} decides, see {@link SqliteBackend}). */
  static final int UPDATE = 1;
  /** An update that changes the primary key. */
  static final int REKEY = 2;
  static final int DELETE = 3;
  static final int[] OPS = {INSERT, UPDATE, REKEY, DELETE};

  private final String table;
  private final int op;
  private final int width;
  private final int keyWidth;
  private final int[] keys;
  private final CaptureBuffer buffer;

  /** Captures operation {@code op} on {@code t} into {@code buffer}. */
  Capture(TableInfo t, int op, CaptureBuffer buffer) {
    this.table = t.name();
    this.op = op;
    this.width = t.columns().size();
    this.keyWidth = t.keys().size();
    this.keys = t.schema().indexesOf(t.keys());
    this.buffer = buffer;
  }

  /** The SQL name of the function for operation {@code op} on the {@code index}-th mirrored table. */
  static String name(int index, int op) {
    return "rivulet_capture_" + index + "_" + "iukd".charAt(op);
  }

  @Override
  protected void xFunc() throws SQLException {
    Row after = op == DELETE ? null : row(0, width);
    Row oldKey = switch (op) {
      case INSERT -> null;
      case UPDATE -> after.project(keys);
      case REKEY -> row(width, keyWidth);
      default -> row(0, keyWidth);
    };
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
