package dev.rivulet.replica;

import dev.rivulet.engine.Row;
import java.nio.charset.Charset;
import java.sql.SQLException;
import java.util.Arrays;
import org.sqlite.Function;
import org.sqlite.core.DB;

/**
 * A SQLite capture function: one per mirrored table and operation ({@link #name}), called by the
 * replica's TEMP trigger of that table for every changed row. Its arguments are what the mirror
 * needs of the row (each value read costs two JNI calls, its type and its value; one for a rowid
 * key, always an integer): an insert passes the new row, a delete the old key, an update that kept
 * its key ({@link #KEPT}: each key column's old value {@code IS} its new one, decided by the
 * trigger) the new row, whose key is the old one, and any other update ({@link #UPDATE}) the new
 * row and the old key. Text is read as its bytes in the database's encoding (cheaper through JNI
 * than as text). Values are read from the connection's native database directly, not through
 * {@link Function}'s accessors, which lock this function and check the argument's index on every
 * read: the trigger and the function are made from the same {@link TableInfo}, so every index read
 * is in range. A text equal, byte for byte, to the one the same argument read last is handed out
 * as the same string (no new string per row for a column whose value repeats). It appends the
 * change to the replica's {@link CaptureBuffer}.
 *
 * <p>An update is read whole, not as its changed columns merged into the row the mirror holds:
 * both variants were built and measured (a changed-columns mask computed by the trigger, and a
 * trigger per column {@code AFTER UPDATE OF} it) and were slower on single-row updates of a large
 * table. Reading the mirror's old row costs two cache misses (the row and its values) that the
 * publication otherwise never pays while no live query reads the table, more than the JNI reads
 * it saves; the mask also costs about as much SQL as a column read.
 *
 * <p>Nor are the arguments packed into one (the trigger passing {@code json_array} of the row, read
 * with one JNI call and parsed in Java): JSON has no blobs, so the trigger must test each value
 * first ({@code typeof(v) = 'blob'}, or the cheaper {@code v >= x''}), and that test, {@code
 * json_array} and the parse cost as much as the per-value reads they replace (measured: no faster
 * with the comparison, slower with {@code typeof}). A value read costs about what an SQL function
 * call costs: each is a JNI call on sqlite-jdbc's synchronized native methods, re-entering the
 * connection's monitor that the running statement holds (a slow-path, recursive lock).
 *
 * <p>Owned by the replica's write connection: called only on the thread that runs a statement,
 * under the replica's monitor.
 */
final class Capture extends Function {
  static final int INSERT = 0;
  static final int UPDATE = 1;
  static final int DELETE = 2;
  static final int KEPT = 3;
  static final int[] OPS = {INSERT, UPDATE, DELETE, KEPT};

  private final String table;
  private final int op;
  private final int width;
  private final int keyWidth;
  private final int[] keys;
  private final int rowid; // the column of a rowid key (an integer in every row), -1 when the key is no rowid
  private final Charset text;
  private final CaptureBuffer buffer;
  private final DB db;
  // per argument: the bytes of the last text read and its string, handed out again while a column
  // repeats its value (a status, a name), instead of a new string per captured row
  private final byte[][] lastBytes;
  private final String[] lastText;
  // the values of a row and of a key as they are read, before Row.of copies them canonical: reused
  private final Object[] rowValues;
  private final Object[] keyValues;

  /**
   * Captures operation {@code op} on {@code t} into {@code buffer}; {@code rowidKey} when {@code
   * t}'s key is its rowid, {@code text} is the database's encoding, {@code db} the native database
   * of the connection the function is created on.
   */
  Capture(TableInfo t, boolean rowidKey, int op, Charset text, CaptureBuffer buffer, DB db) {
    this.table = t.name();
    this.op = op;
    this.width = t.columns().size();
    this.keyWidth = t.keys().size();
    this.keys = t.schema().indexesOf(t.keys());
    this.rowid = rowidKey ? keys[0] : -1;
    this.text = text;
    this.buffer = buffer;
    this.db = db;
    int arguments = width + (op == UPDATE ? keyWidth : 0);
    this.lastBytes = new byte[arguments][];
    this.lastText = new String[arguments];
    this.rowValues = new Object[width];
    this.keyValues = new Object[keyWidth];
  }

  /** The SQL name of the function for operation {@code op} on the {@code index}-th mirrored table. */
  static String name(int index, int op) {
    return "rivulet_capture_" + index + "_" + "iudk".charAt(op);
  }

  @Override
  protected void xFunc() throws SQLException {
    switch (op) {
      case INSERT -> buffer.add(table, null, row(0, width, rowid));
      case DELETE -> buffer.add(table, row(0, keyWidth, rowid < 0 ? -1 : 0), null);
      case KEPT -> buffer.addKept(table, row(0, width, rowid));
      default -> buffer.add(table, row(width, keyWidth, rowid < 0 ? -1 : 0), row(0, width, rowid));
    }
    // no result(): the call's value (NULL) is never read
  }

  /** Arguments {@code from} to {@code from + n} as a row; the one at {@code from + integer} (if not -1) is an integer. */
  private Row row(int from, int n, int integer) throws SQLException {
    Object[] values = n == width ? rowValues : keyValues; // Row.of copies them: the next row may reuse them
    for (int i = 0; i < n; i++) {
      values[i] = i == integer ? (Object) db.value_long(this, from + i) : value(from + i);
    }
    return Row.of(values);
  }

  private Object value(int i) throws SQLException {
    return switch (db.value_type(this, i)) {
      case 1 -> db.value_long(this, i);
      case 2 -> db.value_double(this, i);
      case 3 -> text(i, db.value_blob(this, i)); // the text's bytes (null when empty)
      case 4 -> {
        byte[] b = db.value_blob(this, i);
        yield b == null ? new byte[0] : b; // an empty blob comes as null
      }
      default -> null;
    };
  }

  /** Argument {@code i}'s text from its bytes {@code b} (null when empty): the last one's string when they repeat. */
  private String text(int i, byte[] b) {
    if (b == null) {
      return "";
    }
    if (Arrays.equals(b, lastBytes[i])) {
      return lastText[i];
    }
    String s = new String(b, text);
    lastBytes[i] = b;
    lastText[i] = s;
    return s;
  }
}
