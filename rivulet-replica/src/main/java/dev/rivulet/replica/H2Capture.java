package dev.rivulet.replica;

import dev.rivulet.engine.Row;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.h2.api.Trigger;
import org.h2.engine.Session;
import org.h2.jdbc.JdbcConnection;

/**
 * Not API: the H2 row trigger a replica creates on each mirrored table (H2 instantiates it by class
 * name, hence public). It appends each changed row's old key and new values to the buffer of the
 * replica that created the trigger (an update whose key values are all {@code equals} to the old
 * ones as a kept-key update, with no old key), and only for changes made through that replica's
 * own session: H2 triggers belong to the table, so writes from other connections fire them too and
 * are ignored.
 *
 * <p>The registry of live triggers is a concurrent map (triggers are created and dropped while
 * other replicas write); a trigger's buffer is touched only on its replica's writing thread. A
 * trigger left in a file database by a replica that was not closed finds no entry and does nothing.
 */
public final class H2Capture implements Trigger {
  /** What a trigger captures into: its replica's session, buffer, the table's name and key columns. */
  record Target(Session session, CaptureBuffer buffer, String table, int[] keys) {}

  private static final Map<String, Target> TARGETS = new ConcurrentHashMap<>();

  private Target target;

  /** Registers the target of the trigger named {@code trigger} (before it is created). */
  static void register(String trigger, Target target) {
    TARGETS.put(trigger, target);
  }

  static void unregister(String trigger) {
    TARGETS.remove(trigger);
  }

  /**
   * Whether a live replica of this process serves the trigger named {@code trigger} (its session is
   * open); a registration whose session closed without the replica closing is dropped.
   */
  static boolean isLive(String trigger) {
    Target t = TARGETS.get(trigger);
    if (t != null && t.session().isClosed()) {
      TARGETS.remove(trigger, t);
      return false;
    }
    return t != null;
  }

  @Override
  public void init(Connection conn, String schema, String trigger, String table, boolean before, int type) {
    target = TARGETS.get(trigger);
  }

  @Override
  public void fire(Connection conn, Object[] oldRow, Object[] newRow) throws SQLException {
    Target t = target;
    if (t == null || !(conn instanceof JdbcConnection jc) || jc.getSession() != t.session()) {
      return; // not the replica's own write
    }
    if (oldRow != null && newRow != null && sameKey(oldRow, newRow, t.keys())) {
      t.buffer().addKept(t.table(), row(newRow)); // an update that kept its key: no old key to project
      return;
    }
    t.buffer().add(t.table(), oldRow == null ? null : key(oldRow, t.keys()), newRow == null ? null : row(newRow));
  }

  /**
   * Whether each key column's old value {@code equals} its new one: then the key is kept (a false
   * answer only sends the change the general way, which compares the keys' canonical forms; arrays,
   * large objects and decimals of another scale answer false).
   */
  private static boolean sameKey(Object[] oldRow, Object[] newRow, int[] keys) {
    for (int k : keys) {
      if (oldRow[k] == null || !oldRow[k].equals(newRow[k])) {
        return false;
      }
    }
    return true;
  }

  private static Row row(Object[] values) throws SQLException {
    Object[] v = values.clone();
    for (int i = 0; i < v.length; i++) {
      v[i] = CaptureBuffer.plain(v[i]);
    }
    return Row.of(v);
  }

  private static Row key(Object[] values, int[] keys) throws SQLException {
    Object[] v = new Object[keys.length];
    for (int i = 0; i < keys.length; i++) {
      v[i] = CaptureBuffer.plain(values[keys[i]]);
    }
    return Row.of(v);
  }
}
