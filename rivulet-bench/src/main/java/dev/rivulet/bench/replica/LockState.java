package dev.rivulet.bench.replica;

import dev.rivulet.replica.SqliteReplica;
import java.lang.reflect.Field;
import java.sql.Connection;
import java.sql.SQLException;
import org.sqlite.SQLiteConnection;

/**
 * Whether HotSpot has inflated the lock of a sqlite-jdbc connection, for {@link ReplicaLatency}'s
 * figures: sqlite-jdbc's native methods are {@code synchronized} on the connection's native
 * database object, and once HotSpot (17, legacy stack locking) has inflated that object's lock,
 * which it does when compiled code holding it is deoptimised (as the JIT does while it settles),
 * every native call of the driver on that connection takes the runtime's slow locking path until
 * the monitor deflater frees the lock (after about a minute idle). Measured: +0.35 us per plain
 * single-row UPDATE, +0.5 us with a capture trigger reading the row. A write-rate comparison is
 * only fair between connections in the same lock state, so the figures say which each was in.
 *
 * <p>Reads the object's mark word (its two low bits {@code 10} mean an inflated monitor) through
 * {@code sun.misc.Unsafe}; -1 when that or the connection's native object cannot be reached.
 */
final class LockState {
  private static final sun.misc.Unsafe UNSAFE = unsafe();

  private LockState() {}

  /** 1 when {@code c}'s native database lock is inflated, 0 when not, -1 when unknown. */
  static int inflated(Connection c) {
    try {
      return inflatedLock(c.unwrap(SQLiteConnection.class).getDatabase());
    } catch (SQLException e) {
      return -1;
    }
  }

  /** {@link #inflated} of the replica's write connection (reached by reflection: it is not API). */
  static int inflated(SqliteReplica r) {
    try {
      Field f = SqliteReplica.class.getDeclaredField("conn");
      f.setAccessible(true);
      return inflated((Connection) f.get(r));
    } catch (ReflectiveOperationException | RuntimeException e) {
      return -1;
    }
  }

  private static int inflatedLock(Object o) {
    if (UNSAFE == null || o == null) {
      return -1;
    }
    return (UNSAFE.getLong(o, 0L) & 3) == 2 ? 1 : 0;
  }

  private static sun.misc.Unsafe unsafe() {
    try {
      Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
      f.setAccessible(true);
      return (sun.misc.Unsafe) f.get(null);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }
}
