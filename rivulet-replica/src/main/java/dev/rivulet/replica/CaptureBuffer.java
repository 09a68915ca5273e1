package dev.rivulet.replica;

import dev.rivulet.engine.Row;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.SQLException;
import java.util.Arrays;

/**
 * The running transaction's captured row changes, in the order the database made them. A failed
 * statement drops what it captured ({@link #truncate}), a rolled-back transaction all of it
 * ({@link #clear}).
 *
 * <p>Change {@code i} is of {@link #table}: the key the row had before ({@link #oldKey}, null for
 * an insert) and the row after ({@link #after}, null for a delete); {@link #keyKept} when the
 * capture knows that the row kept its key: then its old key is null too (the key is the row
 * after's, projected only by a reader that needs it, {@link #keyBefore}). The changes are held in
 * parallel arrays reused across transactions, so capturing a change allocates nothing here.
 *
 * <p>Owned by the replica's write connection: filled by the backend's capture (called by the
 * database on the thread that runs a statement, under the replica's monitor) and read there.
 */
final class CaptureBuffer {
  /** Past this many changes, {@link #clear} lets the arrays go rather than keep them. */
  private static final int KEPT_CAPACITY = 1024;
  private static final int INITIAL = 8;

  private String[] tables = new String[INITIAL];
  private Row[] oldKeys = new Row[INITIAL];
  private Row[] afters = new Row[INITIAL];
  private boolean[] kept = new boolean[INITIAL];
  private int size;

  void add(String table, Row oldKey, Row after) {
    append(table, oldKey, after, false);
  }

  /** Adds an update of {@code table}'s row that kept its key, to {@code after}. */
  void addKept(String table, Row after) {
    append(table, null, after, true);
  }

  private void append(String table, Row oldKey, Row after, boolean keyKept) {
    if (size == tables.length) {
      int n = 2 * size;
      tables = Arrays.copyOf(tables, n);
      oldKeys = Arrays.copyOf(oldKeys, n);
      afters = Arrays.copyOf(afters, n);
      kept = Arrays.copyOf(kept, n);
    }
    tables[size] = table;
    oldKeys[size] = oldKey;
    afters[size] = after;
    kept[size] = keyKept;
    size++;
  }

  /** A JDBC value as a row holds it: large objects ({@link Clob}, {@link Blob}) read into a string or bytes. */
  static Object plain(Object v) throws SQLException {
    if (v instanceof Clob c) {
      return c.getSubString(1, (int) c.length());
    }
    return v instanceof Blob b ? b.getBytes(1, (int) b.length()) : v;
  }

  /** How many changes are captured so far (also a mark to {@link #truncate} to). */
  int size() {
    return size;
  }

  int mark() {
    return size;
  }

  String table(int i) {
    return tables[i];
  }

  /** The key change {@code i}'s row had before; null for an insert, and for an update that kept its key. */
  Row oldKey(int i) {
    return oldKeys[i];
  }

  /** Change {@code i}'s row after it; null for a delete. */
  Row after(int i) {
    return afters[i];
  }

  boolean keyKept(int i) {
    return kept[i];
  }

  /** The key change {@code i}'s row had before (null for an insert), given the column indexes of its table's key. */
  Row keyBefore(int i, int[] keys) {
    return kept[i] ? afters[i].project(keys) : oldKeys[i];
  }

  /** Drops the changes captured after {@code mark}. */
  void truncate(int mark) {
    Arrays.fill(tables, mark, size, null);
    Arrays.fill(oldKeys, mark, size, null);
    Arrays.fill(afters, mark, size, null);
    size = mark;
  }

  /** Drops every captured change (the arrays are reused: most transactions capture a few rows). */
  void clear() {
    if (size > KEPT_CAPACITY) {
      tables = new String[INITIAL];
      oldKeys = new Row[INITIAL];
      afters = new Row[INITIAL];
      kept = new boolean[INITIAL];
      size = 0;
    } else {
      truncate(0);
    }
  }
}
