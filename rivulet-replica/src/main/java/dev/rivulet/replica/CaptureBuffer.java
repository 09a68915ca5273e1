package dev.rivulet.replica;

import dev.rivulet.engine.Row;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The running transaction's captured row changes, in the order the database made them. A failed
 * statement drops what it captured ({@link #truncate}), a rolled-back transaction all of it
 * ({@link #clear}).
 *
 * <p>Owned by the replica's write connection: filled by the backend's capture (called by the
 * database on the thread that runs a statement, under the replica's monitor) and read there.
 */
final class CaptureBuffer {
  /**
   * One captured row change of {@code table}: the key the row had before ({@code oldKey}, null for
   * an insert) and the row after ({@code after}, null for a delete); {@code keyKept} when the
   * capture knows that the row kept its key: then {@code oldKey} is null too (the key is {@code
   * after}'s, projected only by a reader that needs it, {@link #keyBefore}).
   */
  record Changed(String table, Row oldKey, Row after, boolean keyKept) {
    /** The key the row had before (null for an insert), given the column indexes of its table's key. */
    Row keyBefore(int[] keys) {
      return keyKept ? after.project(keys) : oldKey;
    }
  }

  /** Past this many changes, {@link #clear} lets the list go rather than keep its array. */
  private static final int KEPT_CAPACITY = 1024;

  private ArrayList<Changed> buffer = new ArrayList<>();

  void add(String table, Row oldKey, Row after) {
    buffer.add(new Changed(table, oldKey, after, false));
  }

  /** Adds an update of {@code table}'s row that kept its key, to {@code after}. */
  void addKept(String table, Row after) {
    buffer.add(new Changed(table, null, after, true));
  }

  /** A JDBC value as a row holds it: large objects ({@link Clob}, {@link Blob}) read into a string or bytes. */
  static Object plain(Object v) throws SQLException {
    if (v instanceof Clob c) {
      return c.getSubString(1, (int) c.length());
    }
    return v instanceof Blob b ? b.getBytes(1, (int) b.length()) : v;
  }

  /** How many changes are captured so far (a mark to {@link #truncate} to). */
  int mark() {
    return buffer.size();
  }

  /** Drops the changes captured after {@code mark}. */
  void truncate(int mark) {
    buffer.subList(mark, buffer.size()).clear();
  }

  /** The captured changes so far, in order: a view, valid until the buffer changes. */
  List<Changed> changes() {
    return buffer;
  }

  /** Drops every captured change (the list is reused: most transactions capture a few rows). */
  void clear() {
    if (buffer.size() > KEPT_CAPACITY) {
      buffer = new ArrayList<>();
    } else {
      buffer.clear();
    }
  }
}
