package dev.rivulet.replica;

import dev.rivulet.engine.Row;
import dev.rivulet.query.SourceCollection;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The running transaction's captured row changes, in the order the database made them. A failed
 * statement drops what it captured ({@link #truncate}), a rolled-back transaction all of it
 * ({@link #clear}). For a capture that hands over only the changed columns of a row ({@link
 * #rowBefore}), it knows each eagerly mirrored row as the transaction left it so far: its latest
 * captured change, else the row its mirror holds (the last commit's).
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
  /** Up to this many changes, {@link #rowBefore} scans them rather than index them. */
  private static final int SCANNED = 8;

  private final Mirrors mirrors;
  private ArrayList<Changed> buffer = new ArrayList<>();
  // per table that rowBefore looked a row up in while the buffer was long: its rows as the buffer
  // left them (key -> row, null when gone); dropped when the buffer is truncated below or cleared
  private Map<String, RowIndex> indexes;
  private long masked;

  /** A buffer whose {@link #rowBefore} falls back on the rows of {@code mirrors}. */
  CaptureBuffer(Mirrors mirrors) {
    this.mirrors = mirrors;
  }

  /** The rows of one table as the buffer's changes left them, covering the first {@code upTo} changes. */
  private static final class RowIndex {
    final Map<Row, Row> rows = new HashMap<>();
    int upTo;
  }

  void add(String table, Row oldKey, Row after) {
    buffer.add(new Changed(table, oldKey, after, false));
  }

  /** Adds an update of {@code table}'s row that kept its key, to {@code after}. */
  void addKept(String table, Row after) {
    buffer.add(new Changed(table, null, after, true));
  }

  /**
   * Whether table {@code name}'s rows are all held by its mirror (an eagerly mirrored table), so
   * that {@link #rowBefore} knows each of them.
   */
  boolean holdsRows(String name) {
    return mirrors.has(name);
  }

  /**
   * The row of eagerly mirrored {@code table} at {@code key} (its columns at {@code keys}) as the
   * running transaction left it so far, canonical: its latest captured change, else the row its
   * mirror holds. Null when the row is not known (removed or moved away by an earlier change, or
   * not in the mirror: then the caller captures the row whole).
   */
  Row rowBefore(String table, Row key, int[] keys) {
    int n = buffer.size();
    if (n <= SCANNED && indexes == null) {
      for (int i = n - 1; i >= 0; i--) {
        Changed c = buffer.get(i);
        if (c.table().equals(table)) {
          if (c.after() != null && key.equals(c.after().project(keys))) {
            return c.after();
          }
          if (!c.keyKept() && key.equals(c.oldKey())) {
            return null; // removed or moved away, and not back
          }
        }
      }
    } else {
      RowIndex index = index(table, keys);
      if (index.rows.containsKey(key)) {
        return index.rows.get(key);
      }
    }
    SourceCollection m = mirrors.get(table);
    Row held = m == null ? null : m.get(key).orElse(null);
    return held == null ? null : held.canonical();
  }

  /** {@code table}'s index, brought up to the buffer's end. */
  private RowIndex index(String table, int[] keys) {
    if (indexes == null) {
      indexes = new HashMap<>();
    }
    RowIndex index = indexes.computeIfAbsent(table, t -> new RowIndex());
    for (int i = index.upTo; i < buffer.size(); i++) {
      Changed c = buffer.get(i);
      if (c.table().equals(table)) {
        if (!c.keyKept() && c.oldKey() != null) {
          index.rows.put(c.oldKey(), null);
        }
        if (c.after() != null) {
          index.rows.put(c.after().project(keys), c.after());
        }
      }
    }
    index.upTo = buffer.size();
    return index;
  }

  /** Counts a change captured from its changed columns only ({@link #maskedCount}). */
  void countMasked() {
    masked++;
  }

  /** How many changes were captured from their changed columns only, for tests. */
  long maskedCount() {
    return masked;
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
    if (indexes != null) {
      indexes.values().removeIf(index -> index.upTo > mark); // rebuilt from the kept changes when next needed
    }
  }

  /** The captured changes so far, in order: a view, valid until the buffer changes. */
  List<Changed> changes() {
    return buffer;
  }

  /** Drops every captured change (the list is reused: most transactions capture a few rows). */
  void clear() {
    indexes = null;
    if (buffer.size() > KEPT_CAPACITY) {
      buffer = new ArrayList<>();
    } else {
      buffer.clear();
    }
  }
}
