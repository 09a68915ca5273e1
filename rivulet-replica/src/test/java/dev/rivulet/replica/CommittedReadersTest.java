package dev.rivulet.replica;

import static dev.rivulet.query.Exprs.col;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rivulet.engine.Row;
import dev.rivulet.query.ChangeBatch;
import dev.rivulet.query.LiveQuery;
import dev.rivulet.query.Query;
import dev.rivulet.query.SubscribeOptions;
import dev.rivulet.testkit.Seeds;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Readers on other connections see what subscribers see: at every publication, a separate
 * connection's SELECT equals the live query's rows (SQLite files in WAL mode, H2 files).
 */
class CommittedReadersTest {
  @TempDir
  Path dir;

  private static final String ALL = "SELECT * FROM items ORDER BY id";

  @Test
  void aSqliteFileOpensInWalModeWithNormalSync() throws SQLException {
    String url = Backends.SQLITE.url(dir, "wal");
    Backends.SQLITE.run(url, "CREATE TABLE items (id INTEGER PRIMARY KEY)");
    try (SqliteReplica r = SqliteReplica.open(url); Connection other = Backends.SQLITE.connect(url)) {
      assertThat(SqlRows.read(other, "PRAGMA journal_mode")).containsExactly(Row.of("wal"));
      assertThat(SqlRows.read(r.connection(), "PRAGMA synchronous")).as("NORMAL").containsExactly(Row.of(1));
    }
  }

  @ParameterizedTest
  @EnumSource(Backends.class)
  void aSeparateConnectionReadsThePublishedStateInEveryCallback(Backends b) throws SQLException {
    for (long seed : Seeds.runs(2)) {
      String url = b.url(dir, "readers" + Long.toUnsignedString(seed));
      b.run(url, "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT, qty INTEGER)");
      Random rnd = new Random(seed);
      String at = b + " seed " + seed + " (" + Seeds.replayHint(seed) + ")";
      try (SqliteReplica r = b.open(url); Connection reader = b.connect(url)) {
        LiveQuery items = r.liveQuery("items", Query.from("i", r.table("items")).orderBy(Query.asc(col("i.id"))));
        List<String> mismatches = new ArrayList<>();
        int[] checked = {0};
        items.subscribeChanges(SubscribeOptions.sync(), batch -> {
          if (batch instanceof ChangeBatch.Changed) {
            try {
              List<Row> db = SqlRows.read(reader, ALL);
              if (!db.equals(items.rows())) {
                mismatches.add("tx " + batch.txId() + ": live " + items.rows() + " but the reader sees " + db);
              }
              checked[0]++;
            } catch (SQLException e) {
              mismatches.add("tx " + batch.txId() + ": " + e);
            }
          }
        });
        for (int step = 0; step < 40; step++) {
          int id = rnd.nextInt(10);
          if (rnd.nextInt(3) == 0) {
            r.transaction(tx -> {
              tx.execute("DELETE FROM items WHERE id = ?", id);
              tx.execute("INSERT INTO items VALUES (?, ?, ?)", id, "n" + rnd.nextInt(5), rnd.nextInt(9));
              tx.execute("UPDATE items SET qty = qty + 1 WHERE qty < ?", rnd.nextInt(9));
            });
          } else if (rnd.nextBoolean()) {
            r.execute("DELETE FROM items WHERE id = ?", id);
          } else {
            r.execute("UPDATE items SET qty = ? WHERE id > ?", rnd.nextInt(9), id);
            r.execute("INSERT INTO items SELECT ?, 'x', 0 WHERE NOT EXISTS (SELECT 1 FROM items WHERE id = ?)", id, id);
          }
        }
        assertThat(mismatches).as(at).isEmpty();
        assertThat(checked[0]).as(at + ": callbacks that compared").isGreaterThan(10);
        assertThat(items.rows()).as(at).isEqualTo(SqlRows.read(reader, ALL));
      }
    }
  }
}
