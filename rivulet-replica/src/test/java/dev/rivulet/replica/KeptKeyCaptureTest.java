package dev.rivulet.replica;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.query.Rivulet;
import dev.rivulet.query.SourceCollection;
import dev.rivulet.query.SyncTransaction;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The SQLite capture marks an update that kept its key ({@link CaptureBuffer#keyKept}), so
 * that {@link Mirrors#apply} writes the row without comparing its key with the old one: the mark
 * is set exactly for updates whose key stayed bytewise the same (not for a NOCASE-equal key whose
 * bytes changed, one part of a composite key, inserts or deletes), and a mirror given the marks
 * ends equal to one given the same changes unmarked (the general path) and to the table.
 */
class KeptKeyCaptureTest {
  @Test
  void keptKeysAreMarkedAndTheMarkedPathAgreesWithTheGeneralOne() throws SQLException {
    try (Connection conn = SqliteBackend.connect("jdbc:sqlite::memory:")) {
      SqlRows.exec(conn,
          "CREATE TABLE codes (code TEXT COLLATE NOCASE PRIMARY KEY, n INTEGER, b BLOB) WITHOUT ROWID",
          "CREATE TABLE pairs (a INTEGER, b TEXT, r REAL, PRIMARY KEY (a, b))",
          "INSERT INTO codes VALUES ('a', 1, x'01'), ('b', 2, NULL)",
          "INSERT INTO pairs VALUES (1, 'x', 1.5), (2, 'y', NULL)");
      SqliteBackend backend = new SqliteBackend();
      List<TableInfo> tables = backend.discover(conn);
      Rivulet db = Rivulet.create();
      Mirrors marked = mirrors(db, conn, backend, tables, "m_");
      Mirrors general = mirrors(db, conn, backend, tables, "g_");
      CaptureBuffer buffer = new CaptureBuffer();
      backend.install(conn, tables, buffer);
      try (Statement st = conn.createStatement()) {
        st.execute("UPDATE codes SET n = n + 1, b = x'0203' WHERE code = 'b'"); // kept
        st.execute("UPDATE codes SET code = 'A' WHERE code = 'a'"); // NOCASE-equal bytes changed
        st.execute("UPDATE pairs SET r = 2.25, a = a WHERE a = 1"); // kept (written unchanged)
        st.execute("UPDATE pairs SET b = 'z' WHERE a = 2"); // one part of the key
        st.execute("INSERT INTO pairs VALUES (3, 'w', 0.5)");
        st.execute("DELETE FROM codes WHERE code = 'b'");
      }
      List<Boolean> marks = new ArrayList<>();
      for (int i = 0; i < buffer.size(); i++) {
        marks.add(buffer.keyKept(i));
      }
      assertThat(marks).containsExactly(true, false, true, false, false, false);
      assertThat(buffer.oldKey(0)).as("a kept key is not projected at capture").isNull();
      assertThat(buffer.keyBefore(0, keys(tables, "codes"))).isEqualTo(Row.of("b"));
      assertThat(buffer.keyBefore(2, keys(tables, "pairs"))).isEqualTo(Row.of(1L, "x"));
      assertThat(buffer.keyBefore(1, keys(tables, "codes"))).isEqualTo(Row.of("a"));
      CaptureBuffer unmarked = new CaptureBuffer();
      for (int i = 0; i < buffer.size(); i++) {
        unmarked.add(buffer.table(i), buffer.keyBefore(i, keys(tables, buffer.table(i))), buffer.after(i));
      }
      publish(db, marked, buffer);
      publish(db, general, unmarked);
      for (TableInfo t : tables) {
        List<Row> table = SqlRows.read(conn, "SELECT * FROM " + TableInfo.quote(t.name()));
        assertThat(SqlRows.sorted(marked.get(t.name()).rows())).as(t.name())
            .isEqualTo(SqlRows.sorted(general.get(t.name()).rows()))
            .isEqualTo(SqlRows.sorted(table));
      }
      backend.uninstall(conn);
    }
  }

  private static Mirrors mirrors(Rivulet db, Connection conn, SqliteBackend backend, List<TableInfo> tables,
      String prefix) throws SQLException {
    Mirrors m = new Mirrors();
    m.tables(tables);
    SyncTransaction load = db.beginSync();
    for (TableInfo t : tables) {
      SourceCollection c = db.collection(prefix + t.name(), t.schema(), t.keys());
      MirrorLoader.rows(conn, backend, t, c, load);
      load.markReady(c);
      m.put(t, c);
    }
    load.commit();
    return m;
  }

  private static int[] keys(List<TableInfo> tables, String name) {
    for (TableInfo t : tables) {
      if (t.name().equals(name)) {
        return t.schema().indexesOf(t.keys());
      }
    }
    throw new IllegalArgumentException("no table " + name);
  }

  private static void publish(Rivulet db, Mirrors m, CaptureBuffer changes) {
    SyncTransaction tx = db.beginSync();
    m.apply(changes, tx);
    tx.commit();
  }
}
