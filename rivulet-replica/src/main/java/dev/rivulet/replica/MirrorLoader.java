package dev.rivulet.replica;

import dev.rivulet.engine.Row;
import dev.rivulet.query.Rivulet;
import dev.rivulet.query.SourceCollection;
import dev.rivulet.query.SyncTransaction;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** Creates a table's mirror collection and loads its rows from the database. Stateless. */
final class MirrorLoader {
  private MirrorLoader() {}

  /**
   * A new mirror of {@code t} in {@code db}, its rows (read through {@code conn}) written into
   * {@code load} and marked ready there.
   */
  static SourceCollection load(Rivulet db, Connection conn, Backend backend, TableInfo t, SyncTransaction load)
      throws SQLException {
    SourceCollection c = db.collection(t.name(), t.schema(), t.keys());
    rows(conn, backend, t, c, load);
    load.markReady(c);
    return c;
  }

  /** Writes the rows of {@code t}, read through {@code conn}, to {@code c} in {@code load}. */
  static void rows(Connection conn, Backend backend, TableInfo t, SourceCollection c, SyncTransaction load)
      throws SQLException {
    try (Statement st = conn.createStatement();
        ResultSet rs = st.executeQuery("SELECT * FROM " + backend.qualified(t.name()))) {
      int n = t.columns().size();
      while (rs.next()) {
        Object[] values = new Object[n];
        for (int i = 0; i < n; i++) {
          values[i] = CaptureBuffer.plain(rs.getObject(i + 1));
        }
        load.write(c, Row.of(values));
      }
    }
  }
}
